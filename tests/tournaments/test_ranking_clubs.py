"""Club standings: from the clubs' pairs, and from team matches."""

from __future__ import annotations

import pytest

from tournaments.formats import TeamFormat, TeamKind, team_match_decision
from tournaments.pairing import team_match_boards
from tournaments.ranking import (
    BoardResult,
    RankingConfig,
    RankingError,
    club_standings,
    compute_standings,
    team_match_result,
)

CLUB = {11: 1, 12: 1, 21: 2, 22: 2, 31: 3}


def pairs_table():
    boards = [
        BoardResult(1, 11, 21, (2, 0), (28, 10), decided=True),
        BoardResult(1, 12, 22, (1, 2), (20, 28), decided=True),
        BoardResult(2, 11, 22, (2, 1), (35, 30), decided=True),
        BoardResult(2, 31, 21, (2, 0), (28, 3), decided=True),
    ]
    return compute_standings([11, 12, 21, 22, 31], boards)


def test_clubs_add_up_their_pairs():
    clubs = club_standings(pairs_table(), CLUB)
    one = clubs.row(1)
    assert one.match_points == 4 + 0 and one.wins == 2 and one.bullseyes_won == 5
    assert clubs.ranked_ids()[0] == 1
    assert clubs.tie_breaks == tuple(
        tb for tb in RankingConfig().tie_breaks if tb not in ("head_to_head", "buchholz")
    )


def test_only_a_clubs_best_pairs_can_count():
    clubs = club_standings(pairs_table(), CLUB, best=1)
    assert clubs.row(2).match_points == 2  # 22's win; 21 lost twice
    with pytest.raises(RankingError):
        club_standings(pairs_table(), CLUB, best=0)


def test_clubs_tied_on_everything_share_a_rank():
    s = compute_standings([11, 21, 31], [BoardResult(1, 11, 21, (1, 1), decided=True)])
    clubs = club_standings(s, CLUB, clubs=[1, 2, 3], tie_breaks=["match_points"])
    assert [(r.entrant_id, r.rank, r.tied) for r in clubs.rows] == [(1, 1, True), (2, 1, True), (3, 3, False)]


def test_head_to_head_needs_team_matches():
    with pytest.raises(RankingError) as err:
        club_standings(pairs_table(), CLUB, tie_breaks=["match_points", "head_to_head"])
    assert err.value.code == "tie_break_not_available"
    with pytest.raises(RankingError):
        club_standings(pairs_table(), CLUB, clubs=[1])


def test_a_team_match_totals_each_clubs_boards_whatever_side_its_pairs_sat():
    boards_plan = team_match_boards(1, [11, 12], 2, [21, 22])  # board 2 has club 2 on side 0
    results = [
        BoardResult(1, boards_plan[0].side0, boards_plan[0].side1, (2, 1), (30, 25), (1, 0), True),
        BoardResult(1, boards_plan[1].side0, boards_plan[1].side1, (0, 2), (9, 28), (0, 1), True),
    ]
    outcome = team_match_decision(TeamFormat(2, TeamKind.GAMES, 3), (4, 1), boards_decided=False, time_called=True)
    match = team_match_result(1, 1, 2, results, CLUB, decided=outcome.decided)
    assert match.bullseyes == (4, 1) and match.chalks == (58, 34) and match.hang_jacks == (2, 0)
    assert match.decided and match.winner == 0


def test_clubs_ranked_from_team_matches_with_head_to_head():
    matches = [
        BoardResult(1, 1, 2, (9, 7), decided=True),
        BoardResult(2, 2, 3, (9, 7), decided=True),
        BoardResult(3, 3, 1, (9, 7), decided=True),
    ]
    s = compute_standings(
        [1, 2, 3], matches, config=RankingConfig(tie_breaks=("match_points", "head_to_head"))
    )
    assert all(r.rank == 1 and r.head_to_head == 2 for r in s.rows)


def test_a_board_from_another_match_is_refused():
    with pytest.raises(RankingError) as err:
        team_match_result(1, 1, 2, [BoardResult(1, 11, 31, (2, 0))], CLUB, decided=False)
    assert err.value.code == "board_not_in_match"
