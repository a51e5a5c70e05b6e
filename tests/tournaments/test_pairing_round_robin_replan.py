"""Round robin re-planned when the field changes (issue 13): ``round_robin_replan``.

The rule checked here is docs/pairing.md's, "Round robin when the field changes": the planned rounds
split into ``cycles`` cycles of ceil(last planned round / cycles) rounds; in a round of cycle k two
entrants (or an entrant and the bye) may meet only if they have met fewer than k times and not yet in
cycle k. Everything below recomputes that rule from the boards, and the brute force searches every
sequence of pairings by plain recursion: neither shares code with ``tournaments.pairing.schedule``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.tourney_gen import random_history
from tournaments.pairing import (
    EXACT_LIMIT,
    DraftRound,
    History,
    Outlook,
    PairingError,
    PastBoard,
    PastBye,
    ReplanVerdict,
    rematch_outlook,
    round_robin,
    round_robin_replan,
    round_robin_round,
    round_robin_rounds,
)

BYE = "bye"
BRUTE_FORCE_LIMIT = 7  # entrants: the brute force stays well under a second up to here


# --- independent helpers -----------------------------------------------------------------------------


def _as_history(rounds: Sequence[DraftRound], history: History | None = None) -> History:
    boards = tuple(PastBoard(r.round_number, b.side0, b.side1) for r in rounds for b in r.boards)
    byes = tuple(PastBye(r.round_number, r.bye.entrant) for r in rounds if r.bye)
    if history is None:
        return History(boards=boards, byes=byes)
    return history.extended(boards, byes)


class _Rule:
    """The cycle rule for one re-plan: which meetings are allowed in which round."""

    def __init__(self, ids: Sequence[int], history: History, first: int, remaining: int, cycles: int):
        self.first, self.last, self.cycles = first, first + remaining - 1, cycles
        self.length = max(1, math.ceil(self.last / cycles))
        present = set(ids)
        self.met: dict[frozenset[object], list[int]] = {}
        for b in history.boards:
            if b.side0 in present and b.side1 in present:
                self.met.setdefault(frozenset((b.side0, b.side1)), []).append(b.round_number)
        for y in history.byes:
            if y.entrant in present:
                self.met.setdefault(frozenset((y.entrant, BYE)), []).append(y.round_number)

    def cycle(self, t: int) -> int:
        return min(self.cycles, (t - 1) // self.length + 1)

    def allowed(self, pair: frozenset[object], t: int) -> bool:
        k = self.cycle(t)
        earlier = self.met.get(pair, [])
        return len(earlier) < k and all(r <= (k - 1) * self.length for r in earlier)

    def breaks(self, rounds: Sequence[DraftRound]) -> list[tuple[int, frozenset[object]]]:
        """Every board (and bye) of ``rounds`` that breaks the rule, as (round, pair)."""
        found = []
        added: list[tuple[frozenset[object], int]] = []
        for r in rounds:
            pairs = [frozenset(b.entrants) for b in r.boards]
            if r.bye:
                pairs.append(frozenset((r.bye.entrant, BYE)))
            found += [(r.round_number, p) for p in pairs if not self.allowed(p, r.round_number)]
            for p in pairs:
                self.met.setdefault(p, []).append(r.round_number)
                added.append((p, r.round_number))
        for p, _ in reversed(added):
            self.met[p].pop()
        return found


def _brute_force_exists(ids: Sequence[int], rule: _Rule) -> bool:
    """Whether the remaining rounds can all keep the rule: every sequence of pairings, by recursion.

    Rounds of one cycle are interchangeable (no pair meets twice in a cycle, so a round's order in
    it changes nothing), so inside a cycle the first vertex's partner only goes up; a failed state is
    remembered, and an entrant with fewer allowed opponents than rounds left in the cycle fails at once.
    """
    vertices: list[object] = [*ids, *([BYE] if len(ids) % 2 else [])]
    failed: set[object] = set()

    def matchings(rest: list[object], t: int, above: int):
        if not rest:
            yield []
            return
        for i in range(1, len(rest)):
            pair = frozenset((rest[0], rest[i]))
            if (len(rest) < len(vertices) or i > above) and rule.allowed(pair, t):
                for m in matchings(rest[1:i] + rest[i + 1 :], t, above):
                    yield [pair, *m]

    def go(t: int, above: int) -> bool:
        if t > rule.last:
            return True
        if t == rule.first or rule.cycle(t) != rule.cycle(t - 1):
            above = 0
        key = (t, above, frozenset((p, tuple(rs)) for p, rs in rule.met.items()))
        if key in failed:
            return False
        left = sum(1 for u in range(t, rule.last + 1) if rule.cycle(u) == rule.cycle(t))
        if all(sum(rule.allowed(frozenset((v, u)), t) for u in vertices if u != v) >= left for v in vertices):
            for m in matchings(vertices, t, above):
                partner = next(vertices.index(u) for u in m[0] if u != vertices[0])
                for p in m:
                    rule.met.setdefault(p, []).append(t)
                done = go(t + 1, partner)
                for p in m:
                    rule.met[p].pop()
                if done:
                    return True
        failed.add(key)
        return False

    return go(rule.first, 0)


def _canonical(found: list[tuple[int, frozenset[object]]]) -> list[tuple[int, list[str]]]:
    return sorted((t, sorted(map(str, pair))) for t, pair in found)


def _check_replan(ids: Sequence[int], history: History, remaining: int, cycles: int, plan) -> None:
    """What every answer must satisfy, whatever its verdict."""
    first = history.rounds_played + 1
    assert [r.round_number for r in plan.rounds] == list(range(first, first + remaining))
    for r in plan.rounds:
        seated = Counter(r.entrant_ids())
        assert sorted(seated) == sorted(ids) and set(seated.values()) == {1}, r
        assert (r.bye is not None) == (len(ids) % 2 == 1)
        assert [b.table for b in r.boards] == list(range(1, len(r.boards) + 1))
    rule = _Rule(ids, history, first, remaining, cycles)
    breaks = rule.breaks(plan.rounds)
    listed = [
        (m.round_number, frozenset((m.entrant, BYE if m.opponent is None else m.opponent)))
        for m in plan.rematches
    ]
    warned = [
        (r.round_number, frozenset((*w.entrants, *([BYE] if w.code == "repeat_bye" else []))))
        for r in plan.rounds
        for w in r.warnings
    ]
    assert _canonical(listed) == _canonical(warned) == _canonical(breaks)
    if plan.verdict is ReplanVerdict.COMPLETE:
        assert breaks == []
        # As many boards to play as pairs still to meet: each of them meets (exactly once a cycle).
        owed = {
            frozenset((a, b)): max(0, cycles - len(rule.met.get(frozenset((a, b)), [])))
            for i, a in enumerate(ids)
            for b in ids[i + 1 :]
        }
        if sum(owed.values()) == remaining * (len(ids) // 2):
            meetings = Counter(frozenset(b.entrants) for r in plan.rounds for b in r.boards)
            assert all(meetings[p] == k for p, k in owed.items())
            assert plan.unmet == ()
        byes = Counter((r.bye.entrant, rule.cycle(r.round_number)) for r in plan.rounds if r.bye)
        assert set(byes.values()) <= {1}  # at most one bye per cycle
    else:
        assert len(plan.rematches) >= plan.fewest_rematches >= 1
    if len(ids) <= EXACT_LIMIT:
        assert plan.verdict is not ReplanVerdict.UNKNOWN
    if cycles == 1:  # one source of truth with the outlook
        outlook = rematch_outlook(ids, history, remaining)
        assert (outlook.status is Outlook.IMPOSSIBLE) == (plan.verdict is ReplanVerdict.IMPOSSIBLE)
        assert (
            plan.outlook.status
            is {
                ReplanVerdict.COMPLETE: Outlook.GUARANTEED,
                ReplanVerdict.IMPOSSIBLE: Outlook.IMPOSSIBLE,
                ReplanVerdict.UNKNOWN: Outlook.NOT_GUARANTEED,
            }[plan.verdict]
        )
    if len(ids) <= BRUTE_FORCE_LIMIT:
        exists = _brute_force_exists(ids, _Rule(ids, history, first, remaining, cycles))
        assert (plan.verdict is ReplanVerdict.IMPOSSIBLE) == (not exists)


# --- properties --------------------------------------------------------------------------------------


@st.composite
def _events(draw):
    """A round robin planned for its first field, played by Berger until the field first changes,
    then by the re-plan; between rounds, entrants withdraw and late entries join."""
    cycles = draw(st.sampled_from([1, 1, 1, 2]))
    n = draw(st.integers(4, 12 if cycles == 1 else 7))
    ids = list(range(1, n + 1))
    planned = round_robin_rounds(ids, cycles=cycles)
    first_change = draw(st.integers(1, planned - 1))
    changes = {}
    for after in range(first_change, planned):
        if after == first_change or draw(st.integers(0, 3)) == 0:
            changes[after] = draw(st.lists(st.sampled_from(["withdraw", "late"]), min_size=1, max_size=2))
    return ids, cycles, planned, first_change, changes


@settings(max_examples=70, deadline=None)
@given(event=_events())
def test_a_changing_field_never_meets_twice_while_a_complete_schedule_exists(event):
    ids, cycles, planned, first_change, changes = event
    history = _as_history(round_robin(ids, cycles=cycles)[:first_change])
    present, next_id = list(ids), len(ids) + 1
    for played in range(first_change, planned):
        for change in changes.get(played, []):
            if change == "withdraw" and len(present) > 3:
                present.remove(present[(played * 7) % len(present)])
            elif len(present) < EXACT_LIMIT:
                present.append(next_id)
                next_id += 1
        plan = round_robin_replan(present, history, planned - played, cycles=cycles)
        _check_replan(present, history, planned - played, cycles, plan)
        history = _as_history(plan.rounds[:1], history)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(2, BRUTE_FORCE_LIMIT),
    played=st.integers(0, 5),
    remaining=st.integers(1, 5),
)
def test_after_any_history_the_verdict_is_impossible_exactly_when_the_brute_force_finds_nothing(
    seed, n, played, remaining
):
    # Random past rounds (rematches and repeat byes allowed) reach the cases the degree bound misses.
    ids = list(range(1, n + 1))
    history = random_history(random.Random(seed), ids, played)
    plan = round_robin_replan(ids, history, remaining)
    _check_replan(ids, history, remaining, 1, plan)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 16), cycles=st.integers(1, 2), data=st.data())
def test_an_unchanged_field_keeps_the_berger_tables(n, cycles, data):
    ids = [100 + 7 * i for i in range(n)]
    tables = round_robin(ids, cycles=cycles)
    played = data.draw(st.integers(0, len(tables) - 1))
    plan = round_robin_replan(ids, _as_history(tables[:played]), len(tables) - played, cycles=cycles)
    assert plan.rounds == tables[played:]
    assert (plan.verdict, plan.method, plan.rematches, plan.unmet) == (
        ReplanVerdict.COMPLETE,
        "berger",
        (),
        (),
    )


# --- the examples ---------------------------------------------------------------------------


def _pairs(rounds: Sequence[DraftRound]) -> Counter[frozenset[int]]:
    return Counter(frozenset(b.entrants) for r in rounds for b in r.boards)


def test_a_withdrawal_after_round_three_of_eight_pairs_leaves_no_rematch_and_no_missed_pairing():
    ids = list(range(1, 9))
    played = round_robin(ids)[:3]
    present = [i for i in ids if i != 3]
    # What the Berger tables did: the seats shift, 4 rematches, 4 pairs who never meet.
    shifted = [round_robin_round(present, r) for r in range(4, 8)]
    before = _pairs(played) + _pairs(shifted)
    assert sum(k - 1 for k in before.values() if k > 1) == 4
    assert (
        sum(1 for i, a in enumerate(present) for b in present[i + 1 :] if not before[frozenset((a, b))]) == 4
    )

    plan = round_robin_replan(present, _as_history(played), 4)
    assert plan.verdict is ReplanVerdict.COMPLETE and plan.rematches == () and plan.unmet == ()
    after = _pairs(played) + _pairs(plan.rounds)
    assert all(after[frozenset((a, b))] == 1 for i, a in enumerate(present) for b in present[i + 1 :])
    # The four who were to meet 3 still have a round to fill: each sits out once, nobody twice.
    assert sorted(r.bye.entrant for r in plan.rounds if r.bye) == sorted(
        i for i in present if frozenset((i, 3)) not in _pairs(played)
    )


def test_when_the_last_seed_withdraws_the_berger_tables_stand_and_its_opponents_sit_out():
    ids = list(range(1, 9))
    plan = round_robin_replan(ids[:-1], _as_history(round_robin(ids)[:3]), 4)
    assert plan.method == "berger" and plan.rounds == round_robin(ids[:-1])[3:]


def test_a_pair_added_after_round_two_of_six_never_repeats_round_one():
    ids = list(range(1, 7))
    played = round_robin(ids)[:2]
    plan = round_robin_replan([*ids, 7], _as_history(played), 4)
    assert plan.verdict is ReplanVerdict.COMPLETE and plan.rematches == ()
    assert _pairs(played) & _pairs(plan.rounds) == Counter()
    round_six = plan.rounds[-1]
    assert round_six.round_number == 6 and {frozenset(b.entrants) for b in round_six.boards}.isdisjoint(
        frozenset(b.entrants) for b in played[0].boards
    )
    # Four rounds cannot seat every new pairing: who will not meet is said.
    assert len(plan.unmet) == 21 - 6 - 12


def test_an_odd_field_losing_a_pair_cannot_fill_its_planned_rounds_and_says_so():
    # Nine pairs, nine rounds planned; one withdraws after round 3: eight pairs playing every round
    # run out of new opponents (someone has only four left for six rounds).
    ids = list(range(1, 10))
    history = _as_history(round_robin(ids)[:3])
    present = [i for i in ids if i != 5]
    plan = round_robin_replan(present, history, 6)
    assert plan.verdict is ReplanVerdict.IMPOSSIBLE and plan.method == "degree_bound"
    assert "4 entrants left to meet but 6 rounds to play" in plan.reason
    assert len(plan.rematches) == plan.fewest_rematches == 5  # the fewest there can be
    assert plan.outlook.status is Outlook.IMPOSSIBLE
    assert rematch_outlook(present, history, 6).status is Outlook.IMPOSSIBLE
    first = plan.rematches[0]
    rnd = next(r for r in plan.rounds if r.round_number == first.round_number)
    assert any(
        w.code == "rematch" and set(w.entrants) == {first.entrant, first.opponent} for w in rnd.warnings
    )


def test_the_petersen_graph_is_impossible_by_search_and_the_outlook_agrees():
    # Ten entrants whose not-met graph is the Petersen graph: three each left, no three rounds.
    unmet = {frozenset((i, (i + 1) % 5)) for i in range(5)} | {frozenset((i, i + 5)) for i in range(5)}
    unmet |= {frozenset((5 + i, 5 + (i + 2) % 5)) for i in range(5)}
    met = [(a, b) for a in range(10) for b in range(a + 1, 10) if frozenset((a, b)) not in unmet]
    history = History(boards=tuple(PastBoard(1, a, b) for a, b in met))
    plan = round_robin_replan(list(range(10)), history, 3)
    assert (plan.verdict, plan.method) == (ReplanVerdict.IMPOSSIBLE, "exact_search")
    assert plan.fewest_rematches == 1 and len(plan.rematches) >= 1
    assert rematch_outlook(list(range(10)), history, 3).status is Outlook.IMPOSSIBLE
    # Without the exact search nothing is proved: a heuristic's schedule, "unknown".
    beyond = round_robin_replan(list(range(10)), history, 3, exact_limit=0)
    assert (beyond.verdict, beyond.method) == (ReplanVerdict.UNKNOWN, "sufficient_test")
    assert "heuristic" in beyond.reason and beyond.rematches


def test_beyond_the_exact_limit_a_schedule_found_without_a_rematch_is_complete():
    ids = [1, 2, 4, 5, 6, 7, 8]  # 3 withdrew: the Berger seats shift
    plan = round_robin_replan(ids, _as_history(round_robin(list(range(1, 9)))[:2]), 5, exact_limit=0)
    assert (plan.verdict, plan.method, plan.rematches) == (ReplanVerdict.COMPLETE, "heuristic", ())
    big = list(range(1, 21))
    late = round_robin_replan([*big, 21], _as_history(round_robin(big)[:4]), 10)
    assert late.verdict is ReplanVerdict.COMPLETE and late.rematches == ()


# --- a double round robin ---------------------------------------------------------------------------


def test_a_double_round_robin_with_a_withdrawal_plans_second_meetings_in_the_second_cycle():
    ids = list(range(1, 7))  # five rounds a cycle, ten planned
    played = round_robin(ids, cycles=2)[:2]
    present = [1, 2, 3, 5, 6]
    plan = round_robin_replan(present, _as_history(played), 8, cycles=2)
    assert plan.verdict is ReplanVerdict.COMPLETE and plan.cycle_length == 5
    meetings = _pairs(played) + _pairs(plan.rounds)
    assert all(meetings[frozenset((a, b))] == 2 for i, a in enumerate(present) for b in present[i + 1 :])
    first_cycle = _pairs(played) + _pairs(plan.rounds[:3])
    assert max(first_cycle.values()) == 1
    assert plan.rounds[3].boards[0].explanation.startswith("Re-planned round 6, cycle 2")


# --- refusals and edges ------------------------------------------------------------------------------


def test_nothing_left_is_complete():
    plan = round_robin_replan([1, 2, 3], History(), 0)
    assert (plan.verdict, plan.rounds, plan.method) == (ReplanVerdict.COMPLETE, (), "nothing_left")
    assert plan.unmet == ((1, 2), (1, 3), (2, 3))


@pytest.mark.parametrize(
    ("ids", "remaining", "cycles", "code"),
    [
        ([1], 1, 1, "field_too_small"),
        ([1, 2, 2], 1, 1, "duplicate_entrant"),
        ([1, 2], -1, 1, "bad_round"),
        ([1, 2], 1, 0, "bad_cycles"),
    ],
)
def test_refusals(ids, remaining, cycles, code):
    with pytest.raises(PairingError) as err:
        round_robin_replan(ids, History(), remaining, cycles=cycles)
    assert err.value.code == code


def test_a_search_out_of_budget_is_unknown_unless_the_heuristic_finds_a_schedule():
    ids = [1, 2, 3, 4, 6, 7, 8, 9, 10]  # 5 withdrew
    history = _as_history(round_robin(list(range(1, 11)))[:2])
    plan = round_robin_replan(ids, history, 7, search_budget=1)
    assert plan.method in ("heuristic", "search_budget")
    assert (plan.verdict is ReplanVerdict.COMPLETE) == (plan.rematches == ())
