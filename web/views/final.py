"""The end of an event in the console: prizes (add, change, remove; one prize per pair; how a tie is
settled) with the awards as they would stand now, finishing and reopening the event (each behind a page
that says what will happen, or why it cannot), the printable payout sheet and final report, and the
results as plain text to paste into a message app.

Every change is one service call (``tournaments.services.prizes``, ``tournaments.services.finish``); a
refusal is shown on the page, next to the field it names. Reads come from ``tournaments.selectors.final``
and ``tournaments.selectors.prizes``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.errors import DomainError
from tournaments.models import Device, Prize, Tournament
from tournaments.selectors.final import final_report, is_final, results_text
from tournaments.selectors.prizes import event_prizes, payout_from_awards, prize_title
from tournaments.services.finish import finish_refusals, tournament_finish, tournament_reopen
from tournaments.services.prizes import (
    PRIZE_FIELDS,
    prize_create,
    prize_delete,
    prize_settings_set,
    prize_update,
)
from web.permissions import organiser_tournament

CATEGORY_HELP = {
    Prize.Category.PLACE: "A place in the final standings (1 for the winners).",
    Prize.Category.BEST_CLUB: "The first club of the club table.",
    Prize.Category.MOST_HANG_JACKS: "The pair that hanged the most jacks in confirmed games.",
    Prize.Category.HIGHEST_COUNT: "The pair with the highest count for game in one hand.",
    Prize.Category.TAG: "A place among the pairs carrying a tag (ladies, juniors, seniors...).",
}
TIES_HELP = {
    "tie_breaks": "Pairs still level after every tie-break: the standings' order gives the prize (the seed order "
                  "inside a shared place).",
    "split": "Pairs still level share the prizes of the places they occupy equally (two level for 2nd share the "
             "2nd and 3rd prizes), to the cent; an odd cent goes to the higher placed.",
}


class PrizeForm(forms.Form):
    """A prize as typed; the service checks it (and says which field is wrong)."""

    category = forms.ChoiceField(label="Category", choices=Prize.Category.choices)
    place = forms.IntegerField(label="Place", required=False, min_value=1, max_value=999,
                               help_text="For a place or a tag's place: 1 for the first.")
    tag = forms.CharField(label="Tag", required=False, max_length=24,
                          help_text="For a tag's place: the tag as entries carry it (ladies, juniors...).")
    label = forms.CharField(label="Label", required=False, max_length=80,
                            help_text="What the prize is called on the sheets (empty: from its category).")
    amount = forms.CharField(label="Amount", required=False, max_length=14,
                             help_text="In the event's currency, cents allowed; empty for a trophy.")
    order = forms.IntegerField(label="Order", required=False, min_value=0, max_value=999,
                               help_text="Where it is listed (empty: last).")

    def __init__(self, *args: Any, currency: str = "TTD", tags: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["amount"].label = f"Amount ({currency})"
        self.fields["amount"].widget.attrs.update(inputmode="decimal", autocomplete="off")
        for name in ("place", "order"):
            self.fields[name].widget.attrs.update(inputmode="numeric")
        if tags:
            self.fields["tag"].widget.attrs["list"] = "prize-tags"

    @classmethod
    def initial_for(cls, prize: Prize) -> dict[str, Any]:
        return {"category": prize.category, "place": prize.place, "tag": prize.tag, "label": prize.label,
                "amount": "" if prize.amount is None else f"{prize.amount:.2f}", "order": prize.order}

    def refuse(self, exc: DomainError) -> None:
        """Show a service's refusal next to the field it names (else above the form)."""
        placed = False
        for field, text in (exc.fields or {}).items():
            if field in self.fields:
                self.add_error(field, text)
                placed = True
        if not placed:
            self.add_error(None, exc.message)


class PrizeSettingsForm(forms.Form):
    one_prize_per_pair = forms.BooleanField(
        label="One prize per pair", required=False,
        help_text="A pair that wins a bigger prize is passed over for the others; the next pair takes them.")
    prize_ties = forms.ChoiceField(label="A tie for a prize", widget=forms.RadioSelect,
                                   choices=[("tie_breaks", "Settled by the tie-breaks"), ("split", "Split equally")])


