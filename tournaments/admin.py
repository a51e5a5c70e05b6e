"""The Django admin, for staff (organisers work in the console and the API, checked per tournament).

People and tournaments are edited here: clubs, players, pairs (with a CSV import), tournaments with
their entries and organiser roles, each saved and deleted through its registry service
(``tournaments.services``: ``tournament_create``, ``club_update``, ``pairs_import`` ...). A tournament's
formats, tie-breaks and bye policy are offered as the registry's choices (``tournaments.formats``),
never as raw JSON. Everything the tournament's services derive or record (rounds'
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

from . import formats
from .forms import (
    MatchFormatFormField,
    TeamFormatFormField,
    TieBreaksFormField,
    bye_choices,
    club_avoidance_choices,
    form_field,
)
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
    Organisation,
    OrganisationMember,
    OutboxMessage,
    Pair,
    PairingCode,
    Player,
    Round,
    StandingsSnapshot,
    Tournament,
    TournamentRole,
)
from .services import events as event_services
from .services import organisations as organisation_services
from .services import people as people_services
from .services.devices import device_revoke
from .services.errors import DomainError
from .services.imports import REQUIRED_COLUMNS, PairsImportRefused, pairs_import

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


# ---- Saving through the services -------------------------------------------------------------------


def copy_fields(target: Any, source: Any) -> None:
    """Make the admin's object the row a service wrote (its pk, canonical settings, derived fields), so
    the inlines and the redirect that follow see it."""
    for field in type(source)._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))
    target._state.adding = False
    target._state.db = source._state.db


class ServiceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Saves and deletes through the registry services (``create``/``update``/``delete`` below), which
    check, audit and refuse; the model form has already run the model's own checks."""

    service_create: Any = None
    service_update: Any = None
    service_delete: Any = None
    #: The keyword the update and delete services name the object by (``club=``).
    kind = ""
    #: The fields the services take.
    service_fields: tuple[str, ...] = ()

    def service_values(self, form: Any, *, only_changed: bool) -> dict[str, Any]:
        names = form.changed_data if only_changed else list(form.cleaned_data)
        return {name: form.cleaned_data[name] for name in names if name in self.service_fields}

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            saved = self.service_update(**{self.kind: obj}, user=request.user,
                                        **self.service_values(form, only_changed=True))
        else:
            saved = self.service_create(user=request.user, **self.service_values(form, only_changed=False))
        copy_fields(obj, saved)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.service_delete(**{self.kind: obj}, user=request.user)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            try:
                self.service_delete(**{self.kind: obj}, user=request.user)
            except DomainError as exc:
                self.message_user(request, f"{obj}: {exc.message}", messages.ERROR)


# ---- People ---------------------------------------------------------------------------------------


