"""The engine's speed: hands per second through ``scoring.score_game``, and its cost relative to
``json.loads`` of the same documents, measured in the same run.

    .venv/bin/python benchmarks/engine.py [--games 400] [--repeat 7] [--seed 1]

The corpus is whole games from the engine's seeded simulator (``scoring.simulate.simulate_game``) over
every preset and the 2- and 3-player English game, with a few reneges and misdeals, each game written
in both forms of docs/hand-format.md: the tally form and the play form (card by card). For each form it
times ``json.loads`` of every document's text and ``score_game`` of every parsed document (the best
CPU time of ``--repeat`` rounds each, interleaved so that both see the same machine load, the garbage
collector off while timing as in ``timeit``) and prints:

- hands/s through ``score_game`` (reading, checking and scoring every hand, and building the result
  document);
- the ratio score_game / json.loads: what scoring a document costs next to merely parsing its JSON.
  The aim: the tally form within 3x, the play form within 10x.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import score_game  # noqa: E402
from scoring.simulate import simulate_game  # noqa: E402

RULE_SETS: list[Any] = [
    "trinidad",
    "trinidad-tournament",
    "tobago",
    "english",
    "seven-up",
    {"preset": "english", "players": 2},
    {"preset": "english", "players": 3},
    {"preset": "trinidad", "undertrump": "forbidden", "low": "captured"},
]
AIMS = {"tally": 3.0, "play": 10.0}


def corpus(games: int, seed: int) -> dict[str, list[str]]:
    """``games`` simulated games, as JSON texts, per form."""
    texts: dict[str, list[str]] = {"tally": [], "play": []}
    for i in range(games):
        rules = RULE_SETS[i % len(RULE_SETS)]
        game = simulate_game(rules, seed=seed * 100_000 + i, first_dealer=i % 2, renege_rate=0.01,
                             misdeal_rate=0.02)
        for form, out in texts.items():
            out.append(json.dumps(game.document(form)))  # type: ignore[arg-type]
    return texts


def best_of(repeat: int, *jobs: Any) -> list[float]:
    """The best CPU time of each job over ``repeat`` interleaved rounds.

    As ``timeit`` does, the cyclic garbage collector is off while a job runs (it is run between jobs):
    otherwise its passes over everything alive (the whole parsed corpus) land at random on either
    side. CPU time of this process, not wall time, so that other work on the machine counts less.
    """
    best = [float("inf")] * len(jobs)
    for _ in range(repeat):
        for j, job in enumerate(jobs):
            gc.collect()
            gc.disable()
            try:
                start = time.process_time()
                job()
                best[j] = min(best[j], time.process_time() - start)
            finally:
                gc.enable()
    return best


def measure(texts: list[str], repeat: int) -> dict[str, float]:
    parsed = [json.loads(t) for t in texts]
    hands = sum(len(doc["hands"]) for doc in parsed)
    results = [score_game(doc) for doc in parsed]  # warm up (and every document must score)
    assert all(r["winner"] is not None for r in results)
    loads, scoring = best_of(
        repeat,
        lambda: [json.loads(t) for t in texts],
        lambda: [score_game(doc) for doc in parsed],
    )
    return {"hands": hands, "loads": loads, "score": scoring, "ratio": scoring / loads,
            "bytes": sum(len(t) for t in texts)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="simulated games per form (default 400)")
    parser.add_argument("--repeat", type=int, default=7, help="timing rounds, best kept (default 7)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    texts = corpus(args.games, args.seed)
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games per form, "
          f"best of {args.repeat}")
    print(f"{'form':6} {'hands':>7} {'KB':>7} {'json.loads':>13} {'score_game':>13} {'hands/s':>9} "
          f"{'ratio':>6}  {'aim':10} {'text to result':>14}")
    ok = True
    for form, form_texts in texts.items():
        m = measure(form_texts, args.repeat)
        per_hand = 1e6 / m["hands"]
        within = m["ratio"] <= AIMS[form]
        ok = ok and within
        print(f"{form:6} {m['hands']:7d} {m['bytes'] / 1024:7.0f} {m['loads'] * per_hand:10.2f} us "
              f"{m['score'] * per_hand:10.2f} us {m['hands'] / m['score']:9.0f} {m['ratio']:5.2f}x  "
              f"<= {AIMS[form]:2.0f}x {'ok' if within else 'MISSED':6} {1 + m['ratio']:13.2f}x")
    print("(times are per hand; ratio = score_game time / json.loads time of the same documents;")
    print(" text to result = json.loads + score_game, over json.loads alone)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