def _tags(tournament: Tournament) -> list[str]:
    tags: set[str] = set()
    for entry_tags in tournament.entries.values_list("tags", flat=True):
        tags.update(t for t in entry_tags or [] if isinstance(t, str))
    return sorted(tags)


def _prizes_page(request: HttpRequest, tournament: Tournament, *, add_form: PrizeForm | None = None,
                 edit: tuple[int, PrizeForm] | None = None, settings_form: PrizeSettingsForm | None = None,
                 status: int = 200) -> HttpResponse:
    tags = _tags(tournament)
    rows = []
    for prize in event_prizes(tournament):
        if edit is not None and edit[0] == prize.pk:
            form, opened = edit[1], True
        else:
            form = PrizeForm(initial=PrizeForm.initial_for(prize), prefix=f"p{prize.pk}",
                             currency=tournament.currency, tags=tags)
            opened = False
        rows.append({"prize": prize, "title": prize_title(prize), "form": form, "open": opened,
                     "amount": "" if prize.amount is None else f"{tournament.currency} {prize.amount:,.2f}"})
    report = final_report(tournament, with_crosstable=False)
    return render(request, "console/prizes.html", {
        "tournament": tournament, "cnav": "prizes", "rows": rows, "tags": tags,
        "add_form": add_form or PrizeForm(prefix="new", currency=tournament.currency, tags=tags),
        "settings_form": settings_form or PrizeSettingsForm(initial={
            "one_prize_per_pair": tournament.one_prize_per_pair, "prize_ties": tournament.prize_ties}),
        "ties_help": TIES_HELP, "category_help": [(Prize.Category(k).label, v) for k, v in CATEGORY_HELP.items()],
        "report": report, "finished": tournament.status == Tournament.Status.FINISHED,
        "final": is_final(tournament), "can_manage": "manage" in getattr(tournament, "allowed_actions", ()),
    }, status=status)


def _back(slug: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("web:console_prizes", args=[slug]))


