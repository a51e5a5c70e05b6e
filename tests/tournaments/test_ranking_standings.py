"""Standings from confirmed results: match points, each tie-break, shared ranks, byes."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tournaments.formats import AwardPolicy
from tournaments.ranking import (
    BoardResult,
    ByeRecord,
    RankingConfig,
    RankingError,
    compute_standings,
)


def won(r: int, a: int, b: int, score=(2, 0), chalks=(28, 10), hang=(0, 0)) -> BoardResult:
    return BoardResult(r, a, b, score, chalks, hang, decided=True)


def ranks(standings) -> list[tuple[int, int]]:
    return [(row.entrant_id, row.rank) for row in standings.rows]


def test_a_win_is_two_match_points_a_draw_one_a_loss_none():
    s = compute_standings([1, 2, 3, 4], [won(1, 1, 2), BoardResult(1, 3, 4, (1, 1), decided=True)])
    points = {r.entrant_id: r.match_points for r in s.rows}
    assert points == {1: 2, 2: 0, 3: 1, 4: 1}
    assert s.row(3).record == "0-1-0" and s.row(1).record == "1-0"


def test_what_stays_tied_shares_a_rank_and_the_next_rank_skips():
    boards = [won(1, 1, 2), BoardResult(1, 3, 4, (1, 1), decided=True)]
    s = compute_standings([1, 2, 3, 4], boards, config=RankingConfig(tie_breaks=("match_points",)))
    assert ranks(s) == [(1, 1), (3, 2), (4, 2), (2, 4)]
    assert s.row(3).tied and s.row(4).tied and not s.row(1).tied


def test_an_undecided_board_counts_its_confirmed_games_but_no_match_points():
    s = compute_standings([1, 2], [BoardResult(1, 1, 2, (1, 0), (14, 6), (1, 0), decided=False)])
    row = s.row(1)
    assert row.match_points == 0 and row.played == 0 and row.wins == 0
    assert row.bullseyes_won == 1 and row.chalks_for == 14 and row.hang_jacks_for == 1
    assert s.row(2).bullseyes_lost == 1 and s.row(2).hang_jacks_against == 1


def test_a_league_that_ranks_bullseyes_won_before_wins_gets_its_own_table():
    # Pair 1 won three matches 2-1; pair 2 won two 2-0 and lost one 1-2: 6 bullseyes against 5... and
    # pair 2 also took a 2-0: 7 bullseyes won in all.
    boards = [
        BoardResult(1, 1, 5, (2, 1), decided=True),
        BoardResult(2, 1, 6, (2, 1), decided=True),
        BoardResult(3, 1, 7, (2, 1), decided=True),
        BoardResult(1, 2, 6, (2, 0), decided=True),
        BoardResult(2, 2, 7, (2, 0), decided=True),
        BoardResult(3, 2, 5, (1, 2), decided=True),
        BoardResult(4, 2, 8, (2, 0), decided=True),
        BoardResult(4, 1, 8, (0, 2), decided=True),
    ]
    ids = [1, 2, 5, 6, 7, 8]
    points_first = compute_standings(ids, boards, config=RankingConfig(tie_breaks=("match_points", "wins")))
    assert points_first.ranked_ids()[:2] == (1, 2)
    assert points_first.row(1).rank == points_first.row(2).rank == 1  # 3 wins each
    bullseyes_first = compute_standings(
        ids, boards, config=RankingConfig(tie_breaks=("bullseyes_won", "wins"))
    )
    assert bullseyes_first.ranked_ids()[:2] == (2, 1)
    assert bullseyes_first.row(2).bullseyes_won == 7 and bullseyes_first.row(1).bullseyes_won == 6


def test_fewer_bullseyes_lost_ranks_higher():
    boards = [won(1, 1, 3, (2, 1)), won(1, 2, 4, (2, 0))]
    s = compute_standings(
        [1, 2, 3, 4], boards, config=RankingConfig(tie_breaks=("match_points", "bullseyes_lost"))
    )
    assert s.ranked_ids()[:2] == (2, 1)


def test_chalk_difference_then_chalks_for():
    boards = [won(1, 1, 3, chalks=(28, 20)), won(1, 2, 4, chalks=(28, 12)), won(1, 5, 6, chalks=(40, 24))]
    by_difference = compute_standings(
        [1, 2, 3, 4, 5, 6],
        boards,
        config=RankingConfig(tie_breaks=("match_points", "chalk_difference", "chalks_for")),
    )
    assert by_difference.ranked_ids()[:3] == (5, 2, 1)
    assert by_difference.row(5).chalk_difference == 16 and by_difference.row(2).chalk_difference == 16
    assert by_difference.row(5).rank == 1 and by_difference.row(2).rank == 2


def test_hang_jacks_for_and_against():
    boards = [won(1, 1, 3, hang=(2, 1)), won(1, 2, 4, hang=(2, 0))]
    by_for = compute_standings(
        [1, 2, 3, 4], boards, config=RankingConfig(tie_breaks=("match_points", "hang_jacks_for"))
    )
    assert by_for.row(1).rank == by_for.row(2).rank == 1
    by_against = compute_standings(
        [1, 2, 3, 4], boards, config=RankingConfig(tie_breaks=("match_points", "hang_jacks_against"))
    )
    assert by_against.ranked_ids()[:2] == (2, 1)


def test_head_to_head_is_skipped_unless_every_two_of_the_tied_have_met():
    # 1, 2 and 4 have one win each; 1 and 4 never met, so head-to-head leaves all three level.
    boards = [won(1, 2, 1), won(2, 1, 3), won(2, 4, 2)]
    s = compute_standings(
        [1, 2, 3, 4], boards, config=RankingConfig(tie_breaks=("match_points", "head_to_head"))
    )
    assert s.row(1).rank == s.row(2).rank == s.row(4).rank == 1
    assert s.row(1).head_to_head is None


def test_head_to_head_between_two_decides_when_all_else_is_level():
    boards = [
        won(1, 2, 1, chalks=(28, 10)),
        won(2, 1, 3, chalks=(28, 10)),
        won(2, 2, 4, (0, 2), (10, 28)),
        won(3, 4, 3, chalks=(28, 10)),
    ]
    config = RankingConfig(tie_breaks=("match_points", "chalk_difference", "head_to_head"))
    s = compute_standings([1, 2, 3, 4], boards, config=config)
    assert s.row(1).match_points == s.row(2).match_points == 2
    assert s.row(1).chalk_difference == s.row(2).chalk_difference == 0
    assert s.row(2).rank < s.row(1).rank
    assert s.row(2).head_to_head == 2 and s.row(1).head_to_head == 0


def test_head_to_head_of_three_is_a_mini_league_when_all_have_met():
    # A beat B, B beat C, C beat A, and A also beat D: tied on nothing else but points among the three.
    boards = [won(1, 1, 2), won(2, 2, 3), won(3, 3, 1), won(4, 1, 4), won(4, 2, 5), won(4, 3, 6)]
    config = RankingConfig(tie_breaks=("match_points", "head_to_head"))
    s = compute_standings([1, 2, 3, 4, 5, 6], boards, config=config)
    assert [s.row(i).rank for i in (1, 2, 3)] == [1, 1, 1]
    assert [s.row(i).head_to_head for i in (1, 2, 3)] == [2, 2, 2]


def test_buchholz_rewards_the_pair_that_beat_stronger_opponents():
    boards = [won(1, 1, 3), won(1, 2, 4), won(2, 3, 5), won(2, 4, 6), won(3, 3, 6)]
    config = RankingConfig(tie_breaks=("match_points", "buchholz"))
    s = compute_standings([1, 2, 3, 4, 5, 6], boards, config=config)
    assert s.row(1).buchholz == 4 and s.row(2).buchholz == 2
    assert s.row(1).rank < s.row(2).rank


def test_a_bye_scores_a_win_with_the_rounds_average_figures():
    boards = [won(1, 1, 2, (2, 1), (35, 30), (1, 0)), won(1, 3, 4, (2, 0), (28, 12), (0, 0))]
    s = compute_standings([1, 2, 3, 4, 5], boards, [ByeRecord(1, 5)])
    bye = s.row(5)
    assert bye.match_points == 2 and bye.wins == 1 and bye.byes == 1 and bye.played == 0
    assert bye.bullseyes_won == Fraction(5, 4) and bye.bullseyes_lost == Fraction(5, 4)
    assert bye.chalks_for == Fraction(105, 4) and bye.hang_jacks_for == Fraction(1, 4)
    assert json.dumps(s.as_dict())  # a snapshot is plain JSON


def test_a_bye_never_gives_more_than_the_average_winner():
    # Close games: the average pair conceded more chalks than the average winner did, so the bye's
    # "against" figures are raised to the winner's and its "for" figures kept at most the winner's.
    boards = [won(1, 1, 2, (2, 0), (28, 26)), won(1, 3, 4, (2, 1), (40, 38))]
    s = compute_standings([1, 2, 3, 4, 5], boards, [ByeRecord(1, 5)])
    bye = s.row(5)
    winners_for = Fraction(28 + 40, 2)
    winners_against = Fraction(26 + 38, 2)
    assert bye.chalks_for <= winners_for and bye.chalks_against >= winners_against
    assert bye.bullseyes_won <= 2 and bye.bullseyes_lost >= Fraction(1, 2)
    assert bye.bullseye_difference <= Fraction(3, 2)


def test_a_bye_before_any_board_is_confirmed_is_a_bare_win_and_grows_as_results_arrive():
    s = compute_standings([1, 2, 3], [BoardResult(1, 1, 2, (1, 0))], [ByeRecord(1, 3)])
    assert s.row(3).match_points == 2 and s.row(3).bullseyes_won == 0
    later = compute_standings([1, 2, 3], [won(1, 1, 2, (2, 0), (28, 0))], [ByeRecord(1, 3)])
    assert later.row(3).bullseyes_won == 1


def test_the_bye_can_count_as_a_draw_or_a_loss_and_add_no_figures():
    boards = [won(1, 1, 2)]
    draw = RankingConfig(bye=AwardPolicy.from_dict({"result": "draw", "score": "none"}))
    s = compute_standings([1, 2, 3], boards, [ByeRecord(1, 3)], draw)
    assert s.row(3).match_points == 1 and s.row(3).draws == 1 and s.row(3).bullseyes_won == 0
    loss = RankingConfig(bye=AwardPolicy.from_dict({"result": "loss"}))
    assert compute_standings([1, 2, 3], boards, [ByeRecord(1, 3)], loss).row(3).losses == 1


def test_custom_match_points():
    s = compute_standings([1, 2], [won(1, 1, 2)], config=RankingConfig(points=(3, 1, 0)))
    assert s.row(1).match_points == 3
    with pytest.raises(RankingError):
        RankingConfig(points=(1, 2, 0))


def test_tie_break_names_are_checked():
    assert RankingConfig(tie_breaks=("wins", "buchholz")).tie_breaks == ("wins", "buchholz")
    with pytest.raises(RankingError) as err:
        RankingConfig(tie_breaks=("wins", "luck"))
    assert err.value.code == "unknown_tie_break"
    with pytest.raises(RankingError) as err:
        RankingConfig(tie_breaks=("wins", "wins"))
    assert err.value.code == "repeated_tie_break"


def test_results_naming_strangers_are_refused():
    for bad in ([won(1, 1, 9)], [won(1, 1, 1)]):
        with pytest.raises(RankingError):
            compute_standings([1, 2], bad)
    with pytest.raises(RankingError):
        compute_standings([1, 2], [], [ByeRecord(1, 9)])
    with pytest.raises(RankingError):
        compute_standings([1, 1], [])
    with pytest.raises(RankingError):
        compute_standings([1], []).row(2)


def test_no_results_leaves_everyone_first_in_the_given_order():
    s = compute_standings([3, 1, 2], [])
    assert ranks(s) == [(3, 1), (1, 1), (2, 1)]
    assert compute_standings([], []).rows == ()
