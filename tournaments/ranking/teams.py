"""League tables: teams ranked from their fixtures' results, whatever each result is made of.

A ``FixtureResult`` is one counted fixture as the season's services read it: a played match (from hands, from
paper games, or from its totals only: then ``chalks`` is None), a walkover (``walkover_by``: 0 home, 1 away, 2
both absent) or a bye (``away`` None). ``league_table`` turns them into the ranking core's board results and
byes (a bye is a bye, never a played match) and ranks them with ``compute_standings``, less any point
deductions. A tie-break the results cannot feed (chalks when a result is known by its totals only) is
refused with ``RankingError("tie_break_not_fed")``. ``only`` keeps some teams' rows (a division's table
that counts a cross-division fixture: its opponents are in the computation, not in the table) and ranks them
again in the same order.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from tournaments.formats import GAME_SCORE_TIE_BREAKS, TIE_BREAKS

from .standings import compute_standings
from .types import BoardResult, ByeRecord, RankingConfig, RankingError, StandingRow, Standings


@dataclass(frozen=True, slots=True)
class FixtureResult:
    """One counted fixture, home team on side 0."""

    round_number: int
    home: int
    away: int | None
    bullseyes: tuple[int, int] = (0, 0)
    hang_jacks: tuple[int, int] = (0, 0)
    #: The games' final scores summed per team; None when the result is known by its totals only.
    chalks: tuple[int, int] | None = (0, 0)
    walkover_by: int | None = None


def unfed_tie_breaks(config: RankingConfig, results: Sequence[FixtureResult]) -> tuple[str, ...]:
    """The tie-breaks of ``config`` that some result cannot feed (chalks from match totals)."""
    if not any(r.away is not None and r.walkover_by is None and r.chalks is None for r in results):
        return ()
    return tuple(tb for tb in config.tie_breaks if tb in GAME_SCORE_TIE_BREAKS)


def league_table(
    teams: Sequence[int],
    results: Sequence[FixtureResult],
    config: RankingConfig,
    *,
    deductions: Mapping[int, tuple[int, int]] | None = None,
    only: Collection[int] | None = None,
) -> Standings:
    """Rank ``teams`` (in their list order inside a shared rank) from ``results``."""
    unfed = unfed_tie_breaks(config, results)
    if unfed:
        labels = ", ".join(TIE_BREAKS.get(tb).label for tb in unfed)
        raise RankingError("tie_break_not_fed", f"{labels} needs each game's score, and some of this season's results "
                           "are known by their match totals only: choose tie-breaks without chalks for this season.")
    boards: list[BoardResult] = []
    byes: list[ByeRecord] = []
    for r in results:
        if r.away is None:
            byes.append(ByeRecord(round_number=r.round_number, entrant=r.home))
            continue
        boards.append(BoardResult(
            round_number=r.round_number, side0=r.home, side1=r.away, bullseyes=r.bullseyes,
            chalks=r.chalks or (0, 0), hang_jacks=r.hang_jacks, decided=True, forfeited=r.walkover_by,
            awarded=r.walkover_by is not None,
        ))
    standings = compute_standings(teams, boards, byes, config, deductions=deductions)
    if only is None:
        return standings
    kept = [row for row in standings.rows if row.entrant_id in only]
    ranked: list[StandingRow] = []
    for position, row in enumerate(kept):
        same_as_before = position > 0 and kept[position - 1].rank == row.rank
        rank = ranked[-1].rank if same_as_before else position + 1
        tied = sum(1 for other in kept if other.rank == row.rank) > 1
        ranked.append(replace(row, rank=rank, tied=tied))
    return Standings(rows=tuple(ranked), tie_breaks=standings.tie_breaks)
