"""Hands per second through ``hand_submit`` versus a bare INSERT of the same JSON row, in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hangjack .venv/bin/python benchmarks/submit.py [--hands N]

Builds a throw-away test database (``test_<name>``, migrated, dropped at the end), seats boards and feeds
them whole games from the engine's seeded simulator (tally form, ``trinidad-tournament``). Three timings,
each hand its own committed transaction, on the same connection:

- ``bare``: ``INSERT`` of the hand's row (record as JSON, events, score...) into a table shaped like
  ``tournaments_hand`` without constraints, in autocommit: the floor for storing a hand durably;
- ``hand_submit``: the service (lock the game, check numbers, score with the engine, insert, update the
  game, audit; at a game's end derive the board and open the next game, outbox row published on commit);
- ``idempotent``: the same through ``idempotent_call``, as the tablet API calls it (+ the key's record).

The three run interleaved in batches (so they share the machine's load); prints hands/s, the overall
ratio to ``bare`` and the median batch ratio (the aim: hand_submit at most 3x slower), this process's CPU per
hand, and the statements a hand costs (counted on 200 more hands after the timing, BEGIN and COMMIT
included, mid-game and at a game's end). Without REDIS_URL the
outbox publishes in-process (Celery eager: the standings task runs inline at each game's end); with it,
publishing is one push to Redis (into a queue of the benchmark's own, deleted at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# With REDIS_URL the outbox publishes to Redis as deployed (the test settings run tasks in-process).
os.environ.setdefault("HANGJACK_CELERY_EAGER", "0" if os.environ.get("REDIS_URL") else "1")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from scoring.simulate import simulate_game  # noqa: E402


def build(boards: int):  # noqa: ANN201
    from tests.tournaments.factories import make_device, make_entries, make_round, make_tournament, seat
    from tournaments.models import Board

    tournament = make_tournament(match_format={"kind": "games", "n": 99})  # boards never decide
    entries = make_entries(tournament, boards * 2)
    round_ = make_round(tournament, [(entries[i], entries[i + 1]) for i in range(0, len(entries), 2)])
    out = []
    for board in Board.objects.filter(round=round_).order_by("table"):
        board = seat(board, 0)
        out.append((Board.objects.get(pk=board.pk), make_device(board)))
    return out


class Feeder:
    """Hands for one board, game after game, each simulated from the board's score and dealer.

    The board's state is read once; after that the simulator's own ``next_dealer`` says who deals first
    in the next game (as the service does), so feeding costs no query inside the timed loop.
    """

    def __init__(self, board, seed: int) -> None:  # noqa: ANN001
        from tournaments.models import Game

        game = Game.objects.exclude(status="voided").filter(board=board).order_by("-number").first()
        self.board, self.seed = board, seed
        self.game_number, self.hand_number = game.number, game.hands.filter(status="active").count()
        self.score, self.dealer = list(game.score), game.next_dealer
        self.queue: list = []

    def next(self) -> tuple[int, int, dict]:
        if not self.queue:
            self.seed += 1
            self.queue = list(simulate_game("trinidad-tournament", seed=self.seed, score=self.score,
                                            first_dealer=self.dealer, misdeal_rate=0.02, renege_rate=0.02).hands)
        hand = self.queue.pop(0)
        self.hand_number += 1
        out = (self.game_number, self.hand_number, hand.tally)
        if hand.winner is not None:
            self.game_number, self.hand_number, self.score = self.game_number + 1, 0, [0, 0]
        else:
            self.score = list(hand.score)
        self.dealer = hand.next_dealer
        return out


#: CPU seconds of this process in the last timed call (the database server's work is not in it).
CPU: dict[str, float] = {"last": 0.0}


def time_hand_submit(boards, feeders, hands: int, *, idempotent: bool, key_prefix: str) -> float:  # noqa: ANN001
    from tournaments.selectors import hand_data
    from tournaments.services import hand_submit, idempotent_call

    work = []
    for i in range(hands):
        k = i % len(boards)
        work.append((boards[k], feeders[k].next()))
    CPU["last"] = time.process_time()
    start = time.perf_counter()
    for i, ((board, device), (game_number, hand_number, record)) in enumerate(work):
        if idempotent:
            def call(board=board, device=device, g=game_number, h=hand_number, r=record):  # noqa: ANN001, ANN202
                return 201, {"hand": hand_data(hand_submit(board=board, game_number=g, hand_number=h, record=r,
                                                           device=device))}
            idempotent_call(device=device, key=f"{key_prefix}-{i}", method="POST", path=f"/boards/{board.pk}/hands",
                            body={"game": game_number, "hand": hand_number, "record": record}, call=call)
        else:
            hand_submit(board=board, game_number=game_number, hand_number=hand_number, record=record, device=device)
    CPU["last"] = time.process_time() - CPU["last"]
    return time.perf_counter() - start


def count_statements(boards, feeders, hands: int) -> tuple[float, float, float]:  # noqa: ANN001
    """Statements sent per hand (BEGIN and COMMIT included): mid-game, at a game's end, and the share of hands
    that end a game. Not timed (capturing queries costs time of its own)."""
    from django.test.utils import CaptureQueriesContext

    from tournaments.services import hand_submit

    counts: dict[bool, list[int]] = {False: [], True: []}
    for i in range(hands):
        k = i % len(boards)
        (board, device), (game_number, hand_number, record) = boards[k], feeders[k].next()
        with CaptureQueriesContext(connection) as queries:
            hand = hand_submit(board=board, game_number=game_number, hand_number=hand_number, record=record,
                               device=device)
        counts[hand.winner is not None].append(len(queries.captured_queries))
    mid, end = counts[False], counts[True]
    return (sum(mid) / max(len(mid), 1), sum(end) / max(len(end), 1), len(end) / hands)


def time_bare(rows: list[tuple[int, dict, list, list]]) -> float:
    sql = ("INSERT INTO bench_bare_hand (game_id, number, record, form, dealer, events, trump, score_after, winner,"
           " next_dealer, version, status, created_at) VALUES (%s, %s, %s, 'tally', %s, %s, 'S', %s, NULL, %s, 1,"
           " 'active', now())")
    CPU["last"] = time.process_time()
    start = time.perf_counter()
    with connection.cursor() as cursor:  # autocommit: every INSERT is committed on its own
        for number, record, events, score in rows:
            cursor.execute(sql, [1, number, json.dumps(record), record.get("dealer", 0), json.dumps(events),
                                 json.dumps(score), 0])
    CPU["last"] = time.process_time() - CPU["last"]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("benchmarks/submit.py measures PostgreSQL: set DATABASE_URL=postgres://...")
    bench_queue = f"hangjack-bench-{os.getpid()}"
    if os.environ.get("REDIS_URL"):  # publish into a queue of our own, deleted at the end
        from config.celery import app

        app.conf.task_default_queue = bench_queue
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        boards = build(args.boards)
        feeders = [Feeder(board, 1000 * i) for i, (board, _) in enumerate(boards)]
        time_hand_submit(boards, feeders, 200, idempotent=False, key_prefix="warm")  # imports, caches, plans
        from tournaments.models import Hand

        sample = list(Hand.objects.order_by("id").values_list("number", "record", "events", "score_after")[:200])
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE bench_bare_hand (LIKE tournaments_hand INCLUDING DEFAULTS)")
            cursor.execute("ALTER TABLE bench_bare_hand ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY")
        time_bare(sample)
        # Interleave small batches so that the three share the machine's conditions (load, cache, WAL).
        totals = {"bare": 0.0, "service": 0.0, "idempotent": 0.0}
        cpu = {"bare": 0.0, "service": 0.0, "idempotent": 0.0}
        ratios: list[tuple[float, float]] = []
        batch, done = args.batch, 0
        while done < args.hands:
            n = min(batch, args.hands - done)
            rows = [sample[(done + i) % len(sample)] for i in range(n)]
            bare = time_bare(rows)
            cpu["bare"] += CPU["last"]
            service = time_hand_submit(boards, feeders, n, idempotent=False, key_prefix=f"s{done}")
            cpu["service"] += CPU["last"]
            idem = time_hand_submit(boards, feeders, n, idempotent=True, key_prefix=f"i{done}")
            cpu["idempotent"] += CPU["last"]
            totals["bare"] += bare
            totals["service"] += service
            totals["idempotent"] += idem
            ratios.append((service / bare, idem / bare))
            done += n
        mode = "Redis broker" if os.environ.get("REDIS_URL") else "Celery eager (no REDIS_URL)"
        median = statistics.median(r[0] for r in ratios)
        median_idem = statistics.median(r[1] for r in ratios)
        hands = args.hands
        print(f"PostgreSQL {connection.pg_version}, {hands} hands each over {args.boards} boards, "
              f"batches of {batch}, outbox: {mode}, load average {os.getloadavg()[0]:.1f}")
        def ms(key: str) -> str:
            return f"{totals[key] / hands * 1e3:6.2f} ms wall, {cpu[key] / hands * 1e3:5.2f} ms CPU per hand"

        print(f"bare INSERT (autocommit)   {hands / totals['bare']:8.0f} hands/s   1.00x   {ms('bare')}")
        print(f"hand_submit                {hands / totals['service']:8.0f} hands/s   "
              f"{totals['service'] / totals['bare']:.2f}x (median batch {median:.2f}x)   {ms('service')}")
        print(f"idempotent_call+submit     {hands / totals['idempotent']:8.0f} hands/s   "
              f"{totals['idempotent'] / totals['bare']:.2f}x (median batch {median_idem:.2f}x)   {ms('idempotent')}")
        mid, end, share = count_statements(boards, feeders, 200)
        print(f"hand_submit statements     {mid:.1f} mid-game, {end:.1f} at a game's end (one hand in "
              f"{1 / share if share else float('inf'):.1f}), BEGIN and COMMIT included; bare INSERT: 1")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if os.environ.get("REDIS_URL"):
            import redis

            redis.Redis.from_url(os.environ["REDIS_URL"]).delete(
                bench_queue, f"_kombu.binding.{bench_queue}", f"_kombu.binding_permanent.{bench_queue}")


if __name__ == "__main__":
    main()
