"""Public pages: no login, published tournaments only. Each view reads through ``web.selectors``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from web import selectors
from web.http import public_page


def _tournament_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    tournament = selectors.public_tournament(slug)
    rounds = selectors.public_rounds(tournament)
    return {"tournament": tournament, "rounds": rounds, "current_round": selectors.current_round(tournament, rounds)}


@public_page
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "public/home.html", {"tournaments": selectors.published_tournaments()})


@public_page
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
        entry_count=ctx["tournament"].entries.filter(withdrawn=False).count(),
        nav="home",
    )
    return render(request, "public/tournament.html", ctx)


def _standings_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    current = ctx["current_round"]
    boards = selectors.round_boards(current) if current else []
    ctx.update(
        standings=selectors.standings(tournament),
        live_boards=[b for b in boards if not b.is_bye and b.status != "done"],
        byes=[b for b in boards if b.is_bye],
        nav="standings",
    )
    return ctx


@public_page
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "public/standings.html", _standings_context(request, slug))


@public_page
def standings_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The fragment the standings page polls: standings, byes and boards in play."""
    return render(request, "public/_standings_live.html", _standings_context(request, slug))


@public_page
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    ctx["nav"] = "rounds"
    return render(request, "public/rounds.html", ctx)


def _pairings_context(request: HttpRequest, slug: str, number: int) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    round_ = selectors.public_round(ctx["tournament"], number)
    query = request.GET.get("q", "").strip()[:80]
    boards = selectors.round_boards(round_)
    ctx.update(round=round_, query=query, boards=selectors.search_boards(boards, query), total=len(boards), nav="rounds")
    return ctx


@public_page
def pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return render(request, "public/pairings.html", _pairings_context(request, slug, number))


@public_page
def pairings_live(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return render(request, "public/_pairings_rows.html", _pairings_context(request, slug, number))


def _board_context(request: HttpRequest, slug: str, board_id: int) -> dict[str, Any]:
    ctx = _tournament_context(request, slug)
    board = selectors.public_board(ctx["tournament"], board_id)
    summary = selectors.summarise(board, {board.pair_a_id: board.pair_a, **({board.pair_b_id: board.pair_b} if board.pair_b else {})})
    ctx.update(board=board, summary=summary, games=selectors.board_scorecard(board), nav="rounds")
    return ctx


@public_page
def board(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    return render(request, "public/board.html", _board_context(request, slug, board_id))


@public_page
def board_live(request: HttpRequest, slug: str, board_id: int) -> HttpResponse:
    return render(request, "public/_board_games.html", _board_context(request, slug, board_id))


@public_page
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
def clubs(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    ctx.update(clubs=selectors.tournament_clubs(ctx["tournament"]), nav="clubs")
    return render(request, "public/clubs.html", ctx)


@public_page
def club(request: HttpRequest, slug: str, club_id: int) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    tournament = ctx["tournament"]
    club_, members = selectors.public_club(tournament, club_id)
    table = selectors.standings(tournament)
    member_ids = {e.id for e in members}
    rows = [r for r in table.rows if r.entry and r.entry.id in member_ids]
    ctx.update(club=club_, members=members, standings=table, rows=rows, nav="clubs")
    return render(request, "public/club.html", ctx)


@public_page
def stats(request: HttpRequest, slug: str) -> HttpResponse:
    ctx = _tournament_context(request, slug)
    rows, records = selectors.tournament_stats(ctx["tournament"])
    ctx.update(rows=rows, records=records, nav="stats")
    return render(request, "public/stats.html", ctx)
