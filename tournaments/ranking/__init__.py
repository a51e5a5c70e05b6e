"""Ranking: standings from confirmed board results, by a configurable list of tie-breaks (no Django).

* ``compute_standings(entrant_ids, board_results, byes, RankingConfig(tie_breaks=[...]))``: one
  batched recomputation; ties share a rank (1, 2, 2, 4).
* ``club_standings(pair_standings, club_of)``: clubs from their pairs.
* ``team_match_result(...)``: a team match as one club-level result, to rank clubs with
  ``compute_standings``.
* ``league_table(team_ids, fixture_results, config)``: a league's teams from their fixtures (played from
  hands, paper or totals; walkovers; byes), less point deductions (``teams.py``).

docs/pairing.md describes the tie-breaks and the bye's score.
"""

from .clubs import club_standings, team_match_result
from .keys import implemented as implemented_tie_breaks
from .standings import compute_standings
from .teams import FixtureResult, league_table, unfed_tie_breaks
from .types import (
    BoardResult,
    ByeRecord,
    RankingConfig,
    RankingError,
    StandingRow,
    Standings,
    parse_tie_breaks,
)

__all__ = [
    "BoardResult",
    "ByeRecord",
    "FixtureResult",
    "RankingConfig",
    "RankingError",
    "StandingRow",
    "Standings",
    "club_standings",
    "implemented_tie_breaks",
    "compute_standings",
    "league_table",
    "parse_tie_breaks",
    "team_match_result",
    "unfed_tie_breaks",
]
