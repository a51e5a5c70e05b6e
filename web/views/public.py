"""Public pages: no login, published tournaments only. Each view reads through ``tournaments.selectors``
(a ``NotFound`` there is the page's 404, see ``web.http.public_page``) and shapes the reads for its
template with ``web.presenters`` and ``web.scorecards``.

Every tournament page is cached in a tier (``web.cache``: ``live`` for what shows live scores, ``results``
for the rest), keyed by the latest change, under the ETag/304 of ``web.http``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors
from tournaments.formats import TIE_BREAKS
from tournaments.models import Tournament
from tournaments.selectors import final
from tournaments.selectors.league_paper import paper_results
from web import presenters, public_words
from web.cache import cached_page
from web.http import public_page
from web.scorecards import board_scorecard


def _tournament_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    tournament = selectors.public_tournament(slug)
    rounds = selectors.public_rounds(tournament)
    return {
        # the templates' ``current_round``: the round the page shows (being played, else the last closed)
        "tournament": tournament, "rounds": rounds, "current_round": selectors.round_to_show(tournament, rounds),
        "club_teams": tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS,
        # a finished event's frozen results stand (tournaments/selectors/final.py): "Final results"
        "final": final.is_final(tournament),
        # finished, frozen results or not (an event finished before results were frozen): never "in play"
        "finished": tournament.status == Tournament.Status.FINISHED,
        # dates, state in words, rules' label, "Updated HH:MM" (issue 17): every page's head
        **public_words.event_context(tournament, rounds, final=final.is_final(tournament)),
    }


@public_page
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "public/home.html", {"tournaments": selectors.published_tournaments()})


@public_page
@cached_page("results")
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    current = ctx["current_round"]
    boards = selectors.round_boards(current) if current else []
    counts: dict[str, int] = {}
    for b in boards:
        if not b.is_bye:
            counts[b.status_label] = counts.get(b.status_label, 0) + 1
    ctx.update(
        boards=boards,
        status_counts=sorted(counts.items()),
        clubs=selectors.tournament_clubs(ctx["tournament"]),
        entry_count=selectors.active_entry_count(ctx["tournament"]),
        nav="home",
        clock=None if ctx["finished"] else presenters.clock_view(current),
        round_state=public_words.round_state(current) if current else "",
        round_words=[(r.number, public_words.round_state(r)) for r in ctx["rounds"]],
    )
    if ctx["final"]:
        snapshot = final.final_snapshot(ctx["tournament"])
        ctx.update(awards=final.final_awards(ctx["tournament"]),
                   standings=selectors.standings(ctx["tournament"], snapshot=snapshot))
        _standings_words(ctx)
    if ctx["club_teams"]:
        ctx.update(
            team_matches=presenters.team_matches(current, boards) if current and not ctx["finished"] else [],
            club_table=selectors.club_standings(ctx["tournament"]),
        )
    return render(request, "public/tournament.html", ctx)


#: A large event's live standings (the fragment phones poll every few seconds) are bounded: above this many
#: rows the fragment shows the top ``LIVE_TOP`` and the boards in play of those pairs only; the whole table
#: is its own fragment (``standings/table/``), polled once a minute. At 1,000 pairs the whole table is about
#: 1.4 MB (120 kB gzipped), changed by every confirmation: polled every 5 s by thousands of phones it was
#: most of the server's bytes (docs/operations.md, "The national day").
LIVE_ALL_UPTO = 60
LIVE_TOP = 20

#: How often a phone polls a page's live part, in seconds: (an event of up to ``LIVE_ALL_UPTO`` pairs, a larger
#: one). A large event's phones poll less often: at a national day's 10,000 phones the polls at 5 s (standings)
#: and 10 s (pairings) asked the box for about 1,650 reads a second, more than half of its two cores with
#: Caddy's and the phones' own share (docs/operations.md, "The national day"); at 15 s and 20 s a result still
#: reaches a phone within a poll of its publication, and a large event's pages are bounded besides. A board's
#: scorecard changes once a hand (every minute or two) and polls as the tablets do, every 10 s; the whole
#: table of a large event once a minute (``WHOLE_TABLE_POLL``).
POLL_SECONDS = {"standings": (5, 15), "pairings": (10, 20), "board": (10, 10)}
WHOLE_TABLE_POLL = 60


def poll_seconds(page: str, *, pairs: int) -> int:
    """The live part's poll interval of ``page`` for an event of ``pairs`` pairs (``POLL_SECONDS``)."""
    small, large = POLL_SECONDS[page]
    return large if pairs > LIVE_ALL_UPTO else small


