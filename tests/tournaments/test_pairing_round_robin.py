"""Round robin by Berger tables: the published tables, completeness, byes, sides, club teams."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.tourney_gen import check_round_robin
from tournaments.pairing import (
    PairingError,
    berger_round,
    default_lineup,
    round_robin,
    round_robin_round,
    round_robin_rounds,
    team_match_boards,
)

# The FIDE Berger tables for four and six, as printed in the FIDE Handbook (C.05, Annex 1).
BERGER_4 = [((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1))]
BERGER_6 = [
    ((1, 6), (2, 5), (3, 4)),
    ((6, 4), (5, 3), (1, 2)),
    ((2, 6), (3, 1), (4, 5)),
    ((6, 5), (1, 4), (2, 3)),
    ((3, 6), (4, 2), (5, 1)),
]


def test_the_table_for_four_is_fides():
    assert [berger_round(4, r) for r in range(1, 4)] == BERGER_4


def test_the_table_for_six_is_fides():
    assert [berger_round(6, r) for r in range(1, 6)] == BERGER_6


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 30), cycles=st.integers(1, 2))
def test_everyone_meets_everyone_once_per_cycle(n, cycles):
    ids = [100 + 3 * i for i in range(n)]
    rounds = round_robin(ids, cycles=cycles)
    assert len(rounds) == round_robin_rounds(ids, cycles=cycles) == (n - 1 + n % 2) * cycles
    assert check_round_robin(rounds, ids, cycles) == []


def test_an_odd_field_gives_each_entrant_one_bye():
    rounds = round_robin([1, 2, 3, 4, 5])
    assert sorted(r.bye.entrant for r in rounds if r.bye) == [1, 2, 3, 4, 5]
    assert all(len(r.boards) == 2 for r in rounds)
    assert (
        rounds[0].bye is not None
        and rounds[0].bye.explanation == "Berger table round 1: drawn against the bye"
    )


def test_the_second_cycle_swaps_sides():
    first = round_robin_round([1, 2, 3, 4], 1, cycles=2)
    second = round_robin_round([1, 2, 3, 4], 4, cycles=2)
    assert [(b.side1, b.side0) for b in second.boards] == [(b.side0, b.side1) for b in first.boards]
    assert second.boards[0].explanation == "Berger table round 1, board 1, cycle 2"


def test_boards_are_numbered_as_tables_from_one():
    draft = round_robin_round(list(range(1, 8)), 3)
    assert [b.table for b in draft.boards] == [1, 2, 3]


def test_a_round_outside_the_event_is_refused():
    with pytest.raises(PairingError) as err:
        round_robin_round([1, 2, 3, 4], 4)
    assert err.value.code == "bad_round"
    with pytest.raises(PairingError):
        berger_round(5, 1)
    with pytest.raises(PairingError):
        round_robin_round([1], 1)


def test_club_teams_meet_club_against_club_and_pairs_meet_slot_against_slot():
    rosters = {10: [101, 102, 103, 104], 20: [201, 202, 203], 30: [301, 302, 303]}
    rounds = round_robin(list(rosters))
    assert check_round_robin(rounds, list(rosters)) == []
    k = 3
    matches = [b for r in rounds for b in r.boards]
    assert {frozenset(m.entrants) for m in matches} == {
        frozenset({10, 20}),
        frozenset({10, 30}),
        frozenset({20, 30}),
    }
    match = matches[0]
    boards = team_match_boards(
        match.side0,
        default_lineup(rosters[match.side0], k),
        match.side1,
        default_lineup(rosters[match.side1], k),
    )
    home, away = rosters[match.side0][:k], rosters[match.side1][:k]
    for board, h, a in zip(boards, home, away, strict=True):
        assert {board.side0, board.side1} == {h, a}
