"""Can the rounds after this one still be paired without rematches?

The question lives on the "not yet met" graph H: entrants are vertices, two are joined while they have
not met; an odd field adds a bye vertex joined to everyone without a bye (a second bye counts as a
rematch with the bye). r more rematch-free rounds exist exactly when H holds r edge-disjoint perfect
matchings. Each rematch-free round takes one edge from every vertex, so:

* some vertex of degree below r: **impossible** (it needs r new opponents and has fewer left);
* every degree at least N/2 + r - 1 (N vertices): **guaranteed**. After any r - 1 rematch-free
  rounds, whatever they were, every degree is still at least N/2, Dirac's theorem gives a Hamiltonian
  cycle and every other edge of it is a perfect matching, so the next round pairs too;
* otherwise fields of up to ``exact_limit`` entrants are settled by an exhaustive search (a witness
  schedule, or a proof that none exists); larger fields are **not guaranteed**, never "impossible"
  without a proof. The search prunes by the surplus test, checks for an r-regular spanning subgraph
  (Tutte's gadget) and restarts in random vertex orders before its exhaustive run.

``_decide`` takes that decision for ``rematch_outlook`` and for ``round_robin_replan`` (schedule.py),
one source of truth; ``EXACT_LIMIT`` is their shared limit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

import rustworkx as rx

from .types import History, PairingError, check_unique_ids

EXACT_LIMIT: Final = 16
"""Fields of up to this many entrants are settled by the exhaustive search, in ``rematch_outlook`` and
``round_robin_replan`` alike (docs/decisions.md, "The clock and closing")."""

SEARCH_BUDGET: Final = 200_000
"""The most perfect matchings one exhaustive search tries before it gives up without an answer."""

RESTARTS: Final = 24
"""Before searching in the given order, the search tries this many orders of the vertices (the given
one first, then random ones seeded by the graph) with a small share of the budget each: a search stuck
in one order often finishes at once in another (measured: 3.7 s down to 12 ms on a field of nine)."""

RESTART_BUDGET: Final = 400


class Outlook(StrEnum):
    """What the remaining rounds look like.

    ``guaranteed``: every rematch-free continuation can go on to the end (Dirac). ``possible``: a
    rematch-free schedule of all remaining rounds exists (found by search; the draft of each round
    must still choose well). ``not_guaranteed``: no proof either way. ``impossible``: proven that some
    later round needs a rematch.
    """

    GUARANTEED = "guaranteed"
    POSSIBLE = "possible"
    NOT_GUARANTEED = "not_guaranteed"
    IMPOSSIBLE = "impossible"


Schedule = tuple[tuple[tuple[int, int | None], ...], ...]
"""Rounds of boards ``(a, b)``; ``b`` is None for the bye."""


@dataclass(frozen=True, slots=True)
class RematchOutlook:
    """The answer of ``rematch_outlook``; ``schedule`` is a rematch-free witness when one was built."""

    status: Outlook
    rounds_remaining: int
    method: str
    reason: str
    schedule: Schedule = ()


class _BudgetSpent(Exception):
    pass


def _unmet_graph(
    ids: Sequence[int], history: History, meetings: int = 1, since: int | None = None
) -> list[int]:
    """Adjacency bitmasks of H; the bye vertex, if any, is the last one.

    Two entrants are joined while they have met fewer than ``meetings`` times and (with ``since``) not
    in round ``since`` or later; an entrant and the bye likewise, counting its byes. The defaults give
    the not-yet-met graph; a round robin's later cycles use the others (``schedule.py``).
    """
    n = len(ids)
    size = n + n % 2
    adj = [0] * size

    def joined(rounds: Sequence[int]) -> bool:
        return len(rounds) < meetings and (since is None or all(r < since for r in rounds))

    for i in range(n):
        for j in range(i + 1, n):
            if joined(history.rounds_met(ids[i], ids[j])):
                adj[i] |= 1 << j
                adj[j] |= 1 << i
    if n % 2:
        bye_rounds: dict[int, list[int]] = {}
        for bye in history.byes:
            bye_rounds.setdefault(bye.entrant, []).append(bye.round_number)
        for i in range(n):
            if joined(bye_rounds.get(ids[i], [])):
                adj[i] |= 1 << n
                adj[n] |= 1 << i
    return adj


def _has_perfect_matching(adj: list[int]) -> bool:
    size = len(adj)
    graph: rx.PyGraph[None, None] = rx.PyGraph()
    graph.add_nodes_from([None] * size)
    graph.add_edges_from_no_data([(i, j) for i in range(size) for j in range(i + 1, size) if adj[i] >> j & 1])
    return 2 * len(rx.max_weight_matching(graph, max_cardinality=True)) == size


def _perfect_matchings(adj: list[int], floor0: int) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``adj`` in which vertex 0's partner is above ``floor0``."""
    size = len(adj)
    full = (1 << size) - 1

    def extend(free: int, chosen: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
        if not free:
            yield list(chosen)
            return
        # The free vertex with the fewest free neighbours goes first (vertex 0 before all others).
        if free & 1:
            v = 0
        else:
            v, best = -1, size + 1
            rest = free
            while rest:
                low = rest & -rest
                u = low.bit_length() - 1
                count = (adj[u] & free).bit_count()
                if count < best:
                    v, best = u, count
                    if count <= 1:
                        break
                rest ^= low
        options = adj[v] & free & ~(1 << v)
        if v == 0:
            options &= ~((1 << (floor0 + 1)) - 1)
        while options:
            low = options & -options
            u = low.bit_length() - 1
            chosen.append((v, u))
            yield from extend(free & ~(1 << v) & ~low, chosen)
            chosen.pop()
            options ^= low

    yield from extend(full, [])


def _search(adj: list[int], rounds: int, budget: int) -> list[list[tuple[int, int]]] | None:
    """``rounds`` edge-disjoint perfect matchings of ``adj``, or None when there are none.

    The matchings are found in increasing order of vertex 0's partner (any solution can be so
    ordered); failed sub-problems are remembered. Raises _BudgetSpent past ``budget`` matchings.
    """
    size = len(adj)
    failed: set[tuple[tuple[int, ...], int, int]] = set()
    spent = 0

    def solve(adj: list[int], k: int, floor0: int) -> list[list[tuple[int, int]]] | None:
        nonlocal spent
        if k == 0:
            return []
        key = (tuple(adj), k, floor0)
        if key in failed:
            return None
        if _surplus_fails(adj, k):
            failed.add(key)
            return None
        if min(a.bit_count() for a in adj) >= size // 2 + k - 1:
            return _greedy(adj, k)
        if _has_perfect_matching(adj):
            for matching in _perfect_matchings(adj, floor0):
                spent += 1
                if spent > budget:
                    raise _BudgetSpent
                after = list(adj)
                for a, b in matching:
                    after[a] &= ~(1 << b)
                    after[b] &= ~(1 << a)
                if min(a.bit_count() for a in after) < k - 1:
                    continue
                partner0 = next(b if a == 0 else a for a, b in matching if 0 in (a, b))
                rest = solve(after, k - 1, partner0)
                if rest is not None:
                    return [matching, *rest]
        failed.add(key)
        return None

    return solve(adj, rounds, -1)


def _surplus_fails(adj: list[int], rounds: int) -> bool:
    """A quick proof that ``rounds`` disjoint perfect matchings do not exist: each takes one edge of
    every vertex, so the edges left unused give each vertex exactly its surplus (degree minus rounds),
    and they can only join two vertices that both have a surplus."""
    surplus = [a.bit_count() - rounds for a in adj]
    spare = sum(1 << v for v, s in enumerate(surplus) if s > 0)
    return any(s < 0 or s > (adj[v] & spare).bit_count() for v, s in enumerate(surplus))


def _has_regular_factor(adj: list[int], rounds: int) -> bool:
    """Whether ``adj`` has a spanning subgraph in which every vertex has degree ``rounds`` (what
    ``rounds`` disjoint perfect matchings make up), by Tutte's reduction to one perfect matching:
    a vertex of degree d becomes d copies, one per edge, and d - rounds spares joined to all of its
    copies; an edge joins the copies of its two ends."""
    graph: rx.PyGraph[None, None] = rx.PyGraph()
    copy: dict[tuple[int, int], int] = {}
    edges: list[tuple[int, int]] = []
    for v, a in enumerate(adj):
        degree = a.bit_count()
        if degree < rounds:
            return False
        copies = []
        for u in range(len(adj)):
            if a >> u & 1:
                copy[(v, u)] = graph.add_node(None)
                copies.append(copy[(v, u)])
        spares = graph.add_nodes_from([None] * (degree - rounds))
        edges.extend((c, x) for c in copies for x in spares)
    edges.extend((copy[(v, u)], copy[(u, v)]) for (v, u) in copy if v < u)
    graph.add_edges_from_no_data(edges)
    return 2 * len(rx.max_weight_matching(graph, max_cardinality=True)) == graph.num_nodes()


def _search_restarting(adj: list[int], rounds: int, budget: int) -> list[list[tuple[int, int]]] | None:
    """``_search`` with restarts (see ``RESTARTS``); the matchings of the failed tries count against
    ``budget``. A try that ends within its share is exhaustive, so its None is a proof too."""
    size = len(adj)
    rng = random.Random(hash((tuple(adj), rounds)))
    spent = 0
    factor_checked = False
    for attempt in range(RESTARTS):
        share = min(RESTART_BUDGET, budget - spent)
        if share <= 0:
            break
        if attempt == 1:  # the first order was not enough: one matching may prove there is nothing
            if not _has_regular_factor(adj, rounds):
                return None
            factor_checked = True
        order = list(range(size))  # order[v]: the vertex's number in this try
        if attempt:
            rng.shuffle(order)
        relabelled = [0] * size
        for v, a in enumerate(adj):
            relabelled[order[v]] = sum(1 << order[u] for u in range(size) if a >> u & 1)
        try:
            found = _search(relabelled, rounds, share)
        except _BudgetSpent:
            spent += share
            continue
        if found is None:
            return None
        back = {order[v]: v for v in range(size)}
        return [[(back[a], back[b]) for a, b in matching] for matching in found]
    if not factor_checked and not _has_regular_factor(adj, rounds):
        return None
    return _search(adj, rounds, budget - spent)


def _greedy(adj: list[int], rounds: int) -> list[list[tuple[int, int]]]:
    """Any ``rounds`` disjoint perfect matchings of a graph that meets Dirac's bound for them."""
    result = []
    adj = list(adj)
    for _ in range(rounds):
        matching = next(_perfect_matchings(adj, -1))
        for a, b in matching:
            adj[a] &= ~(1 << b)
            adj[b] &= ~(1 << a)
        result.append(matching)
    return result


def rematch_outlook(
    entrant_ids: Sequence[int],
    history: History,
    rounds_remaining: int,
    *,
    exact_limit: int = EXACT_LIMIT,
    search_budget: int = SEARCH_BUDGET,
) -> RematchOutlook:
    """Whether ``rounds_remaining`` more rounds can be paired without rematches.

    ``history`` holds every round so far, the one about to be published included (see
    ``DraftRound.as_past`` and ``History.extended``). Fields up to ``exact_limit`` entrants get an
    exhaustive search (at most ``search_budget`` matchings tried), larger ones the sufficient test.
    A round robin asks ``round_robin_replan`` (whose ``outlook`` is decided by the same ``_decide``).
    """
    check_unique_ids(list(entrant_ids))
    if rounds_remaining < 0:
        raise PairingError("bad_round", "rounds remaining cannot be negative")
    ids = list(entrant_ids)
    r = rounds_remaining
    if r == 0 or not ids:
        return RematchOutlook(Outlook.GUARANTEED, r, "nothing_left", "no round left to pair")
    return _decide(_unmet_graph(ids, history), r, ids, exact_limit=exact_limit, search_budget=search_budget)


def _decide(
    adj: list[int], r: int, ids: list[int], *, exact_limit: int, search_budget: int
) -> RematchOutlook:
    """The one decision behind ``rematch_outlook`` and ``round_robin_replan``: whether the graph
    ``adj`` (entrants ``ids``, then the bye vertex for an odd field) holds ``r`` (at least 1)
    edge-disjoint perfect matchings: the degree bound, Dirac's bound, then the exhaustive search
    for fields up to ``exact_limit`` entrants. A witness schedule comes with ``possible``."""
    size = len(adj)
    names = [*ids, None]
    degrees = [a.bit_count() for a in adj]
    low = min(range(size), key=lambda v: degrees[v])
    least = degrees[low]
    if least < r:
        who = f"entrant {names[low]}" if names[low] is not None else "the bye"
        left = "entrant" if least == 1 else "entrants"
        return RematchOutlook(
            Outlook.IMPOSSIBLE,
            r,
            "degree_bound",
            f"{who} has {least} {left} left to meet but {r} rounds to play",
        )
    need = size // 2 + r - 1
    if least >= need:
        return RematchOutlook(
            Outlook.GUARANTEED,
            r,
            "dirac",
            f"everyone has at least {least} unmet opponents, and {need} (half the field plus the rounds "
            "left, minus one) guarantee every remaining round whatever the results",
        )
    if len(ids) > exact_limit:
        return RematchOutlook(
            Outlook.NOT_GUARANTEED,
            r,
            "sufficient_test",
            f"the fewest unmet opponents is {least}, below the {need} that guarantee the remaining rounds",
        )
    try:
        found = _search_restarting(adj, r, search_budget)
    except _BudgetSpent:
        return RematchOutlook(
            Outlook.NOT_GUARANTEED,
            r,
            "search_budget",
            f"the search gave up after {search_budget} pairings without an answer",
        )
    if found is None:
        return RematchOutlook(
            Outlook.IMPOSSIBLE,
            r,
            "exact_search",
            f"an exhaustive search shows no {r} rematch-free rounds exist",
        )
    return RematchOutlook(
        Outlook.POSSIBLE,
        r,
        "exact_search",
        f"a rematch-free schedule of the {r} remaining rounds exists",
        _schedule(found, ids),
    )


def _schedule(found: list[list[tuple[int, int]]], ids: list[int]) -> Schedule:
    n = len(ids)
    rounds = []
    for matching in found:
        boards: list[tuple[int, int | None]] = []
        for a, b in matching:
            i, j = min(a, b), max(a, b)
            boards.append((ids[i], None if j == n else ids[j]))
        boards.sort(key=lambda board: (board[1] is None, board[0]))
        rounds.append(tuple(boards))
    return tuple(rounds)
