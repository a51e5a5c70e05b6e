"""Registration in the console: the entry list, adding and changing a pair, the import with a preview, and
check-in at the door; and the public starting list (/t/<slug>/entries/).

Every change is one service call (``tournaments.services.import_preview``, ``checkin``, ``events``,
``field``: a withdrawal, and a pair entered once play has begun, a late entry), whose refusal is shown on the page, next to the field it names where there is one. Reads come from
``tournaments.selectors`` (``availability``). Nothing of an import is stored before the organiser presses
Confirm: the rows travel in the preview's form, and only ``pairs_import_commit`` writes.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments import selectors
from tournaments.errors import DomainError, ValidationFailed
from tournaments.models import Tournament
from tournaments.selectors import availability
from tournaments.selectors.registry import registry_visible
from tournaments.services import entry_delete
from tournaments.services.checkin import (
    MAX_ROUND,
    bye_offered,
    entry_check_in,
    entry_details_set,
    entry_fee_paid_set,
)
from tournaments.services.field import entry_withdraw, next_undrawn_round
from tournaments.services.import_preview import (
    COLUMNS,
    MAX_BYTES,
    MAX_ROWS,
    ImportRowsInvalid,
    Preview,
    pairs_import_check,
    pairs_import_commit,
    pairs_import_preview,
)
from web.http import found, public_page
from web.permissions import organiser_tournament
from web.presenters import withdraw_from_default, withdraw_preview
from web.registration_forms import EntryForm, ImportForm, PairForm, WithdrawForm

#: The columns an organiser edits in place in the preview (a bad row's cells).
EDITABLE = COLUMNS
#: The form's columns a service's refusal may name.
PAIR_FIELDS = ("player_1", "player_2", "club", "seed", "tags")


def _refusal_text(exc: DomainError) -> str:
    text = exc.message
    extra = [f"{k}: {v}" for k, v in (exc.fields or {}).items() if v != exc.message]
    return (text + (" " + "; ".join(extra) if extra else "")).strip()


def _entries_url(slug: str) -> str:
    return reverse("web:console_entries", args=[slug])


# ---- the entry list, adding and changing a pair -----------------------------------------------------


def _entries_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    tournament = organiser_tournament(request.user, slug)
    query = request.GET.get("q", "").strip()[:80]
    entries = availability.registered_entries(tournament, query=query)
    byes = availability.entry_byes(tournament)
    rows = [{"entry": e, "byes": byes.get(e.pk, [])} for e in entries]
    total = len(entries) if not query else len(availability.registered_entries(tournament))
    joins = next_undrawn_round(tournament)
    return {
        "tournament": tournament, "rows": rows, "query": query, "total": total, "cnav": "entries",
        "active": sum(1 for e in entries if not e.withdrawn), "paid": sum(1 for e in entries if e.fee_paid),
        "can_manage": "manage" in getattr(tournament, "allowed_actions", {"manage"}),
        "late_from": joins if joins > 1 else None,
        "can_withdraw": tournament.status != Tournament.Status.FINISHED,
    }


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    """The list of entries; POST ``remove`` (an entry that has played no board)."""
    if request.method == "POST":
        tournament = organiser_tournament(request.user, slug)
        entry = found(availability.tournament_entry, tournament, _int(request.POST.get("entry")) or 0)
        try:
            entry_delete(entry=entry, user=request.user)
        except DomainError as exc:
            messages.error(request, _refusal_text(exc))
        else:
            messages.success(request, f"{entry.pair.display_name} removed from the entries.")
        return HttpResponseRedirect(_entries_url(slug))
    return render(request, "console/entries.html", _entries_context(request, slug))


def _put_errors(form: Any, errors: dict[str, str]) -> None:
    for name, text in errors.items():
        form.add_error(name if name in form.fields else None, text)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a pair in one form: the two players, the club (one of the caller's, or a new one by name), seed
    and tags; stored as a one-row import, so it matches known players and clubs as the import does."""
    tournament = organiser_tournament(request.user, slug)
    form = PairForm(request.POST or None)
    status = 200
    joins = next_undrawn_round(tournament)
    late = joins > 1  # play has begun: the pair is a late entry (services.field.entry_enter_late)
    if request.method == "POST":
        if form.is_valid():
            try:
                # One row through the import (once play has begun it enters the pair late:
                # services.field.entry_enter_late); a pair already entered is said so, not silently kept.
                checked = pairs_import_check(rows=[form.row()], tournament=tournament, user=request.user)
                if checked.rows[0].matched.get("entry"):
                    text = "This pair is already entered."
                    raise ValidationFailed("pair_already_entered", text, fields={"player_1": text})
                pairs_import_commit(rows=[form.row()], tournament=tournament, user=request.user)
            except ImportRowsInvalid as exc:
                _put_errors(form, exc.preview.rows[0].errors)
            except DomainError as exc:
                _put_errors(form, {k.rsplit(".", 1)[-1]: v for k, v in (exc.fields or {}).items()}
                            or {"__all__": exc.message})
                if not exc.fields:
                    form.add_error(None, exc.message)
            else:
                name = f"{form.cleaned_data['player_1']} & {form.cleaned_data['player_2']}"
                if late:
                    messages.success(request, f"{name} entered late: joins in round {joins}"
                                              f"{'' if tournament.late_entry_bye else ', without the bye in it'}.")
                else:
                    messages.success(request, f"{name} entered.")
                if request.POST.get("another"):
                    return HttpResponseRedirect(reverse("web:console_entry_add", args=[slug]))
                return HttpResponseRedirect(_entries_url(slug))
        status = 400
    return render(request, "console/entry_form.html", {
        "tournament": tournament, "form": form, "cnav": "entries", "adding": True,
        "club_names": availability.club_names(request.user), "late_from": joins if late else None,
    }, status=status)


