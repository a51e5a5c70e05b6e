"""Benchmark the pure pairing and ranking core; prints figures measured in one run.

    .venv/bin/python benchmarks/pairing.py [--pairs 1000] [--rounds 5] [--seed 1]

* A Swiss round for 1,000 pairs, end to end (plain history rows -> ``History`` -> ``pair_swiss`` ->
  ``DraftRound``), against a bare ``rustworkx.max_weight_matching`` on the very graph the pairing
  built, in the same run. Shown for round 1 (one score group of everyone) and for a mid-event round
  after ``--rounds`` rounds of random results; the mid-event graph is also matched on the complete
  graph once, to show what the candidate graph saves.
* Standings for 500 pairs over 10 rounds (``compute_standings`` from 2,500 board results and the
  byes).

Targets (issue 4): under 1 s for each.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rustworkx as rx  # noqa: E402

from tournaments.pairing import (  # noqa: E402
    DraftRound,
    Entrant,
    History,
    LookAhead,
    PastBoard,
    PastBye,
    PastFloat,
    SwissConfig,
    pair_swiss,
    round_floats,
    swiss_lookahead,
)
from tournaments.pairing.swiss import match, swiss_graph  # noqa: E402
from tournaments.ranking import BoardResult, ByeRecord, compute_standings  # noqa: E402

T = TypeVar("T")


class Timing:
    """Median wall-clock and CPU seconds of repeated calls (CPU time is what a busy shared machine
    does not inflate; the work is single-threaded)."""

    def __init__(self, wall: float, cpu: float) -> None:
        self.wall, self.cpu = wall, cpu

    def __str__(self) -> str:
        return f"{self.wall * 1000:8.1f} ms wall, {self.cpu * 1000:8.1f} ms CPU"


def timed(fn: Callable[[], T], repeat: int) -> tuple[Timing, T]:
    """Median times of ``repeat`` calls, and the last result."""
    walls, cpus = [], []
    result = fn()  # warm-up, not timed
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return Timing(statistics.median(walls), statistics.median(cpus)), result


def random_board(rng: random.Random, r: int, a: int, b: int) -> BoardResult:
    """A decided first-to-2 board with chalks and the odd hang jack."""
    wins, chalks, hang = [0, 0], [0, 0], [0, 0]
    while max(wins) < 2:
        w = rng.randrange(2)
        wins[w] += 1
        chalks[w] += 14
        chalks[1 - w] += rng.randrange(14)
        if rng.random() < 0.3:
            hang[rng.randrange(2)] += 1
    return BoardResult(r, a, b, (wins[0], wins[1]), (chalks[0], chalks[1]), (hang[0], hang[1]), True)


def play(
    n: int, rounds: int, seed: int, clubs: int
) -> tuple[list[Entrant], list[PastBoard], list[PastBye], list[BoardResult], list[PastFloat]]:
    """``rounds`` Swiss rounds of ``n`` pairs with random results, paired by the engine itself (with
    each round's floats recorded, so the float rule is in play)."""
    rng = random.Random(seed)
    field = [Entrant(i + 1, rng.randrange(clubs)) for i in range(n)]
    past: list[PastBoard] = []
    byes: list[PastBye] = []
    floats: list[PastFloat] = []
    results: list[BoardResult] = []
    for r in range(1, rounds + 1):
        ranked = ranked_field(field, results, byes)
        history = History(boards=tuple(past), byes=tuple(byes), floats=tuple(floats))
        draft = pair_swiss(ranked, history, round_number=r)
        floats.extend(round_floats(draft, ranked))
        for board in draft.boards:
            past.append(PastBoard(r, board.side0, board.side1))
            results.append(random_board(rng, r, board.side0, board.side1))
        if draft.bye:
            byes.append(PastBye(r, draft.bye.entrant))
    return field, past, byes, results, floats


def ranked_field(field: list[Entrant], results: list[BoardResult], byes: list[PastBye]) -> list[Entrant]:
    club = {e.id: e.club_id for e in field}
    standings = compute_standings(
        [e.id for e in field], results, [ByeRecord(b.round_number, b.entrant) for b in byes]
    )
    return [
        Entrant(row.entrant_id, club[row.entrant_id], row.match_points, row.record) for row in standings.rows
    ]


def swiss_case(
    label: str,
    ranked: list[Entrant],
    past: list[PastBoard],
    byes: list[PastBye],
    round_number: int,
    repeat: int,
    complete_too: bool,
    floats: list[PastFloat] | None = None,
) -> None:
    config = SwissConfig()
    floated = tuple(floats or ())

    def end_to_end() -> DraftRound:
        history = History(boards=tuple(past), byes=tuple(byes), floats=floated)
        return pair_swiss(ranked, history, round_number=round_number, config=config)

    def look_ahead() -> LookAhead:
        history = History(boards=tuple(past), byes=tuple(byes), floats=floated)
        return swiss_lookahead(ranked, history, round_number, 3, config)

    total, draft = timed(end_to_end, repeat)
    ahead, answer = timed(look_ahead, repeat)
    history = History(boards=tuple(past), byes=tuple(byes), floats=floated)
    build, sg = timed(lambda: swiss_graph(ranked, history, config), 1)
    bare, _ = timed(lambda: rx.max_weight_matching(sg.graph, max_cardinality=True, weight_fn=int), repeat)
    notes = "; ".join(draft.notes)
    print(f"Swiss, {len(ranked)} pairs, {label}:")
    print(f"  graph: {sg.graph.num_nodes()} vertices, {sg.graph.num_edges()} edges ({notes})")
    print(f"  end to end (History + pair_swiss):              {total}  (median of {repeat})")
    print(f"  bare rustworkx max_weight_matching, same graph: {bare}")
    print(f"  ratio end to end / bare: {total.wall / bare.wall:.2f}x wall, {total.cpu / bare.cpu:.2f}x CPU")
    print(f"  graph build alone (swiss_graph):                {build}")
    print(f"  swiss_lookahead, 3 rounds after ({answer.status}):  {ahead}")
    print(f"  cost: {draft.cost}")
    if complete_too:
        full = swiss_graph(ranked, history, config, complete=True)
        t_full, pairs = timed(lambda: match(full), 1)
        print(f"  for comparison, matching the complete graph ({full.graph.num_edges()} edges): {t_full}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before the mid-event round")
    parser.add_argument("--standings-pairs", type=int, default=500)
    parser.add_argument("--standings-rounds", type=int, default=10)
    parser.add_argument("--clubs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, rustworkx {version('rustworkx')}, {platform.machine()}, seed {args.seed}"
    )
    print()

    rng = random.Random(args.seed)
    field = [Entrant(i + 1, rng.randrange(args.clubs)) for i in range(args.pairs)]
    swiss_case("round 1 (one score group)", field, [], [], 1, args.repeat, complete_too=False)
    print()
    field, past, byes, results, floats = play(args.pairs, args.rounds, args.seed, args.clubs)
    ranked = ranked_field(field, results, byes)
    swiss_case(
        f"round {args.rounds + 1} (after {args.rounds} rounds of random results, floats recorded)",
        ranked,
        past,
        byes,
        args.rounds + 1,
        args.repeat,
        complete_too=True,
        floats=floats,
    )
    print()

    n, rounds = args.standings_pairs, args.standings_rounds
    boards: list[BoardResult] = []
    bye_records: list[ByeRecord] = []
    ids = list(range(1, n + 1))
    for r in range(1, rounds + 1):
        order = list(ids)
        rng.shuffle(order)
        if len(order) % 2:
            bye_records.append(ByeRecord(r, order.pop()))
        boards.extend(random_board(rng, r, order[i], order[i + 1]) for i in range(0, len(order), 2))
    repeat = max(args.repeat, 5)
    t_standings, standings = timed(lambda: compute_standings(ids, boards, bye_records), repeat)
    print(
        f"Standings, {n} pairs over {rounds} rounds ({len(boards)} boards, default tie-breaks incl. head-to-head and Buchholz):"
    )
    print(f"  compute_standings: {t_standings}  (median of {repeat})")
    top = standings.rows[0]
    print(f"  leader: pair {top.entrant_id}, {top.record}, {top.match_points} match points")


if __name__ == "__main__":
    main()
