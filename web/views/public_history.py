"""A club's and a player's public history across events (issue 17): every published tournament, the
pairs that played and their places (``tournaments.selectors.public_history``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import public_history
from web import public_words
from web.http import public_page


def _lines(lines: list[public_history.HistoryLine]) -> list[tuple[public_history.HistoryLine, str, str]]:
    return [(h, public_words.event_dates(h.tournament), "Finished" if h.tournament.status == "finished" else
             "Upcoming" if h.tournament.status == "draft" else "Under way") for h in lines]


@public_page
def club_history(request: HttpRequest, club_id: int) -> HttpResponse:
    club, lines = public_history.club_history(club_id)
    return render(request, "public/history.html", {"club": club, "subject": club.name, "lines": _lines(lines),
                                                   "kind": "club"})


@public_page
def player_history(request: HttpRequest, player_id: int) -> HttpResponse:
    player, lines = public_history.player_history(player_id)
    return render(request, "public/history.html", {"player": player, "subject": player.name,
                                                   "lines": _lines(lines), "kind": "player"})
