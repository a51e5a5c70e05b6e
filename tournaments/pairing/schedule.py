"""A round robin's remaining rounds, re-planned for the entrants present (issue 13).

The Berger tables fix every round by seat number, so a withdrawal or a late entry shifts the seats and
the later tables pair the wrong entrants (rematches, pairs who never meet). ``round_robin_replan``
plans the remaining rounds from the history instead:

* A round seats every entrant present: boards, plus one bye when the field is odd (the bye is a vertex
  of its own, met like an opponent, so each entrant has at most one bye per cycle while that can be).
* The planned rounds are split into ``cycles`` cycles of ``cycle_length = ceil(planned / cycles)``
  rounds (round 1 to the last planned round). In a round of cycle k two entrants may meet only if they
  have met fewer than k times, and not yet in a round of cycle k: nobody meets twice in a single round
  robin, nobody meets a third time in a double one, and second meetings wait for the second cycle.
  A schedule that keeps this in every remaining round is *complete*.
* Cycle k's rounds then only use the pairs that had met fewer than k times *before* the re-plan (and not
  yet in cycle k), whatever earlier cycles plan, so each cycle is one question for the feasibility
  search: do its rounds hold that many edge-disjoint perfect matchings of that graph?
  ``feasibility._decide`` answers it, the same decision ``rematch_outlook`` takes: both have one source
  of truth, and for a single round robin they ask the same question of the same graph.
* When every present pair that has not met can meet in the rounds left (as many such pairs as boards
  to play), a complete schedule meets each of them exactly once: a board never repeats a pair.

Verdicts: ``complete`` (a complete schedule exists and is returned: the Berger tables when they still
are one, so an unchanged field keeps them; else the search's witness), ``impossible`` (proved: the
degree bound or the exhaustive search; the schedule returned is the one with the fewest rematches
found, each listed, with a lower bound), ``unknown`` (beyond ``exact_limit`` entrants or the search
budget, and no complete schedule found: a heuristic schedule, stated as such). A heuristic schedule
that happens to have no rematch is a complete one and says so (method ``heuristic``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import ceil

import rustworkx as rx

from .feasibility import (
    EXACT_LIMIT,
    SEARCH_BUDGET,
    Outlook,
    RematchOutlook,
    Schedule,
    _decide,
    _greedy,
    _schedule,
    _unmet_graph,
)
from .round_robin import round_robin_round, round_robin_rounds
from .types import DraftBoard, DraftBye, DraftRound, History, PairingError, PairingWarning, check_unique_ids

Board = tuple[int, int | None]
"""A planned board ``(a, b)``; ``b`` is None for the bye."""


class ReplanVerdict(StrEnum):
    """Whether the remaining rounds can all be played without a rematch (see the module docstring)."""

    COMPLETE = "complete"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class PlannedRematch:
    """A board of the plan that breaks the cycle rule: two entrants meeting again too soon (or a third
    time), or an entrant's second bye of a cycle (``opponent`` None). ``meeting`` counts this one."""

    round_number: int
    entrant: int
    opponent: int | None
    meeting: int
    earlier_rounds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Replan:
    """The answer of ``round_robin_replan``.

    ``rounds``: one ``DraftRound`` per remaining round, in order. ``method``: ``berger`` (the tables
    still hold), ``dirac``/``exact_search`` (the feasibility decision and its witness), ``heuristic``,
    ``degree_bound`` (with ``impossible``), ``search_budget``/``sufficient_test`` (with ``unknown``),
    ``nothing_left``. ``reason``: one sentence for the organiser. ``rematches``: every board listed in
    ``PlannedRematch``; ``fewest_rematches``: a lower bound on them (``len(rematches)`` equals it when
    the schedule is proven best). ``unmet``: present pairs who will still have met fewer than
    ``cycles`` times after the last planned round. ``cycle_length``: rounds per cycle used.
    """

    verdict: ReplanVerdict
    rounds: tuple[DraftRound, ...]
    method: str
    reason: str
    cycle_length: int
    rematches: tuple[PlannedRematch, ...] = ()
    fewest_rematches: int = 0
    unmet: tuple[tuple[int, int], ...] = ()

    @property
    def outlook(self) -> RematchOutlook:
        """The verdict in ``rematch_outlook``'s terms, for a round robin that follows this plan:
        ``complete`` is guaranteed, ``impossible`` impossible, ``unknown`` not guaranteed."""
        status = {
            ReplanVerdict.COMPLETE: Outlook.GUARANTEED,
            ReplanVerdict.IMPOSSIBLE: Outlook.IMPOSSIBLE,
            ReplanVerdict.UNKNOWN: Outlook.NOT_GUARANTEED,
        }[self.verdict]
        schedule: Schedule = tuple(tuple(_boards(r)) for r in self.rounds)
        return RematchOutlook(status, len(self.rounds), self.method, self.reason, schedule)


