"""Rematch outlook: exact on small fields (checked against brute force), sound on large ones."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.tourney_gen import random_history
from tournaments.pairing import (
    History,
    Outlook,
    PastBoard,
    PastBye,
    rematch_outlook,
    round_robin,
)


def _brute_force(ids: list[int], history: History, rounds: int) -> bool:
    """Whether ``rounds`` rematch-free rounds exist, trying every sequence of pairings."""
    players: list[int | None] = list(ids)
    if len(players) % 2:
        players.append(None)

    def ok(a: int | None, b: int | None, used: set[frozenset[int | None]]) -> bool:
        if frozenset((a, b)) in used:
            return False
        if a is None or b is None:
            real = b if a is None else a
            return history.bye_count(real) == 0  # type: ignore[arg-type]
        return history.times_met(a, b) == 0

    def matchings(rest: list[int | None], used: set[frozenset[int | None]]):
        if not rest:
            yield []
            return
        first = rest[0]
        for k in range(1, len(rest)):
            if ok(first, rest[k], used):
                for m in matchings(rest[1:k] + rest[k + 1 :], used):
                    yield [frozenset((first, rest[k])), *m]

    def go(left: int, used: set[frozenset[int | None]]) -> bool:
        if left == 0:
            return True
        return any(go(left - 1, used | set(m)) for m in matchings(players, used))

    return go(rounds, set())


def _history_of(schedule) -> History:
    boards = tuple(PastBoard(r, a, b) for r, rnd in enumerate(schedule, 1) for a, b in rnd if b is not None)
    byes = tuple(PastBye(r, a) for r, rnd in enumerate(schedule, 1) for a, b in rnd if b is None)
    return History(boards=boards, byes=byes)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 8), played=st.integers(0, 5), left=st.integers(1, 6))
def test_small_fields_agree_with_brute_force(seed, n, played, left):
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    history = random_history(rng, ids, played)
    answer = rematch_outlook(ids, history, left)
    exists = _brute_force(ids, history, left)
    if exists:
        assert answer.status in (Outlook.GUARANTEED, Outlook.POSSIBLE), answer
    else:
        assert answer.status is Outlook.IMPOSSIBLE, answer
    if answer.status is Outlook.POSSIBLE:
        # The witness is a real schedule: everyone once a round, no meeting twice, byes to the byeless.
        planned = _history_of(answer.schedule)
        assert all(history.times_met(b.side0, b.side1) == 0 for b in planned.boards)
        assert all(planned.times_met(a, b) <= 1 for a, b in itertools.combinations(ids, 2))
        assert all(
            history.bye_count(b.entrant) == 0 and planned.bye_count(b.entrant) == 1 for b in planned.byes
        )
        for rnd in answer.schedule:
            seated = [x for board in rnd for x in board if x is not None]
            assert sorted(seated) == ids


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 9), played=st.integers(0, 5), left=st.integers(1, 6))
def test_the_sufficient_test_never_claims_too_much(seed, n, played, left):
    # With the exact search switched off, "guaranteed" and "impossible" must still be true.
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    history = random_history(rng, ids, played)
    answer = rematch_outlook(ids, history, left, exact_limit=0)
    exists = _brute_force(ids, history, left)
    if answer.status is Outlook.GUARANTEED:
        assert exists
    if answer.status is Outlook.IMPOSSIBLE:
        assert not exists
    assert answer.status is not Outlook.POSSIBLE


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(4, 10).map(lambda k: 2 * k), left=st.integers(1, 3))
def test_guaranteed_means_any_rematch_free_continuation_goes_on(seed, n, left):
    # Dirac's bound holds after any choices: take random rematch-free rounds and never get stuck.
    rng = random.Random(seed)
    ids = list(range(n))
    history = random_history(rng, ids, 1)
    answer = rematch_outlook(ids, history, left, exact_limit=0)
    if answer.status is not Outlook.GUARANTEED:
        return
    for r in range(left):
        unmet = [(a, b) for a, b in itertools.combinations(ids, 2) if history.times_met(a, b) == 0]
        rng.shuffle(unmet)
        import networkx as nx

        g = nx.Graph(unmet)
        matching = nx.max_weight_matching(g, maxcardinality=True)
        assert 2 * len(matching) == n
        history = history.extended(PastBoard(100 + r, a, b) for a, b in matching)


def test_nothing_left_to_pair_is_guaranteed():
    assert rematch_outlook([1, 2, 3], History(), 0).status is Outlook.GUARANTEED


def test_a_pair_that_has_met_everyone_makes_the_next_round_impossible():
    history = History(boards=(PastBoard(1, 1, 2), PastBoard(2, 1, 3), PastBoard(3, 1, 4)))
    answer = rematch_outlook([1, 2, 3, 4], history, 1)
    assert answer.status is Outlook.IMPOSSIBLE and answer.method == "degree_bound"
    assert "entrant 1 has 0 entrants left to meet but 1 rounds to play" in answer.reason


def test_a_fresh_big_field_is_guaranteed_by_dirac():
    answer = rematch_outlook(list(range(100)), History(), 10)
    assert answer.status is Outlook.GUARANTEED and answer.method == "dirac"


def test_a_big_field_below_dirac_is_not_guaranteed_not_impossible():
    ids = list(range(40))
    schedule = round_robin(ids)[:25]
    history = History(
        boards=tuple(PastBoard(d.round_number, b.side0, b.side1) for d in schedule for b in d.boards)
    )
    answer = rematch_outlook(ids, history, 5)
    assert answer.status is Outlook.NOT_GUARANTEED and answer.method == "sufficient_test"


def test_the_rest_of_a_round_robin_is_possible_in_a_field_of_sixteen():
    ids = list(range(16))
    schedule = round_robin(ids)[:7]
    history = History(
        boards=tuple(PastBoard(d.round_number, b.side0, b.side1) for d in schedule for b in d.boards)
    )
    answer = rematch_outlook(ids, history, 8)
    assert answer.status is Outlook.POSSIBLE and answer.method == "exact_search"
    assert len(answer.schedule) == 8


def test_the_petersen_graph_has_degree_three_but_no_three_rematch_free_rounds():
    # Ten entrants whose unmet graph is the Petersen graph: everyone has three opponents left, yet
    # no three rounds exist (the Petersen graph has no 1-factorisation), nor even two: what any
    # perfect matching leaves is two 5-cycles.
    outer = [(i, (i + 1) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    unmet = {frozenset(e) for e in outer + spokes + inner}
    met = [(a, b) for a, b in itertools.combinations(range(10), 2) if frozenset((a, b)) not in unmet]
    history = History(boards=tuple(PastBoard(1, a, b) for a, b in met))
    answer = rematch_outlook(list(range(10)), history, 3)
    assert answer.status is Outlook.IMPOSSIBLE and answer.method == "exact_search"
    assert rematch_outlook(list(range(10)), history, 2).status is Outlook.IMPOSSIBLE
    assert rematch_outlook(list(range(10)), history, 1).status is Outlook.POSSIBLE


def test_an_odd_field_counts_a_second_bye_as_a_rematch():
    history = History(byes=(PastBye(1, 1), PastBye(2, 2), PastBye(3, 3)))
    answer = rematch_outlook([1, 2, 3], history, 1)
    assert answer.status is Outlook.IMPOSSIBLE
    assert "the bye has 0 entrants left" in answer.reason


def test_a_search_that_runs_out_of_budget_says_not_guaranteed():
    ids = list(range(16))
    schedule = round_robin(ids)[:7]
    history = History(
        boards=tuple(PastBoard(d.round_number, b.side0, b.side1) for d in schedule for b in d.boards)
    )
    answer = rematch_outlook(ids, history, 8, search_budget=1)
    assert answer.status is Outlook.NOT_GUARANTEED and answer.method == "search_budget"