def _prize_values(form: PrizeForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {name: data.get(name) for name in PRIZE_FIELDS}


@login_required
@never_cache
def prizes(request: HttpRequest, slug: str) -> HttpResponse:
    """The prizes, how they are shared, the awards as they stand, and the way to the end of the event."""
    return _prizes_page(request, organiser_tournament(request.user, slug))


@login_required
@require_POST
def prize_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    form = PrizeForm(request.POST, prefix="new", currency=tournament.currency, tags=_tags(tournament))
    done = _prize_save(request, slug, form, "added",
                       lambda values: prize_create(tournament=tournament, user=request.user, **values))
    return done or _prizes_page(request, tournament, add_form=form, status=400)


def _prize_save(request: HttpRequest, slug: str, form: PrizeForm, what: str,
                save: Callable[[dict[str, Any]], Prize]) -> HttpResponse | None:
    """Save a valid prize form through ``save``: back to the prizes page with a message, or None when the form
    (or the service's 400 naming a field) sends the page back with the errors."""
    if not form.is_valid():
        return None
    try:
        prize = save(_prize_values(form))
    except DomainError as exc:
        if exc.status_code != 400:
            messages.error(request, exc.message)
            return _back(slug)
        form.refuse(exc)
        return None
    messages.success(request, f"Prize {what}: {prize_title(prize)}.")
    return _back(slug)


def _prize_of(tournament: Tournament, prize_id: int) -> Prize:
    prize = Prize.objects.filter(pk=prize_id, tournament=tournament).select_related("tournament").first()
    if prize is None:
        raise Http404("No such prize")
    return prize


@login_required
@require_POST
def prize_edit(request: HttpRequest, slug: str, prize_id: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    prize = _prize_of(tournament, prize_id)
    form = PrizeForm(request.POST, prefix=f"p{prize.pk}", currency=tournament.currency, tags=_tags(tournament))
    done = _prize_save(request, slug, form, "saved",
                       lambda values: prize_update(prize=prize, user=request.user, **values))
    return done or _prizes_page(request, tournament, edit=(prize.pk, form), status=400)


@login_required
@require_POST
def prize_remove(request: HttpRequest, slug: str, prize_id: int) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    prize = _prize_of(tournament, prize_id)
    title = prize_title(prize)
    try:
        prize_delete(prize=prize, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Prize removed: {title}.")
    return _back(slug)


@login_required
@require_POST
def prize_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug, "manage")
    form = PrizeSettingsForm(request.POST)
    if not form.is_valid():
        return _prizes_page(request, tournament, settings_form=form, status=400)
    try:
        prize_settings_set(tournament=tournament, user=request.user,
                           one_prize_per_pair=form.cleaned_data["one_prize_per_pair"],
                           prize_ties=form.cleaned_data["prize_ties"])
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "How prizes are shared: saved.")
    return _back(slug)


# ---- finishing and reopening ------------------------------------------------------------------------------


def _end_page(request: HttpRequest, tournament: Tournament, mode: str, *, refusals: list[DomainError] | None = None,
              status: int = 200) -> HttpResponse:
    report = final_report(tournament, with_crosstable=False)
    if refusals is None:
        refusals = list(finish_refusals(tournament)) if mode == "finish" else []
    tablets = Device.objects.filter(tournament=tournament, revoked_at__isnull=True).count()
    return render(request, "console/finish.html", {
        "tournament": tournament, "cnav": "prizes", "mode": mode, "refusals": refusals, "report": report,
        "tablets": tablets, "can_manage": "manage" in getattr(tournament, "allowed_actions", ()),
    }, status=status)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def finish(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what finishing does, or why it cannot yet; POST: finish the event."""
    if request.method == "GET":
        return _end_page(request, organiser_tournament(request.user, slug), "finish")
    tournament = organiser_tournament(request.user, slug, "manage")
    try:
        tournament_finish(tournament=tournament, user=request.user)
    except DomainError as exc:
        return _end_page(request, tournament, "finish", refusals=[exc, *[r for r in finish_refusals(tournament)
                                                                         if r.message != exc.message]],
                         status=exc.status_code)
    messages.success(request, "The event is finished: the final results are frozen, every tablet is revoked, and "
                              "the public pages show the final results.")
    return _back(slug)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: what reopening does; POST: set the finished event running again."""
    if request.method == "GET":
        return _end_page(request, organiser_tournament(request.user, slug), "reopen")
    tournament = organiser_tournament(request.user, slug, "manage")
    try:
        tournament_reopen(tournament=tournament, user=request.user)
    except DomainError as exc:
        return _end_page(request, tournament, "reopen", refusals=[exc], status=exc.status_code)
    messages.success(request, "The event is running again. Its final results are kept but no longer stand; pair "
                              "each table's tablet again before play.")
    return _back(slug)


# ---- print and share --------------------------------------------------------------------------------------


def _public_link(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("web:tournament", args=[tournament.slug]))


@login_required
@never_cache
def payout(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable payout sheet: who receives what, the total, the entry fees, the balance."""
    tournament = organiser_tournament(request.user, slug)
    report = final_report(tournament, with_crosstable=False)
    return render(request, "console/payout.html", {
        "tournament": tournament, "report": report, "payout": payout_from_awards(tournament, report.awards),
        "printed_at": timezone.now(),
    })


@login_required
@never_cache
def final(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable final report (standings with how ties were broken, prizes, statistics, crosstable),
    with the results as text to copy above it (not printed)."""
    tournament = organiser_tournament(request.user, slug)
    report = final_report(tournament)
    return render(request, "console/final_report.html", {
        "tournament": tournament, "report": report, "standings": report.standings, "club_table": report.club_table,
        "club_teams": tournament.is_club_teams, "printed_at": timezone.now(),
        "text": results_text(tournament, link=_public_link(request, tournament), report=report),
    })


@login_required
@never_cache
def results_txt(request: HttpRequest, slug: str) -> HttpResponse:
    """The results as plain text (UTF-8), for a message app."""
    tournament = organiser_tournament(request.user, slug)
    response = HttpResponse(results_text(tournament, link=_public_link(request, tournament)),
                            content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-results.txt"'
    return response