@dataclass(frozen=True, slots=True)
class _Cycles:
    cycles: int
    length: int

    def of(self, round_number: int) -> int:
        return min(self.cycles, (round_number - 1) // self.length + 1)

    def start(self, cycle: int) -> int:
        return (cycle - 1) * self.length + 1


class _Meetings:
    """Who met whom (and who had a bye) in which rounds, among the entrants present: the history,
    then the planned rounds as they are added. Keys are sorted pairs; a bye is ``(entrant, None)``."""

    def __init__(self, ids: Sequence[int], history: History) -> None:
        self.rounds: dict[tuple[int, int | None], list[int]] = {}
        present = set(ids)
        for b in history.boards:
            if b.side0 in present and b.side1 in present:
                self.rounds.setdefault(_key(b.side0, b.side1), []).append(b.round_number)
        for bye in history.byes:
            if bye.entrant in present:
                self.rounds.setdefault((bye.entrant, None), []).append(bye.round_number)

    def earlier(self, a: int, b: int | None) -> list[int]:
        return self.rounds.get(_key(a, b), [])

    def breaks_rule(self, a: int, b: int | None, round_number: int, cyc: _Cycles) -> bool:
        """Whether a meeting in ``round_number`` breaks the cycle rule."""
        k = cyc.of(round_number)
        earlier = self.earlier(a, b)
        return len(earlier) >= k or any(r >= cyc.start(k) for r in earlier)

    def add(self, a: int, b: int | None, round_number: int) -> None:
        self.rounds.setdefault(_key(a, b), []).append(round_number)


def _boards(draft: DraftRound) -> list[Board]:
    boards: list[Board] = [(b.side0, b.side1) for b in draft.boards]
    if draft.bye is not None:
        boards.append((draft.bye.entrant, None))
    return boards


def _key(a: int, b: int | None) -> tuple[int, int | None]:
    if b is None:
        return (a, None)
    return (a, b) if a < b else (b, a)


def round_robin_replan(
    entrants: Sequence[int],
    history: History,
    rounds_remaining: int,
    *,
    cycles: int = 1,
    next_round: int | None = None,
    exact_limit: int = EXACT_LIMIT,
    search_budget: int = SEARCH_BUDGET,
) -> Replan:
    """The remaining ``rounds_remaining`` rounds of a round robin for the entrants present.

    ``entrants``: the ids present now, in seed order (the Berger seats). ``history``: every round
    played or published so far, withdrawn entrants included (their boards are ignored).
    ``next_round``: the number of the first round to plan (default: one after the history's last).
    ``cycles``: 2 for a double round robin. Fields up to ``exact_limit`` entrants get an exact
    verdict (at most ``search_budget`` matchings tried per cycle). See the module docstring.
    """
    ids = list(entrants)
    check_unique_ids(ids)
    if len(ids) < 2:
        raise PairingError("field_too_small", "a round robin needs at least two entrants")
    if cycles < 1:
        raise PairingError("bad_cycles", "a round robin has at least one cycle")
    if rounds_remaining < 0:
        raise PairingError("bad_round", "rounds remaining cannot be negative")
    first = history.rounds_played + 1 if next_round is None else next_round
    if first < 1:
        raise PairingError("bad_round", "rounds are numbered from 1")
    last = first + rounds_remaining - 1
    cyc = _Cycles(cycles, max(1, ceil(last / cycles)))
    if rounds_remaining == 0:
        return Replan(
            ReplanVerdict.COMPLETE,
            (),
            "nothing_left",
            "no round left to pair",
            cyc.length,
            unmet=_unmet(ids, _Meetings(ids, history), cycles),
        )
    numbers = list(range(first, last + 1))

    # The Berger tables first: an unchanged field keeps its published schedule.
    if last <= round_robin_rounds(ids, cycles=cycles):
        berger = tuple(round_robin_round(ids, t, cycles=cycles) for t in numbers)
        plan = [_boards(r) for r in berger]
        if not _check(ids, history, plan, numbers, cyc):
            return Replan(
                ReplanVerdict.COMPLETE,
                berger,
                "berger",
                "the Berger tables still give every remaining round without a rematch",
                cyc.length,
                unmet=_unmet(ids, _after(ids, history, plan, numbers), cycles),
            )

    # Then each cycle's question for the feasibility decision.
    by_cycle: dict[int, list[int]] = {}
    for t in numbers:
        by_cycle.setdefault(cyc.of(t), []).append(t)
    witness: list[list[Board]] = []  # the cycles before the first one without a proof
    methods: list[str] = []
    failed: RematchOutlook | None = None
    failed_cycle = 0
    bound = 0
    for k, rounds_k in by_cycle.items():
        adj = _unmet_graph(ids, history, meetings=k, since=cyc.start(k))
        decision = _decide(adj, len(rounds_k), ids, exact_limit=exact_limit, search_budget=search_budget)
        if decision.status in (Outlook.GUARANTEED, Outlook.POSSIBLE):
            if failed is None:
                found = decision.schedule or _schedule(_greedy(adj, len(rounds_k)), ids)
                witness.extend(list(r) for r in found)
                methods.append(decision.method)
            continue
        deficit = sum(max(0, len(rounds_k) - a.bit_count()) for a in adj)
        proven = decision.status is Outlook.IMPOSSIBLE
        bound += max((deficit + 1) // 2, 1 if proven else 0)
        if failed is None or (proven and failed.status is not Outlook.IMPOSSIBLE):
            failed, failed_cycle = decision, k
    if failed is None:
        method = "exact_search" if "exact_search" in methods else "dirac"
        text = ("a search found" if method == "exact_search" else "Dirac's bound guarantees") + (
            f" a schedule of the {rounds_remaining} remaining rounds without a rematch"
        )
        return _answer(ids, history, witness, numbers, cyc, ReplanVerdict.COMPLETE, method, text, 0)

    # No proof of a complete schedule: the heuristic plans from the first cycle without one.
    decision = failed
    plan = _heuristic(ids, history, witness, numbers, cyc, bound)
    if not _check(ids, history, plan, numbers, cyc):
        return _answer(
            ids,
            history,
            plan,
            numbers,
            cyc,
            ReplanVerdict.COMPLETE,
            "heuristic",
            f"a heuristic found a schedule of the {rounds_remaining} remaining rounds without a "
            f"rematch ({decision.reason})",
            0,
        )
    if decision.status is Outlook.IMPOSSIBLE:
        cycle = f" in cycle {failed_cycle}" if cycles > 1 else ""
        return _answer(
            ids,
            history,
            plan,
            numbers,
            cyc,
            ReplanVerdict.IMPOSSIBLE,
            decision.method,
            f"no schedule without a rematch exists{cycle}: {decision.reason}",
            bound,
        )
    return _answer(
        ids,
        history,
        plan,
        numbers,
        cyc,
        ReplanVerdict.UNKNOWN,
        decision.method,
        f"unknown whether a schedule without a rematch exists ({decision.reason}); this one is a heuristic's",
        bound,
    )


def _after(
    ids: Sequence[int], history: History, plan: Sequence[Sequence[Board]], numbers: Sequence[int]
) -> _Meetings:
    met = _Meetings(ids, history)
    for t, boards in zip(numbers, plan, strict=True):
        for a, b in boards:
            met.add(a, b, t)
    return met


def _check(
    ids: Sequence[int],
    history: History,
    plan: Sequence[Sequence[Board]],
    numbers: Sequence[int],
    cyc: _Cycles,
) -> list[PlannedRematch]:
    """Every board of ``plan`` that breaks the cycle rule."""
    met = _Meetings(ids, history)
    found: list[PlannedRematch] = []
    for t, boards in zip(numbers, plan, strict=True):
        for a, b in boards:
            if met.breaks_rule(a, b, t, cyc):
                earlier = met.earlier(a, b)
                found.append(PlannedRematch(t, a, b, len(earlier) + 1, tuple(earlier)))
        for a, b in boards:
            met.add(a, b, t)
    return found


def _unmet(ids: Sequence[int], met: _Meetings, cycles: int) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if len(met.earlier(a, b)) < cycles)


def _heuristic(
    ids: Sequence[int],
    history: History,
    kept: list[list[Board]],
    numbers: Sequence[int],
    cyc: _Cycles,
    bound: int,
) -> list[list[Board]]:
    """``kept`` rounds, then each later round a perfect matching with the fewest breaks of the cycle
    rule (a third meeting dearer than a second), random among equals; the best of a few tries (it
    stops early at ``bound``, the lower bound)."""
    n = len(ids)
    size = n + n % 2
    tries = max(2, min(24, 6000 // (size * size * max(1, len(numbers)))))
    rng = random.Random(size * 1_000_003 + len(numbers))
    best: tuple[int, int, list[list[Board]]] | None = None
    for _ in range(tries):
        met = _after(ids, history, kept, numbers[: len(kept)])
        plan = [list(r) for r in kept]
        breaks = cost = 0
        for t in numbers[len(kept) :]:
            graph: rx.PyGraph[None, int] = rx.PyGraph()
            graph.add_nodes_from([None] * size)
            edges = []
            for i in range(size):
                for j in range(i + 1, size):
                    a, b = ids[i], ids[j] if j < n else None
                    penalty = 0
                    if met.breaks_rule(a, b, t, cyc):
                        penalty = 1 + len(met.earlier(a, b))
                    edges.append((i, j, (100 - penalty) * 1000 + rng.randrange(1000)))
            graph.add_edges_from(edges)
            matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
            boards: list[Board] = []
            for i, j in matching:
                i, j = min(i, j), max(i, j)
                a, b = ids[i], ids[j] if j < n else None
                if met.breaks_rule(a, b, t, cyc):
                    breaks += 1
                    cost += len(met.earlier(a, b)) ** 2
                boards.append((a, b))
            for a, b in boards:
                met.add(a, b, t)
            plan.append(boards)
        if best is None or (breaks, cost) < best[:2]:
            best = (breaks, cost, plan)
        if breaks <= bound:
            break
    assert best is not None
    return best[2]


def _answer(
    ids: Sequence[int],
    history: History,
    plan: Sequence[Sequence[Board]],
    numbers: Sequence[int],
    cyc: _Cycles,
    verdict: ReplanVerdict,
    method: str,
    reason: str,
    bound: int,
) -> Replan:
    rematches = _check(ids, history, plan, numbers, cyc)
    rounds = _drafts(ids, history, plan, numbers, cyc, verdict, method)
    return Replan(
        verdict,
        rounds,
        method,
        reason,
        cyc.length,
        tuple(rematches),
        max(bound, 0),
        _unmet(ids, _after(ids, history, plan, numbers), cyc.cycles),
    )


def _drafts(
    ids: Sequence[int],
    history: History,
    plan: Sequence[Sequence[Board]],
    numbers: Sequence[int],
    cyc: _Cycles,
    verdict: ReplanVerdict,
    method: str,
) -> tuple[DraftRound, ...]:
    """The planned rounds as drafts: tables by the better seed on the board, sides balanced
    (side 0 to who sat there less often, then to who sat on side 1 last, then to the better seed)."""
    seed = {e: i for i, e in enumerate(ids)}
    balance = {e: history.side_balance(e) for e in ids}
    last_side = {e: history.last_side(e) for e in ids}
    met = _Meetings(ids, history)
    note = f"re-planned for the entrants present ({verdict.value}, {method})"
    out: list[DraftRound] = []
    for t, boards in zip(numbers, plan, strict=True):
        k = cyc.of(t)
        where = f"Re-planned round {t}" + (f", cycle {k}" if cyc.cycles > 1 else "")
        drafts: list[tuple[int, int, str, int]] = []
        bye: DraftBye | None = None
        warnings: list[PairingWarning] = []
        for a, b in sorted(
            boards, key=lambda x: min(seed[x[0]], seed[x[1]] if x[1] is not None else len(ids))
        ):
            earlier = met.earlier(a, b)
            broken = met.breaks_rule(a, b, t, cyc)
            if b is None:
                if broken:
                    text = f"{where}: bye again (had one in round {', '.join(map(str, earlier))})"
                    warnings.append(PairingWarning("repeat_bye", f"entrant {a} has another bye", (a,)))
                else:
                    text = f"{where}: bye" + (" (the first of this cycle)" if earlier else "")
                bye = DraftBye(a, text)
                continue
            if broken:
                rounds = ", ".join(map(str, earlier))
                text = f"{where}: rematch (met in round {rounds})"
                warnings.append(
                    PairingWarning("rematch", f"entrants {a} and {b} meet again (round {rounds})", (a, b))
                )
            else:
                text = f"{where}: " + ("first meeting" if not earlier else f"meeting {len(earlier) + 1}")
            s0, s1 = _sides(a, b, balance, last_side, seed)
            drafts.append((s0, s1, text, len(earlier)))
        for a, b in boards:
            met.add(a, b, t)
        out.append(
            DraftRound(
                round_number=t,
                boards=tuple(
                    DraftBoard(table=i, side0=s0, side1=s1, explanation=text, times_met=times)
                    for i, (s0, s1, text, times) in enumerate(drafts, start=1)
                ),
                bye=bye,
                warnings=tuple(warnings),
                notes=(note,),
            )
        )
    return tuple(out)


def _sides(
    a: int, b: int, balance: dict[int, int], last_side: dict[int, int | None], seed: dict[int, int]
) -> tuple[int, int]:
    def key(e: int) -> tuple[int, int, int]:
        return (balance[e], 0 if last_side[e] == 1 else 1, seed[e])

    s0, s1 = (a, b) if key(a) <= key(b) else (b, a)
    balance[s0] += 1
    balance[s1] -= 1
    last_side[s0], last_side[s1] = 0, 1
    return s0, s1
