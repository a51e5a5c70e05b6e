"""Knockout brackets: seeding order, byes to the top seeds, winners advancing, third place."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    MatchStatus,
    PairingError,
    bracket_state,
    knockout_bracket,
    placings,
    ready_matches,
    round_name,
    seeding_order,
)


def test_the_standard_seeding_order_keeps_top_seeds_apart():
    assert seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seeding_order(2) == (1, 2)
    with pytest.raises(PairingError):
        seeding_order(6)


def test_eight_entrants_open_with_one_against_eight():
    bracket = knockout_bracket([11, 12, 13, 14, 15, 16, 17, 18])
    first = [tuple(s.entrant for s in m.slots) for m in bracket.matches if m.round_number == 1]
    assert first == [(11, 18), (14, 15), (12, 17), (13, 16)]
    assert bracket.rounds == 3 and len(bracket.matches) == 7
    assert round_name(bracket, 1) == "quarter-finals" and round_name(bracket, 3) == "final"


def test_six_entrants_give_the_byes_to_seeds_one_and_two():
    bracket = knockout_bracket([1, 2, 3, 4, 5, 6])
    states = bracket_state(bracket, {})
    byes = [s.winner for s in states if s.status is MatchStatus.BYE]
    assert sorted(byes) == [1, 2]
    assert {(s.side0, s.side1) for s in states if s.status is MatchStatus.READY} == {(4, 5), (3, 6)}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40))
def test_byes_always_fall_to_the_top_seeds(n):
    ids = list(range(1, n + 1))
    bracket = knockout_bracket(ids)
    states = bracket_state(bracket, {})
    byes = sorted(s.winner for s in states if s.status is MatchStatus.BYE)
    assert byes == ids[: bracket.size - n]
    firsts = [s for s in states if s.match.round_number == 1]
    seated = sorted(x for s in firsts for x in (s.side0, s.side1) if x is not None)
    assert seated == ids


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 33), data=st.data())
def test_winners_advance_until_a_champion_is_left(n, data):
    bracket = knockout_bracket(list(range(1, n + 1)), third_place=n >= 4)
    winners: dict[int, int] = {}
    while True:
        ready = ready_matches(bracket, winners)
        if not ready:
            break
        for s in ready:
            winners[s.match.number] = data.draw(st.sampled_from([s.side0, s.side1]))
    places = placings(bracket, winners)
    assert set(places) == ({1, 2, 3} if n >= 4 else {1, 2})
    assert len(set(places.values())) == len(places)


def test_the_top_two_seeds_can_meet_only_in_the_final():
    bracket = knockout_bracket(list(range(1, 17)))
    winners: dict[int, int] = {}
    while ready := ready_matches(bracket, winners):
        for s in ready:
            assert {s.side0, s.side1} != {1, 2} or s.match == bracket.final
            winners[s.match.number] = min(s.side0, s.side1)  # the better seed always wins
    assert placings(bracket, winners) == {1: 1, 2: 2}


def test_the_third_place_match_takes_the_semi_final_losers():
    bracket = knockout_bracket([1, 2, 3, 4], third_place=True)
    winners = {1: 1, 2: 3}
    states = bracket_state(bracket, winners)
    third = next(s for s in states if s.match.third_place)
    assert (third.side0, third.side1) == (4, 2) and third.status is MatchStatus.READY
    winners.update({3: 1, 4: 2})
    assert placings(bracket, winners) == {1: 1, 2: 3, 3: 2}


def test_a_winner_for_a_match_not_yet_ready_is_refused():
    bracket = knockout_bracket([1, 2, 3, 4])
    with pytest.raises(PairingError) as err:
        bracket_state(bracket, {3: 1})
    assert err.value.code == "match_not_ready"
    with pytest.raises(PairingError) as err:
        bracket_state(bracket, {1: 2})
    assert err.value.code == "not_in_match"
    with pytest.raises(PairingError) as err:
        bracket_state(knockout_bracket([1, 2, 3]), {1: 1})
    assert err.value.code == "bye_match"
    with pytest.raises(PairingError) as err:
        bracket_state(bracket, {9: 1})
    assert err.value.code == "no_such_match"


def test_seeding_from_another_tournaments_standings_is_just_its_ranked_ids():
    from tournaments.ranking import BoardResult, compute_standings

    qualifier = compute_standings(
        [7, 8, 9, 10],
        [BoardResult(1, 7, 8, (0, 2), decided=True), BoardResult(1, 9, 10, (2, 1), decided=True)],
    )
    bracket = knockout_bracket(qualifier.ranked_ids()[:4])
    assert bracket.seeds[:2] == (8, 9)