def _bound_live(ctx: dict[str, Any]) -> None:
    """The top of a large table (a tie across the cut is kept whole) and the boards its pairs play, with how
    many boards are left out. Final results are never bounded: nothing polls them."""
    rows = ctx["standings"].rows
    ctx["rows_total"] = len(rows)
    boards = ctx["live_boards"]
    if ctx["final"]:
        return
    if len(rows) <= LIVE_ALL_UPTO:
        if 2 * len(boards) > LIVE_ALL_UPTO:  # a large event before its first confirmed game: no table yet
            ctx["live_boards"], ctx["live_more"], ctx["live_first"] = boards[:LIVE_TOP], len(boards) - LIVE_TOP, True
        return
    limit = LIVE_TOP
    while limit < len(rows) and rows[limit].rank == rows[limit - 1].rank:
        limit += 1  # "20=" and "20=": both or neither
    ctx["rows_limit"] = limit
    leaders = {row.entry.id for row in rows[:limit] if row.entry}
    shown = [b for b in boards if b.board.pair_a_id in leaders or b.board.pair_b_id in leaders][:limit]
    ctx["live_boards"], ctx["live_more"] = shown, len(boards) - len(shown)


def _standings_words(ctx: dict[str, Any]) -> None:
    """The standings' caption (what the table counts), its legend and the main score's column."""
    table = ctx["standings"]
    ctx.update(
        legend=public_words.legend(table.columns),
        caption=public_words.standings_caption(table.after_round, table.snapshot is not None, ctx["rounds"],
                                               final=ctx["final"]),
        main_index=public_words.main_column(table.columns),
    )


def _standings_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    current = ctx["current_round"]
    boards = selectors.round_boards(current) if current else []
    snapshot = final.final_snapshot(tournament) if ctx["final"] else selectors.latest_snapshot(tournament)
    ctx.update(
        standings=selectors.standings(tournament, snapshot=snapshot),
        live_boards=[b for b in boards if not b.is_bye and b.status not in ("done", "forfeited")]
        if not ctx["finished"] else [],
        byes=[b for b in boards if b.is_bye] if not ctx["finished"] else [],
        nav="standings",
        tie_breaks=((tournament.final_results or {}).get("tie_breaks") if ctx["final"] else None)
        or [TIE_BREAKS.get(name) for name in tournament.tie_break_order()],
        bye_policy=tournament.bye_policy_value().describe(),
        awards=final.final_awards(tournament) if ctx["final"] else [],
    )
    _standings_words(ctx)
    _bound_live(ctx)
    # the event's size: its table's rows, or before the first confirmed game the pairs at its boards
    ctx["poll_seconds"] = poll_seconds("standings", pairs=max(ctx["rows_total"], 2 * len(boards)))
    ctx["whole_poll_seconds"] = WHOLE_TABLE_POLL
    ctx["share_text"] = public_words.standings_text(tournament, ctx["standings"], ctx["caption"], ctx["updated_at"])
    if ctx["club_teams"]:
        matches = presenters.team_matches(current, boards) if current and not ctx["finished"] else []
        ctx.update(
            club_table=selectors.club_standings(tournament, snapshot=snapshot),
            paper_results=paper_results(tournament),
            team_matches=[m for m in matches if not m.is_bye],
            team_byes=[m for m in matches if m.is_bye],
            byes=[],  # a club's bye is a team match bye, shown with the team matches
        )
    return ctx


@public_page
@cached_page("live")
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "public/standings.html", _standings_context(request, slug))


@public_page
@cached_page("live")
def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The fragment the standings page polls: standings, byes and boards in play."""
    return render(request, "public/_standings_live.html", _standings_context(request, slug))


@public_page
@cached_page("live")
def standings_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole table of a large event, a fragment of its own that the standings page polls once a minute
    (the live fragment shows the top of it: ``LIVE_ALL_UPTO``)."""
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    snapshot = final.final_snapshot(tournament) if ctx["final"] else selectors.latest_snapshot(tournament)
    ctx.update(standings=selectors.standings(tournament, snapshot=snapshot), nav="standings")
    _standings_words(ctx)
    return render(request, "public/_standings_whole.html", ctx)


