"""Two public pages for the day itself (issue 17): "Follow my pair", built in the browser from the public
JSON (static/js/follow.js; the pair picked stays in the browser's local storage, no account), and the hall
display for a TV or projector (static/js/hall.js cycles pairings, live boards and standings in large type
with the round clock). Both are rendered once per change and served as files: nothing depends on the reader.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournaments import selectors
from tournaments.selectors.clock import round_clock
from web import hall_rows, public_words
from web.cache import cached_page
from web.http import public_page

from .public import _tournament_context


@public_page
@cached_page("results")
def follow(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    entries = sorted(selectors.tournament_entries(tournament).values(), key=lambda e: e.pair.display_name.casefold())
    api = {
        "rounds": reverse("api:public-rounds", args=[slug]),
        "round": reverse("api:public-round", args=[slug, 1]).rstrip("/").rsplit("/", 1)[0] + "/",
        "standings": reverse("api:public-standings", args=[slug]),
        "board": reverse("web:board", args=[slug, 1]).rstrip("/").rsplit("/", 1)[0] + "/",
        "pair": reverse("web:pair", args=[slug, 1]).rstrip("/").rsplit("/", 1)[0] + "/",
    }
    ctx.update(entries=entries, api=api, nav="follow")
    return render(request, "public/follow.html", ctx)


@public_page
@cached_page("live")
def hall(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    current = ctx["current_round"]
    boards = selectors.round_boards(current) if current else []
    table = selectors.standings(tournament)
    clock = round_clock(current) if current is not None and not ctx["finished"] else None
    played = [b for b in boards if not b.is_bye]
    live = [b for b in played if b.status not in ("done", "forfeited")]
    main_index = public_words.main_column(table.columns)
    ctx.update(
        boards=played, byes=[b for b in boards if b.is_bye], live_boards=live,
        standings=table, main_index=main_index,
        # the lists as HTML, built in Python: the template engine's loops were a third of a change's render
        hall_pairings=hall_rows.pairings(played), hall_live=hall_rows.live(live),
        hall_standings=hall_rows.standings(table, main_index),
        ends_at=clock.ends_at.isoformat() if clock and clock.ends_at else "",
        ends_local=clock.ends_local if clock else "",
        time_called=bool(clock and clock.time_called),
        round_state=public_words.round_state(current) if current else "",
    )
    return render(request, "public/hall.html", ctx)
