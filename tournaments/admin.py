"""The Django admin, for staff (organisers work in the console and the API, checked per tournament).

People and tournaments are edited here: clubs, players, pairs (with a CSV import), tournaments with
their entries and organiser roles. Everything the tournament's services derive or record (rounds'
lifecycle, boards, games, hands, confirmations, the audit trail, idempotency answers, the outbox and
standings snapshots) is shown read-only: those change only through the services, which lock, audit and
rescore (docs/adr/0003-admin-read-only-for-play.md).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from .admin_csv import REQUIRED_COLUMNS, pairs_import_csv
from .models import (
    AuditEvent,
    Board,
    Club,
    Device,
    Entry,
    Game,
    GameConfirmation,
    Hand,
    IdempotencyRecord,
    OutboxMessage,
    Pair,
    PairingCode,
    Player,
    Round,
    StandingsSnapshot,
    Tournament,
    TournamentRole,
)
from .services.devices import device_revoke

admin.site.site_header = "Hang Jack administration"
admin.site.site_title = "Hang Jack admin"
admin.site.index_title = "Clubs, players, pairs and tournaments"


def pretty_json(value: Any) -> str:
    return format_html("<pre style='margin:0'>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Viewable by staff, never added, changed or deleted here (the services own these rows)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# ---- People ---------------------------------------------------------------------------------------


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "short_name", "town"]
    search_fields = ["name", "short_name", "town"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name", "club__name"]
    autocomplete_fields = ["club"]


class PairCsvImportForm(forms.Form):
    file = forms.FileField(help_text="CSV, UTF-8, first line: " + ", ".join(REQUIRED_COLUMNS))
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.exclude(status=Tournament.Status.FINISHED),
        required=False,
        help_text="Optional: also enter every pair in this tournament, with the row's seed.",
    )


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["__str__", "club", "seed", "player_1", "player_2"]
    list_filter = ["club"]
    list_select_related = ["club", "player_1", "player_2"]
    search_fields = ["name", "player_1__name", "player_2__name", "club__name"]
    autocomplete_fields = ["player_1", "player_2", "club"]
    change_list_template = "admin/tournaments/pair/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "import-csv/",
                self.admin_site.admin_view(self.import_csv_view),
                name="tournaments_pair_import_csv",
            )
        ]
        return custom + super().get_urls()

    def import_csv_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            return HttpResponseRedirect(reverse("admin:tournaments_pair_changelist"))
        errors = []
        if request.method == "POST":
            form = PairCsvImportForm(request.POST, request.FILES)
            if form.is_valid():
                upload = form.cleaned_data["file"]
                result = pairs_import_csv(
                    data=upload.read(), tournament=form.cleaned_data["tournament"], user=request.user
                )
                if result.ok:
                    self.message_user(request, "Imported: " + result.summary(), messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:tournaments_pair_changelist"))
                errors = result.errors
                self.message_user(
                    request, f"Nothing imported: {len(errors)} row(s) to fix (listed below).", messages.ERROR
                )
        else:
            form = PairCsvImportForm()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import pairs from CSV",
            "form": form,
            "row_errors": errors,
            "columns": REQUIRED_COLUMNS,
        }
        return TemplateResponse(request, "admin/tournaments/pair/import_csv.html", context)


# ---- Tournaments ----------------------------------------------------------------------------------


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    autocomplete_fields = ["pair"]
    fields = ["pair", "seed", "withdrawn"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("pair__player_1", "pair__player_2")

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "pair":
            kwargs["queryset"] = Pair.objects.select_related("player_1", "player_2")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class TournamentRoleInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "status", "published", "entrant_type", "pairing_system", "starts_on", "venue"]
    list_filter = ["status", "published", "entrant_type", "pairing_system"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["rules_resolved_display", "created_at"]
    inlines = [TournamentRoleInline, EntryInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "venue", "starts_on", "ends_on", "status", "published"]}),
        ("Format", {"fields": ["entrant_type", "pairing_system", "rounds_planned", "match_format", "team_format",
                               "time_called", "third_place_match", "qualifies_from"]}),
        ("Rules and ranking", {"fields": ["rules", "rules_resolved_display", "tiebreaks", "bye_policy",
                                          "club_avoidance"]}),
        ("Record", {"fields": ["created_at"]}),
    ]

    @admin.display(description="Rules as resolved by the engine")
    def rules_resolved_display(self, obj: Tournament) -> str:
        return pretty_json(obj.rules_resolved)


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["user", "tournament", "role"]
    list_filter = ["role", "tournament"]
    list_select_related = ["user", "tournament"]
    autocomplete_fields = ["user", "tournament"]
    search_fields = ["user__username", "tournament__name"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["pair", "tournament", "seed", "withdrawn"]
    list_filter = ["tournament", "withdrawn"]
    list_select_related = ["tournament", "pair__player_1", "pair__player_2"]
    search_fields = ["pair__name", "pair__player_1__name", "pair__player_2__name", "tournament__name"]
    autocomplete_fields = ["pair", "tournament"]


# ---- Play: read-only, changed through the services -------------------------------------------------


class BoardInline(ReadOnlyInline):
    model = Board
    fields = ["table", "pair_a", "pair_b", "bullseyes_a", "bullseyes_b", "decided", "all_confirmed", "disputed",
              "help_called"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Board]:
        return super().get_queryset(request).select_related(
            "round__tournament", "pair_a__pair__player_1", "pair_a__pair__player_2",
            "pair_b__pair__player_1", "pair_b__pair__player_2",
        )


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "status", "needs_review", "feasibility", "published_at", "closed_at"]
    list_filter = ["status", "needs_review", "tournament"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    inlines = [BoardInline]


class GameInline(ReadOnlyInline):
    model = Game
    fields = ["number", "status", "score", "winner", "confirmed", "awarded"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("board__round__tournament")


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "pair_a", "pair_b", "score", "status_display", "help_called"]
    list_filter = ["disputed", "help_called", "decided", "all_confirmed", "round__tournament"]
    list_select_related = [
        "round__tournament", "pair_a__pair__player_1", "pair_a__pair__player_2",
        "pair_b__pair__player_1", "pair_b__pair__player_2",
    ]
    search_fields = ["round__tournament__name", "pair_a__pair__player_1__name", "pair_b__pair__player_1__name"]
    inlines = [GameInline]

    @admin.display(description="games")
    def score(self, obj: Board) -> str:
        return f"{obj.bullseyes_a}-{obj.bullseyes_b}"

    @admin.display(description="status")
    def status_display(self, obj: Board) -> str:
        return obj.status


class GameConfirmationInline(ReadOnlyInline):
    model = GameConfirmation
    fields = ["party", "agrees", "reason", "device", "user", "cleared", "created_at"]
    readonly_fields = fields
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameConfirmation]:
        return super().get_queryset(request).select_related("device__tournament", "user")


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ["number", "version", "status", "dealer", "trump", "events", "score_after", "winner"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        return super().get_queryset(request).select_related("game__board__round__tournament")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "status", "score", "winner", "confirmed", "awarded"]
    list_filter = ["status", "confirmed", "awarded", "board__round__tournament"]
    list_select_related = ["board__round__tournament"]
    inlines = [GameConfirmationInline, HandInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "status", "form", "dealer", "trump", "events_display", "score_after", "created_at"]
    list_filter = ["status", "form", "game__board__round__tournament"]
    list_select_related = ["game__board__round__tournament"]
    fields = ["game", "number", "version", "status", "form", "dealer", "trump", "events_pretty", "score_after",
              "winner", "next_dealer", "supersedes", "device", "user", "created_at", "voided_at", "record_pretty"]
    readonly_fields = fields

    @admin.display(description="events")
    def events_display(self, obj: Hand) -> str:
        return ", ".join(str(e.get("kind", e)) if isinstance(e, dict) else str(e) for e in obj.events)

    @admin.display(description="events")
    def events_pretty(self, obj: Hand) -> str:
        return pretty_json(obj.events)

    @admin.display(description="record (as submitted)")
    def record_pretty(self, obj: Hand) -> str:
        return pretty_json(obj.record)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "object_type", "object_id", "tournament", "user", "device"]
    list_filter = ["action", "object_type", "tournament"]
    list_select_related = ["tournament", "user", "device__tournament"]
    search_fields = ["action", "object_type", "object_id"]
    date_hierarchy = "at"
    fields = ["at", "tournament", "user", "device", "action", "object_type", "object_id", "before_pretty", "after_pretty"]
    readonly_fields = fields

    @admin.display(description="before")
    def before_pretty(self, obj: AuditEvent) -> str:
        return pretty_json(obj.before)

    @admin.display(description="after")
    def after_pretty(self, obj: AuditEvent) -> str:
        return pretty_json(obj.after)


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ["device", "key", "status_code", "created_at"]
    list_select_related = ["device__tournament"]
    search_fields = ["key"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "after_round", "created_at", "source_hash"]
    list_filter = ["tournament"]
    list_select_related = ["tournament"]


# ---- Devices and the outbox -----------------------------------------------------------------------


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tablets are paired from the console with a pairing code; staff may only label or revoke them."""

    list_display = ["tournament", "table", "token_prefix", "label", "is_active", "paired_at", "last_seen_at"]
    list_filter = ["tournament", ("revoked_at", admin.EmptyFieldListFilter)]
    list_select_related = ["tournament"]
    search_fields = ["label", "token_prefix", "tournament__name"]
    fields = ["tournament", "table", "token_prefix", "label", "paired_at", "revoked_at", "last_seen_at"]
    readonly_fields = ["tournament", "table", "token_prefix", "paired_at", "revoked_at", "last_seen_at"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(boolean=True, description="active")
    def is_active(self, obj: Device) -> bool:
        return obj.is_active

    @admin.action(description="Revoke the selected devices (their requests get 401)")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Device]) -> None:
        count = 0
        for device in queryset.filter(revoked_at__isnull=True):
            device_revoke(device=device, user=request.user)
            count += 1
        self.message_user(request, f"{count} device(s) revoked.", messages.SUCCESS)


@admin.register(PairingCode)
class PairingCodeAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "table", "created_by", "created_at", "expires_at", "used_at", "device"]
    list_filter = ["tournament"]
    list_select_related = ["tournament", "created_by", "device__tournament"]
    exclude = ["code_digest"]


@admin.register(OutboxMessage)
class OutboxMessageAdmin(ReadOnlyAdmin):
    """The transactional outbox: unsent rows are published by the periodic sweep once Redis is back."""

    list_display = ["id", "task", "args", "coalesce_key", "created_at", "sent_at", "attempts", "last_error"]
    list_filter = [("sent_at", admin.EmptyFieldListFilter), "task"]
    search_fields = ["task", "coalesce_key"]
