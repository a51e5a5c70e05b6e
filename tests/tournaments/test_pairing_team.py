"""Club team matches: line-ups, slots, alternating sides, totals and races."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingError,
    check_lineup,
    default_lineup,
    team_match_boards,
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