@public_page
@cached_page("live")  # every round's boards with their results as they stand (the "Boards" section)
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    ctx["nav"] = "rounds"
    # every public round with its boards, the latest first: the "Boards" section
    ctx["round_boards"] = [(r, selectors.round_boards(r)) for r in reversed(ctx["rounds"])]
    ctx["round_words"] = [(r.number, public_words.round_state(r)) for r in ctx["rounds"]]
    return render(request, "public/rounds.html", ctx)


def _pairings_context(request: HttpRequest, slug: str, number: int) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    round_ = selectors.public_round(ctx["tournament"], number)
    query = request.GET.get("q", "").strip()[:80]
    boards = selectors.round_boards(round_)
    shown = presenters.search_boards(boards, query)
    ctx.update(round=round_, query=query, boards=shown, total=len(boards), nav="pairings",
               poll_seconds=poll_seconds("pairings", pairs=sum(1 + (b.pair_b is not None) for b in boards)),
               clock=None if ctx["final"] else presenters.clock_view(round_),
               round_state=public_words.round_state(round_),
               seats=public_words.seats_by_name(shown),
               share_text=public_words.pairings_text(tournament=ctx["tournament"], round_=round_, boards=boards,
                                                     updated=ctx["updated_at"]))
    matches = presenters.team_matches(round_, boards) if ctx["club_teams"] else []
    if matches:
        # Boards grouped under their team match (club v club, bullseyes per club); only the groups with a
        # board that matches the search.
        visible = {s.board.id for s in shown}
        groups = []
        for match in matches:
            rows = [b for b in match.boards if b.board.id in visible]
            if rows or (match.is_bye and not query):
                groups.append((match, rows))
        ctx["team_groups"] = groups
    return ctx


@public_page
@cached_page("live")
def pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return render(request, "public/pairings.html", _pairings_context(request, slug, number))


@public_page
@cached_page("live")
def pairings_live(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return render(request, "public/_pairings_live.html", _pairings_context(request, slug, number))


def _board_context(request: HttpRequest, slug: str, board_id: int) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    board = selectors.public_board(ctx["tournament"], board_id)
    summary = selectors.board_summary(board)
    ctx.update(board=board, summary=summary, games=board_scorecard(board), nav="rounds",
               poll_seconds=poll_seconds("board", pairs=0),  # the same at any size: no count to read
               team_match=board.team_match, result=public_words.board_result(summary))
    return ctx


@public_page
@cached_page("live")
def board(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    return render(request, "public/board.html", _board_context(request, slug, board_id))


@public_page
@cached_page("live")
def board_live(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    return render(request, "public/_board_games.html", _board_context(request, slug, board_id))


@public_page
@cached_page("results")
def pair(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    entry = selectors.public_entry(tournament, entry_id)
    table = selectors.standings(tournament)
    row = next((r for r in table.rows if r.entry and r.entry.id == entry.id), None)
    ctx.update(
        entry=entry, boards=selectors.entry_boards(tournament, entry), standings=table, row=row, nav="standings"
    )
    return render(request, "public/pair.html", ctx)


@public_page
@cached_page("results")
def clubs(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    ctx.update(clubs=selectors.tournament_clubs(ctx["tournament"]), club_table=selectors.club_standings(ctx["tournament"]),
               nav="clubs")
    return render(request, "public/clubs.html", ctx)


@public_page
@cached_page("results")
def club(request: HttpRequest, slug: str, club_id: int) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    club_, members = selectors.public_club(tournament, club_id)
    snapshot = selectors.latest_snapshot(tournament)
    table = selectors.standings(tournament, snapshot=snapshot)
    member_ids = {e.id for e in members}
    rows = [r for r in table.rows if r.entry and r.entry.id in member_ids]
    clubs = selectors.club_standings(tournament, snapshot=snapshot)
    club_row = next((r for r in clubs.rows if r.club_ref and r.club_ref.id == club_.id), None)
    by_entry = {r.entry.id: r for r in rows if r.entry}
    main = public_words.main_column(table.columns)
    ctx.update(club=club_, members=members, standings=table, rows=rows, club_row=club_row, club_count=len(clubs.rows),
               nav="clubs", main_heading=table.columns[main][1] if main is not None else "",
               member_rows=[(e, by_entry.get(e.id), by_entry[e.id].values[main] if main is not None and e.id in by_entry
                             else None) for e in members])
    return render(request, "public/club.html", ctx)


@public_page
@cached_page("results")
def stats(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    rows, records = selectors.tournament_stats(ctx["tournament"])
    ctx.update(rows=rows, records=records, nav="stats")
    return render(request, "public/stats.html", ctx)
