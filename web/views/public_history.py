"""A club's and a player's public history across events (issue 17): every published tournament, the
pairs that played and their places (``tournaments.selectors.public_history``). Each event shows the club's
name it was played under (``Entry.club_label``, recorded at entry): a club renamed since keeps its old name
there (issue 15)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import public_history
from web import public_words
from web.http import public_page


def _played_as(line: public_history.HistoryLine, now: str) -> str:
    """The names the club's pairs played this event under, when not its name now ("" otherwise)."""
    names = list(dict.fromkeys(e.club_label for e in line.entries if e.club_label))
    return "" if names in ([], [now]) else ", ".join(names)


def _lines(lines: list[public_history.HistoryLine], club_now: str | None = None,
           ) -> list[tuple[public_history.HistoryLine, str, str, str]]:
    return [(h, public_words.event_dates(h.tournament), "Finished" if h.tournament.status == "finished" else
             "Upcoming" if h.tournament.status == "draft" else "Under way",
             _played_as(h, club_now) if club_now is not None else "") for h in lines]


@public_page
def club_history(request: HttpRequest, club_id: int) -> HttpResponse:
    club, lines = public_history.club_history(club_id)
    return render(request, "public/history.html", {"club": club, "subject": club.name, "lines": _lines(lines, club.name),
                                                   "kind": "club"})


@public_page
def player_history(request: HttpRequest, player_id: int) -> HttpResponse:
    player, lines = public_history.player_history(player_id)
    return render(request, "public/history.html", {"player": player, "subject": player.name,
                                                   "lines": _lines(lines), "kind": "player"})