class OwnedAdmin(ServiceAdmin):
    """A registry record's ``owner`` (docs/adr/0010-owners-and-organisations.md): left empty, the service gives
    it the staff user's personal organisation."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "owner" and field is not None:
            field.required = False
            field.initial = None
            field.help_text = "The organisation whose members may change it (empty: your personal organisation)."
        return field


class OrganisationMemberInline(admin.TabularInline):  # type: ignore[type-arg]
    model = OrganisationMember
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Organisation)
class OrganisationAdmin(ServiceAdmin):
    list_display = ["name", "kind", "slug", "personal_user"]
    list_filter = ["kind"]
    search_fields = ["name", "slug", "personal_user__username"]
    fields = ["name"]
    inlines = [OrganisationMemberInline]
    service_create = staticmethod(organisation_services.organisation_create)
    service_update = staticmethod(organisation_services.organisation_update)
    kind = "organisation"
    service_fields = organisation_services.ORGANISATION_FIELDS

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its clubs, players and pairs keep it


@admin.register(Club)
class ClubAdmin(OwnedAdmin):
    list_display = ["name", "short_name", "town", "owner"]
    list_filter = ["owner"]
    search_fields = ["name", "short_name", "town"]
    service_create = staticmethod(people_services.club_create)
    service_update = staticmethod(people_services.club_update)
    service_delete = staticmethod(people_services.club_delete)
    kind = "club"
    service_fields = people_services.CLUB_FIELDS


@admin.register(Player)
class PlayerAdmin(OwnedAdmin):
    list_display = ["name", "club", "owner"]
    list_filter = ["owner", "club"]
    list_select_related = ["club", "owner"]
    search_fields = ["name", "club__name"]
    autocomplete_fields = ["club"]
    service_create = staticmethod(people_services.player_create)
    service_update = staticmethod(people_services.player_update)
    service_delete = staticmethod(people_services.player_delete)
    kind = "player"
    service_fields = people_services.PLAYER_FIELDS


class PairCsvImportForm(forms.Form):
    file = forms.FileField(help_text="CSV, UTF-8, first line: " + ", ".join(REQUIRED_COLUMNS))
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.exclude(status=Tournament.Status.FINISHED),
        required=False,
        help_text="Optional: also enter every pair in this tournament, with the row's seed.",
    )


@admin.register(Pair)
class PairAdmin(OwnedAdmin):
    list_display = ["__str__", "club", "seed", "player_1", "player_2", "owner"]
    list_filter = ["owner", "club"]
    list_select_related = ["club", "player_1", "player_2", "owner"]
    search_fields = ["name", "player_1__name", "player_2__name", "club__name"]
    autocomplete_fields = ["player_1", "player_2", "club"]
    change_list_template = "admin/tournaments/pair/change_list.html"
    service_create = staticmethod(people_services.pair_create)
    service_update = staticmethod(people_services.pair_update)
    service_delete = staticmethod(people_services.pair_delete)
    kind = "pair"
    service_fields = people_services.PAIR_FIELDS

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
        errors: list[Any] = []
        if request.method == "POST":
            form = PairCsvImportForm(request.POST, request.FILES)
            if form.is_valid():
                upload = form.cleaned_data["file"]
                try:
                    result = pairs_import(data=upload.read(), tournament=form.cleaned_data["tournament"],
                                          user=request.user)
                except PairsImportRefused as exc:
                    errors = exc.errors
                    self.message_user(
                        request, f"Nothing imported: {len(errors)} row(s) to fix (listed below).", messages.ERROR
                    )
                else:
                    self.message_user(request, "Imported: " + result.summary(), messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:tournaments_pair_changelist"))
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


# ---- Tournaments: the registry's choices, saved through the services -----------------------------------


class TournamentAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """The tournament's settings as the registry's choices; checked by ``tournament_settings_clean``."""

    match_format = MatchFormatFormField(help_text="What each board plays.")
    team_format = TeamFormatFormField(help_text="Club-team events: boards per match, how it is decided, and N.")
    tiebreaks = TieBreaksFormField(help_text="Best first; leave the boxes you do not need blank.")
    bye_policy = forms.ChoiceField(help_text="What a bye counts as and scores.")
    club_avoidance = forms.TypedChoiceField(coerce=int, help_text="Swiss pairing: how hard to keep club-mates apart.")

    class Meta:
        model = Tournament
        fields = [*event_services.TOURNAMENT_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tiebreaks"] = TieBreaksFormField(help_text=self.fields["tiebreaks"].help_text)
        stored_bye = self.instance.bye_policy if self.instance.pk else formats.DEFAULT_BYE_POLICY.to_dict()
        self.fields["bye_policy"].choices = bye_choices(stored_bye)
        policy = formats.AwardPolicy.from_dict(stored_bye) if stored_bye is not None else formats.DEFAULT_BYE_POLICY
        self.initial["bye_policy"] = policy.preset or "custom"
        self.fields["club_avoidance"].choices = club_avoidance_choices(self.instance.club_avoidance)
        if not self.instance.pk:
            self.initial.setdefault("match_format", formats.DEFAULT_MATCH_FORMAT.to_dict())
            self.initial.setdefault("tiebreaks", list(formats.DEFAULT_TIE_BREAKS))

    def clean_bye_policy(self) -> Any:
        value = self.cleaned_data["bye_policy"]
        return self.instance.bye_policy if value == "custom" else value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        names = [n for n in event_services.TOURNAMENT_FIELDS if n in data and n not in self.errors]
        if self.instance.pk:
            names = [n for n in names if n in self.changed_data]
        try:
            event_services.tournament_settings_clean({n: data[n] for n in names},
                                                     instance=self.instance if self.instance.pk else None)
        except DomainError as exc:
            for path, text in (exc.fields or {"__all__": exc.message}).items():
                field = form_field(path)
                self.add_error(field if field in self.fields else None, text)
        return data


def _entry_refusal(form: Any, tournament: Tournament, entry: Entry | None) -> None:
    """The entry services' checks (``entry_check``) as the form's errors, before anything is saved."""
    pair = form.cleaned_data.get("pair")
    if pair is None or tournament is None:
        return
    try:
        event_services.entry_check(tournament=tournament, pair=pair, entry=entry)
    except DomainError as exc:
        form.add_error("pair" if "pair" in (exc.fields or {}) else None, exc.message)


class EntryFormSet(forms.BaseInlineFormSet):  # type: ignore[type-arg]
    def clean(self) -> None:
        super().clean()
        for form in self.forms:
            if not getattr(form, "cleaned_data", None):
                continue
            if form.cleaned_data.get("DELETE") and form.instance.pk:
                try:
                    event_services.entry_check_delete(entry=form.instance)
                except DomainError as exc:
                    form.add_error(None, exc.message)
            elif form.has_changed() and not form.cleaned_data.get("DELETE"):
                _entry_refusal(form, self.instance, form.instance if form.instance.pk else None)


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    formset = EntryFormSet
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
class TournamentAdmin(ServiceAdmin):
    form = TournamentAdminForm
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
    service_update = staticmethod(event_services.tournament_update)
    service_delete = staticmethod(event_services.tournament_delete)
    kind = "tournament"
    service_fields = event_services.TOURNAMENT_FIELDS

    @staticmethod
    def service_create(**values: Any) -> Tournament:
        # Staff set the roles themselves (the inline): creating one is not making oneself its organiser.
        return event_services.tournament_create(add_organiser=False, **values)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """The entries inline writes through the entry services; the roles inline as Django does."""
        if formset.model is not Entry:
            super().save_formset(request, form, formset, change)
            return
        formset.save(commit=False)
        for entry in formset.deleted_objects:
            event_services.entry_delete(entry=entry, user=request.user)
        for entry, changed in formset.changed_objects:
            values = {name: getattr(entry, name) for name in changed if name in event_services.ENTRY_FIELDS}
            event_services.entry_update(entry=entry, user=request.user, **values)
        for entry in formset.new_objects:
            event_services.entry_create(tournament=form.instance, pair=entry.pair, seed=entry.seed,
                                        withdrawn=entry.withdrawn, user=request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A tournament with rounds is finished, never deleted (tournament_delete refuses it).
        if obj is not None and obj.rounds.exists():
            return False
        return super().has_delete_permission(request, obj)

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


class EntryAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Entry
        fields = ["tournament", *event_services.ENTRY_FIELDS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        tournament = data.get("tournament") or getattr(self.instance, "tournament", None)
        _entry_refusal(self, tournament, self.instance if self.instance.pk else None)
        return data


@admin.register(Entry)
class EntryAdmin(ServiceAdmin):
    form = EntryAdminForm
    list_display = ["pair", "tournament", "seed", "withdrawn"]
    list_filter = ["tournament", "withdrawn"]
    list_select_related = ["tournament", "pair__player_1", "pair__player_2"]
    search_fields = ["pair__name", "pair__player_1__name", "pair__player_2__name", "tournament__name"]
    autocomplete_fields = ["pair", "tournament"]
    service_create = staticmethod(event_services.entry_create)
    service_update = staticmethod(event_services.entry_update)
    service_delete = staticmethod(event_services.entry_delete)
    kind = "entry"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # An entry stays in its tournament; enter the pair in the other one instead.
        return ["tournament"] if obj is not None else []

    def service_values(self, form: Any, *, only_changed: bool) -> dict[str, Any]:
        allowed = event_services.ENTRY_FIELDS if only_changed else ("tournament", *event_services.ENTRY_FIELDS)
        names = form.changed_data if only_changed else list(form.cleaned_data)
        return {name: form.cleaned_data[name] for name in names if name in allowed}


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
