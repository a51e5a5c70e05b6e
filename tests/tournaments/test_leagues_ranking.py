"""ranking.league_table (pure): a bye is a bye, deductions, chalk tie-breaks refused on match totals, and a
division's rows ranked again without its cross-division opponents."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.formats import BYE_PRESETS
from tournaments.ranking import FixtureResult, RankingConfig, RankingError, league_table

LEAGUE = RankingConfig(tie_breaks=("bullseyes_won", "bullseyes_lost", "wins"), bye=BYE_PRESETS["league"].policy,
                       race_target=17)


def test_a_bye_is_counted_as_the_policy_says_and_never_as_a_played_match():
    # team 1 beat team 2 17-9 and lost to team 3 12-17; then a bye: 17 for, its own average 13 against
    results = [FixtureResult(1, 1, 2, (17, 9), (2, 1), None), FixtureResult(2, 3, 1, (17, 12), (0, 3), None),
               FixtureResult(3, 1, None)]
    row = league_table([1, 2, 3], results, LEAGUE).row(1)
    assert (row.played, row.byes, row.wins, row.losses, row.match_points) == (2, 1, 2, 1, 4)
    assert (row.bullseyes_won, row.bullseyes_lost) == (17 + 12 + 17, Fraction(9 + 17, 1) + 13)
    assert (row.hang_jacks_for, row.hang_jacks_against) == (5, 1)


def test_deductions_come_off_before_ranking():
    results = [FixtureResult(1, 1, 2, (17, 16), (0, 0), None)]
    standings = league_table([1, 2], results, LEAGUE, deductions={1: (2, 2)})
    assert [(r.entrant_id, r.match_points, r.bullseyes_won) for r in standings.rows] == [(2, 0, 16), (1, 0, 15)]


def test_a_chalk_tie_break_is_refused_when_a_result_has_no_game_scores():
    config = RankingConfig(tie_breaks=("match_points", "chalk_difference"))
    with_scores = [FixtureResult(1, 1, 2, (2, 0), (0, 0), (28, 9))]
    assert league_table([1, 2], with_scores, config).ranked_ids() == (1, 2)
    with pytest.raises(RankingError) as refused:
        league_table([1, 2], [*with_scores, FixtureResult(2, 2, 1, (2, 0), (0, 0), None)], config)
    assert refused.value.code == "tie_break_not_fed"


def test_only_keeps_a_divisions_rows_and_ranks_them_again():
    results = [FixtureResult(1, 1, 9, (17, 3)), FixtureResult(1, 2, 3, (17, 10)), FixtureResult(2, 3, 2, (17, 16))]
    full = league_table([1, 2, 3, 9], results, LEAGUE)
    assert full.ranked_ids() == (2, 3, 1, 9)
    kept = league_table([1, 2, 3, 9], results, LEAGUE, only={2, 3})
    assert [(r.entrant_id, r.rank, r.tied) for r in kept.rows] == [(2, 1, False), (3, 2, False)]
