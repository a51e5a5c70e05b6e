"""The console's inbox of late hands: what tablets sent after the server refused it for good (token revoked,
round closed, event finished); the organiser reads each entry and marks it handled
(tournaments/services/late_hands.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from tournaments.errors import DomainError
from tournaments.selectors.late_hands import tournament_late_hand, tournament_late_hands
from tournaments.services.late_hands import late_hand_handle
from web.permissions import organiser_tournament


def _describe(payload: dict) -> str:
    kind = payload.get("kind") or "entry"
    label = payload.get("label") or ""
    if kind == "hand":
        where = f"game {payload.get('game', '?')}, hand {payload.get('number', '?')}"
        return f"Hand ({where})" + (f": {label}" if label and label.split(":")[0].lower() != where else "")
    return label or kind


@login_required
@never_cache
def late_hands(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organiser_tournament(request.user, slug)
    if request.method == "POST":
        tournament = organiser_tournament(request.user, slug, "manage")
        try:
            late_id = int(request.POST.get("late", ""))
        except ValueError:
            raise Http404("No such late entry.") from None
        row = tournament_late_hand(tournament, late_id)
        if row is None:
            raise Http404("No such late entry.")
        handled = request.POST.get("action") != "reopen"
        try:
            late_hand_handle(late_hand=row, user=request.user, handled=handled)
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Late entry from table {row.device.table} marked "
                                      f"{'handled' if handled else 'not handled'}.")
        return HttpResponseRedirect(reverse("web:console_late_hands", args=[slug]))
    rows = [
        {"row": row, "what": _describe(row.payload), "hand": row.payload.get("hand")}
        for row in tournament_late_hands(tournament)
    ]
    return render(request, "console/late_hands.html", {
        "tournament": tournament, "rows": rows, "open": sum(1 for r in rows if r["row"].handled_at is None), "cnav": "late_hands",
    })
