"""Club team matches: line-ups, slots, alternating sides, totals and races."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    BoardStatus,
    PairingError,
    TeamMatchRule,
    check_lineup,
    default_lineup,
    team_match_boards,
    team_match_outcome,
)


def test_without_a_lineup_a_club_plays_its_first_k_pairs_by_seed():
    assert default_lineup([5, 3, 9, 1], 3) == (5, 3, 9)
    with pytest.raises(PairingError) as err:
        default_lineup([5, 3], 3)
    assert err.value.code == "short_roster"


def test_a_lineup_must_be_k_different_pairs_of_the_roster():
    assert check_lineup([9, 5], [5, 3, 9], 2) == (9, 5)
    for bad, code in [([9], "bad_lineup_size"), ([9, 7], "not_on_roster"), ([9, 9], "duplicate_in_lineup")]:
        with pytest.raises(PairingError) as err:
            check_lineup(bad, [5, 3, 9], 2)
        assert err.value.code == code


def test_slot_meets_slot_and_sides_alternate_down_the_boards():
    boards = team_match_boards(1, [11, 12, 13], 2, [21, 22, 23])
    assert [(b.slot, b.side0, b.side1) for b in boards] == [(1, 11, 21), (2, 22, 12), (3, 13, 23)]
    assert [(b.side0_club, b.side1_club) for b in boards] == [(1, 2), (2, 1), (1, 2)]
    with pytest.raises(PairingError):
        team_match_boards(1, [11], 2, [21, 22])
    with pytest.raises(PairingError):
        team_match_boards(1, [11], 1, [12])


def test_twelve_tables_totalled_go_to_the_club_with_more_bullseyes():
    rule = TeamMatchRule.games_per_board(2)
    boards = [(2, 0)] * 5 + [(0, 2)] * 6 + [(1, 1)]
    outcome = team_match_outcome(rule, boards)
    assert outcome.totals == (11, 13) and outcome.winner == 1 and outcome.match_points == (0, 2)
    assert outcome.status is BoardStatus.DECIDED and not outcome.stop_boards


def test_a_fixed_games_match_waits_for_every_board():
    rule = TeamMatchRule.games_per_board(2)
    assert team_match_outcome(rule, [(2, 0), (1, 0)]).status is BoardStatus.IN_PLAY
    assert team_match_outcome(rule, [(2, 0), (1, 0)], time_called=True).winner == 0


def test_level_totals_are_a_draw_or_in_a_knockout_one_more_game_on_board_one():
    rule = TeamMatchRule.games_per_board(2)
    draw = team_match_outcome(rule, [(2, 0), (0, 2)])
    assert draw.winner is None and draw.match_points == (1, 1)
    ko = team_match_outcome(rule, [(2, 0), (0, 2)], knockout=True)
    assert ko.status is BoardStatus.NEEDS_DECIDER
    home_took_it = team_match_outcome(rule, [(3, 0), (0, 2)], knockout=True)
    assert home_took_it.status is BoardStatus.DECIDED and home_took_it.winner == 0
    assert team_match_outcome(rule, [(2, 1), (0, 2)], knockout=True).winner == 1
    with pytest.raises(PairingError):
        team_match_outcome(rule, [(2, 0), (1, 2)], knockout=True)  # the decider is on board 1 only


def test_a_race_to_seventeen_ends_when_one_club_gets_there_and_stops_the_other_boards():
    rule = TeamMatchRule.first_to_total(17)
    running = team_match_outcome(rule, [(4, 3)] * 4)
    assert running.status is BoardStatus.IN_PLAY and running.totals == (16, 12)
    done = team_match_outcome(rule, [(5, 3), (4, 3), (4, 3), (4, 3)])
    assert done.winner == 0 and done.stop_boards and done.match_points == (2, 0)
    with pytest.raises(PairingError):
        team_match_outcome(rule, [(17, 17)])


def test_a_race_stopped_by_time_goes_to_the_club_ahead():
    rule = TeamMatchRule.first_to_total(18)
    outcome = team_match_outcome(rule, [(3, 5), (4, 4)], time_called=True)
    assert outcome.winner == 1 and not outcome.stop_boards


def test_a_team_match_needs_boards_and_sane_scores():
    with pytest.raises(PairingError):
        team_match_outcome(TeamMatchRule.first_to_total(17), [])
    with pytest.raises(PairingError):
        team_match_outcome(TeamMatchRule.first_to_total(17), [(-1, 0)])
    with pytest.raises(PairingError):
        TeamMatchRule.first_to_total(0)