def _visible(model: Any, pk: int | None, user: Any) -> Any:
    """The registry record ``pk`` of ``model`` the caller may use (as the import matched it), or None."""
    if not pk:
        return None
    return registry_visible(model.objects.filter(pk=pk), user).first()


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def entry_edit(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Change an entry's seed, tags, fee paid and withdrawal (one service call)."""
    tournament = organiser_tournament(request.user, slug)
    entry = found(availability.tournament_entry, tournament, entry_id)
    byes = availability.entry_byes(tournament).get(entry.pk, [])
    initial = {"seed": entry.seed, "tags": "; ".join(entry.tags or []), "fee_paid": entry.fee_paid,
               "withdrawn": entry.withdrawn, "byes": "; ".join(map(str, byes))}
    # Withdrawing is its own action (Withdraw: it mends the rounds drawn); the box only reinstates a pair.
    form = EntryForm(request.POST or None, initial=initial, byes_offered=bye_offered(tournament),
                     reinstate=entry.withdrawn)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            extra = {"byes": data["byes"]} if "byes" in data else {}
            if "withdrawn" in data:
                extra["withdrawn"] = data["withdrawn"]
            try:
                entry_details_set(entry=entry, user=request.user, seed=data["seed"], tags=data["tags"],
                                  fee_paid=data["fee_paid"], **extra)
            except DomainError as exc:
                _put_errors(form, dict(exc.fields or {}))
                if not exc.fields:
                    form.add_error(None, exc.message)
            else:
                messages.success(request, f"{entry.pair.display_name}: saved.")
                return HttpResponseRedirect(_entries_url(slug))
        status = 400
    return render(request, "console/entry_form.html", {
        "tournament": tournament, "form": form, "entry": entry, "cnav": "entries", "adding": False,
        "byes": byes, "can_withdraw": not entry.withdrawn and tournament.status != Tournament.Status.FINISHED,
    }, status=status)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def entry_withdraw_page(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Withdraw a pair: GET says what will happen from the round chosen (``?from_round=``; by default the
    round in progress, else the next), round by round (re-paired while no hand is played, forfeited once play
    has started, a walkover in a knockout, a substitute in a club team); POST does it (``entry_withdraw``)
    and shows what was done."""
    tournament = organiser_tournament(request.user, slug, "manage")
    entry = found(availability.tournament_entry, tournament, entry_id)
    rounds = selectors.tournament_rounds(tournament)
    default = withdraw_from_default(rounds)
    data = request.POST if request.method == "POST" else (request.GET if "from_round" in request.GET else None)
    form = WithdrawForm(data, first=default, last=max(tournament.rounds_planned, default))
    status = 200
    if request.method == "POST" and entry.withdrawn:
        status = 409  # withdrawn meanwhile (another tab): the page says so
    elif request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                report = entry_withdraw(entry=entry, user=request.user, from_round=form.cleaned_data["from_round"])
            except DomainError as exc:
                _put_errors(form, {k if k in form.fields else "__all__": v for k, v in (exc.fields or {}).items()})
                if not exc.fields:
                    form.add_error(None, exc.message)
                status = exc.status_code
            else:
                messages.success(request, f"{entry.pair.display_name} withdrawn from round "
                                          f"{form.cleaned_data['from_round']}. {report.summary}")
                return HttpResponseRedirect(_entries_url(slug) + f"#e{entry.pk}")
    start = form.cleaned_data["from_round"] if form.is_bound and form.is_valid() else default
    if form.is_bound and request.method == "GET" and not form.is_valid():
        status = 400
    return render(request, "console/entry_withdraw.html", {
        "tournament": tournament, "entry": entry, "form": form, "cnav": "entries",
        "preview": [] if entry.withdrawn else withdraw_preview(tournament, entry, rounds, start),
        "start": start,
    }, status=status)


# ---- the import with a preview -----------------------------------------------------------------------


#: The preview's columns and their headings.
LABELS = {"player_1": "Player 1", "player_2": "Player 2", "club": "Club", "seed": "Seed", "tags": "Tags",
          "byes": "Byes (rounds)"}


def _preview_page(request: HttpRequest, tournament: Any, preview: Preview, *, status: int = 200) -> HttpResponse:
    rows = [row.input() for row in preview.rows]
    shown = [c for c in COLUMNS if c in LABELS and (c not in ("tags", "byes") or any(c in r for r in rows))]
    table = [{
        "row": row,
        "cells": [{"name": c, "label": LABELS[c], "value": row.values.get(c, ""), "error": row.errors.get(c, "")}
                  for c in shown],
        "other": row.errors.get("row", ""),
    } for row in preview.rows]
    return render(request, "console/import_preview.html", {
        "tournament": tournament, "preview": preview, "counts": preview.counts(), "cnav": "entries",
        "rows_json": json.dumps(rows, ensure_ascii=False), "headings": [LABELS[c] for c in shown], "table": table,
        "bad": len(preview.errors),
    }, status=status)


def _rows_posted(request: HttpRequest) -> list[dict[str, Any]] | None:
    """The rows the preview's form carries, with the organiser's corrections and without the rows left out."""
    try:
        rows = json.loads(request.POST.get("rows", ""))
    except ValueError:
        return None
    if not isinstance(rows, list) or len(rows) > MAX_ROWS or not all(isinstance(r, dict) for r in rows):
        return None
    kept: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        if request.POST.get(f"r{i}-skip"):
            continue
        for column in EDITABLE:
            key = f"r{i}-{column}"
            if key in request.POST:
                row[column] = request.POST[key]
        kept.append(row)
    return kept


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def entries_import(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the upload form. POST a file: the preview (nothing stored). POST the preview's rows: check them
    again (``check``) or store them all (``confirm``)."""
    tournament = organiser_tournament(request.user, slug)
    context = {"tournament": tournament, "cnav": "entries", "max_rows": MAX_ROWS, "max_mb": MAX_BYTES // 1_000_000,
               "byes_offered": bye_offered(tournament)}
    if request.method == "GET":
        return render(request, "console/import.html", {**context, "form": ImportForm()})
    if "rows" in request.POST:
        rows = _rows_posted(request)
        if rows is None:
            messages.error(request, "The preview could not be read back: upload the file again.")
            return HttpResponseRedirect(reverse("web:console_entries_import", args=[slug]))
        if not rows:
            messages.error(request, "Every row was left out: nothing to import.")
            return HttpResponseRedirect(reverse("web:console_entries_import", args=[slug]))
        try:
            if request.POST.get("action") == "confirm":
                result = pairs_import_commit(rows=rows, tournament=tournament, user=request.user)
                messages.success(request, f"Imported: {result.summary()}.")
                return HttpResponseRedirect(_entries_url(slug))
            preview = pairs_import_check(rows=rows, tournament=tournament, user=request.user)
        except ImportRowsInvalid as exc:
            messages.error(request, exc.message)
            return _preview_page(request, tournament, exc.preview, status=400)
        except DomainError as exc:
            messages.error(request, _refusal_text(exc))
            return HttpResponseRedirect(reverse("web:console_entries_import", args=[slug]))
        return _preview_page(request, tournament, preview)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "console/import.html", {**context, "form": form}, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > MAX_BYTES:
        form.add_error("file", f"The file is larger than {MAX_BYTES // 1_000_000} MB: split the list.")
        return render(request, "console/import.html", {**context, "form": form}, status=400)
    try:
        preview = pairs_import_preview(data=upload.read(), filename=upload.name or "", tournament=tournament,
                                       user=request.user)
    except DomainError as exc:
        form.add_error("file", exc.message)
        return render(request, "console/import.html", {**context, "form": form}, status=400)
    preview.filename = upload.name or ""
    return _preview_page(request, tournament, preview)


# ---- check-in at the door ----------------------------------------------------------------------------


def _int(value: Any) -> int | None:
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Each pair of the next round with Present / Absent and Fee paid (an organiser or a scorekeeper at the
    door, on a phone); counts; search by name. POST one change, then back to the same place in the list."""
    tournament = organiser_tournament(request.user, slug)  # every role checks pairs in
    source = request.POST if request.method == "POST" else request.GET
    number = _int(source.get("round"))
    number = number if number is not None and number <= MAX_ROUND else availability.check_in_round(tournament)
    query = source.get("q", "").strip()[:80]
    if request.method == "POST":
        entry = found(availability.tournament_entry, tournament, _int(request.POST.get("entry")) or 0)
        action = request.POST.get("action", "")
        try:
            if action in ("present", "absent"):
                entry_check_in(entry=entry, round_number=number, state=action, user=request.user)
                messages.success(request, f"{entry.pair.display_name}: {action} in round {number}.")
            elif action in ("paid", "unpaid"):
                entry_fee_paid_set(entry=entry, paid=action == "paid", user=request.user)
                messages.success(request, f"{entry.pair.display_name}: fee {'paid' if action == 'paid' else 'not paid'}.")
            else:
                messages.error(request, "Unknown action.")
        except DomainError as exc:
            messages.error(request, _refusal_text(exc))
        params = {"round": number, **({"q": query} if query else {})}
        return HttpResponseRedirect(f"{reverse('web:console_check_in', args=[slug])}?{urlencode(params)}#e{entry.pk}")
    field = availability.round_field(tournament, number)
    paired = selectors.round_number_taken(tournament, number) and availability.check_in_round(tournament) != number
    return render(request, "console/checkin.html", {
        "tournament": tournament, "cnav": "check_in", "number": number, "field": field, "counts": field.counts(),
        "rows": availability.search_field(field, query), "query": query, "paired": paired,
        "fee": tournament.entry_fee, "labels": availability.STATE_LABELS,
        "draw_follows": bye_offered(tournament),  # the Swiss draft of pairs is drawn from check-in
    })


# ---- the public starting list ------------------------------------------------------------------------


@public_page
def public_entries(request: HttpRequest, slug: str) -> HttpResponse:
    """The starting list of a published tournament: seed, pair, club and tags (like chess-results')."""
    tournament = selectors.public_tournament(slug)
    entries_ = availability.public_entry_list(tournament)
    return render(request, "public/entries.html", {
        "tournament": tournament, "entries": entries_, "nav": "entries",
        "tags": sorted({t for e in entries_ for t in (e.tags or [])}),
        "clubs": len({e.pair.club_id for e in entries_ if e.pair.club_id}),
    })


__all__ = ["check_in", "entries", "entries_import", "entry_add", "entry_edit", "entry_withdraw_page", "public_entries"]

