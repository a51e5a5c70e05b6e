"""Club standings: from the club's pairs in a pairs event, or from team matches in a club-team event.

* Pairs event: ``club_standings`` adds up each club's pairs' rows (optionally only its best N pairs)
  and ranks the sums by the same tie-breaks, less head-to-head and Buchholz, which pair rows cannot
  give at club level.
* Club-team event: ``team_match_result`` turns a team match's boards into one club-level
  ``BoardResult`` (bullseyes, chalks and hang jacks totalled per club); ``compute_standings`` over
  those ranks the clubs with every tie-break, head-to-head and Buchholz included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

from tournaments.formats import TIE_BREAKS

from .keys import NEEDS_MEETINGS, row_key
from .types import BoardResult, RankingError, StandingRow, Standings, parse_tie_breaks


def team_match_result(
    round_number: int,
    home_club: int,
    away_club: int,
    boards: Sequence[BoardResult],
    club_of: Mapping[int, int],
    *,
    decided: bool,
) -> BoardResult:
    """One club-level result (home club on side 0) from a team match's boards.

    ``club_of`` maps each pair to its club (pairs sit on either side, boards alternate); ``decided``
    comes from ``pairing.team_match_outcome`` (the race reached N, or every board finished), and the
    club with more bullseyes then takes the match points.
    """
    home = [0, 0, 0]
    away = [0, 0, 0]
    for board in boards:
        c0, c1 = club_of.get(board.side0), club_of.get(board.side1)
        if {c0, c1} != {home_club, away_club}:
            raise RankingError(
                "board_not_in_match",
                f"round {board.round_number}: {board.side0} v {board.side1} is not a board of "
                f"club {home_club} v club {away_club}",
            )
        figures0 = (board.bullseyes[0], board.chalks[0], board.hang_jacks[0])
        figures1 = (board.bullseyes[1], board.chalks[1], board.hang_jacks[1])
        mine, theirs = (figures0, figures1) if c0 == home_club else (figures1, figures0)
        for k in range(3):
            home[k] += mine[k]
            away[k] += theirs[k]
    return BoardResult(
        round_number=round_number,
        side0=home_club,
        side1=away_club,
        bullseyes=(home[0], away[0]),
        chalks=(home[1], away[1]),
        hang_jacks=(home[2], away[2]),
        decided=decided,
    )


def club_standings(
    pair_standings: Standings,
    club_of: Mapping[int, int],
    *,
    clubs: Sequence[int] | None = None,
    tie_breaks: Sequence[str] | None = None,
    best: int | None = None,
) -> Standings:
    """Clubs ranked by the summed rows of their pairs.

    ``clubs`` fixes the order inside a shared rank (default: by each club's best pair). ``best``
    counts only each club's N best-placed pairs. ``tie_breaks`` defaults to the pair standings'
    order without head-to-head and Buchholz; naming either is an error.
    """
    if tie_breaks is None:
        order = tuple(tb for tb in pair_standings.tie_breaks if tb not in NEEDS_MEETINGS)
    else:
        order = parse_tie_breaks(tie_breaks)
        for tb in order:
            if tb in NEEDS_MEETINGS:
                raise RankingError(
                    "tie_break_not_available",
                    f"{TIE_BREAKS.get(tb).label} needs club-level results: rank team matches with compute_standings",
                )
    if best is not None and best < 1:
        raise RankingError("bad_best", "count at least one pair per club")
    members: dict[int, list[StandingRow]] = {}
    for row in pair_standings.rows:
        club = club_of.get(row.entrant_id)
        if club is not None:
            members.setdefault(club, []).append(row)
    if clubs is None:
        clubs = list(members)
    else:
        for club in members:
            if club not in clubs:
                raise RankingError("unknown_club", f"club {club} has pairs but is not listed")
    summed = [
        _sum_rows(club, members.get(club, [])[:best] if best else members.get(club, [])) for club in clubs
    ]
    return _rank(summed, order)


def _sum_rows(club: int, rows: Sequence[StandingRow]) -> StandingRow:
    zero = Fraction(0)
    return StandingRow(
        entrant_id=club,
        rank=0,
        tied=False,
        played=sum(r.played for r in rows),
        wins=sum(r.wins for r in rows),
        draws=sum(r.draws for r in rows),
        losses=sum(r.losses for r in rows),
        byes=sum(r.byes for r in rows),
        match_points=sum(r.match_points for r in rows),
        bullseyes_won=sum((r.bullseyes_won for r in rows), zero),
        bullseyes_lost=sum((r.bullseyes_lost for r in rows), zero),
        chalks_for=sum((r.chalks_for for r in rows), zero),
        chalks_against=sum((r.chalks_against for r in rows), zero),
        hang_jacks_for=sum((r.hang_jacks_for for r in rows), zero),
        hang_jacks_against=sum((r.hang_jacks_against for r in rows), zero),
    )


def _rank(rows: list[StandingRow], order: tuple[str, ...]) -> Standings:
    keys = [row_key(tb) for tb in order]
    keyed = [(tuple(key(r) for key in keys), position, r) for position, r in enumerate(rows)]
    keyed.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
    ranked: list[StandingRow] = []
    for position, (key, _, row) in enumerate(keyed):
        first = position
        while first > 0 and keyed[first - 1][0] == key:
            first -= 1
        tied = (first < position) or (position + 1 < len(keyed) and keyed[position + 1][0] == key)
        ranked.append(_with_rank(row, first + 1, tied))
    return Standings(rows=tuple(ranked), tie_breaks=order)


def _with_rank(row: StandingRow, rank: int, tied: bool) -> StandingRow:
    return replace(row, rank=rank, tied=tied)
