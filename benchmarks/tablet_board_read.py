"""The tablet's board poll: a full read (``GET /api/v1/tablet/board/``, 200 with the board state) against a
conditional one (the same request with the last ETag in If-None-Match: 304, no state built), on the same
board in the same run.

    .venv/bin/python benchmarks/tablet_board_read.py                 # 400 reads of each, 5 rounds
    .venv/bin/python benchmarks/tablet_board_read.py --reads 1000 --rounds 7

A throw-away SQLite database in a temporary folder (the test settings, migrated), one event with a board at
table 1 holding a finished game and a game in play (``--hands`` hands in it), and the table's tablet paired.
Django's test client sends the requests in this process, so the figures are the server's work for one
request (URL routing, the device's authentication, the view, the queries, the rendering), without a network
or a WSGI server. Each round times ``--reads`` full reads then ``--reads`` conditional ones and keeps the CPU
time per request (``time.process_time``); the medians of the rounds are printed with the ratio, the full
read being 1.00x. docs/pages.md ("The board poll") keeps the last figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup(folder: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/tablet-board-read.sqlite3"
    os.environ.pop("REDIS_URL", None)  # a private local-memory cache: nothing shared with a running server
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host and the local-memory mail
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)  # the eager publishing tasks' lines
    call_command("migrate", verbosity=0)


def build(hands_in_play: int) -> tuple[int, str]:
    """A board at table 1 with game 1 finished and ``hands_in_play`` hands of game 2; the tablet's token."""
    from tests.tournaments.factories import current_game, make_board, submit, tally, win_game
    from tournaments.services.devices import device_pair, pairing_code_create

    board = make_board()
    win_game(board, 0)
    for i in range(hands_in_play):  # the sides take a hand in turn: nobody reaches the target
        submit(board, tally(current_game(board).next_dealer, to=i % 2))
    _, code = pairing_code_create(tournament=board.round.tournament, table=board.table, user=None)
    _, token = device_pair(code=code, label="bench")
    return board.pk, token


def timed(client: Any, headers: dict[str, str], reads: int, expect: int) -> float:
    """CPU seconds per request over ``reads`` requests, each answering ``expect``."""
    start = time.process_time()
    for _ in range(reads):
        response = client.get("/api/v1/tablet/board/", **headers)
        if response.status_code != expect:
            raise SystemExit(f"expected {expect}, got {response.status_code}: {response.content[:300]!r}")
    return (time.process_time() - start) / reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=3, help="hands of the game in play (besides game 1's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hangjack-board-read-") as folder:
        setup(folder)
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
        board_id, token = build(args.hands)
        client = Client()
        auth = {"HTTP_AUTHORIZATION": f"Device {token}"}
        first = client.get("/api/v1/tablet/board/", **auth)
        assert first.status_code == 200 and first.json()["board"] == board_id, first.content[:300]
        etag = first["ETag"]
        conditional = {**auth, "HTTP_IF_NONE_MATCH": etag}
        with CaptureQueriesContext(connection) as q_full:
            client.get("/api/v1/tablet/board/", **auth)
        full_queries = len(q_full.captured_queries)
        with CaptureQueriesContext(connection) as q_304:
            client.get("/api/v1/tablet/board/", **conditional)
        cond_queries = len(q_304.captured_queries)
        fulls, cond = [], []
        for _ in range(args.rounds):
            fulls.append(timed(client, auth, args.reads, 200))
            cond.append(timed(client, conditional, args.reads, 304))
        full_ms, cond_ms = statistics.median(fulls) * 1000, statistics.median(cond) * 1000
        print(f"board {board_id}: game 1 finished ({len(first.json()['games'])} games), {args.hands} hands in play; "
              f"body {len(first.content)} bytes")
        print(f"{'read':<28}{'CPU per request (ms)':>22}{'queries':>9}{'ratio':>8}")
        print(f"{'full (200, state built)':<28}{full_ms:>22.2f}{full_queries:>9}{1:>8.2f}x")
        print(f"{'If-None-Match (304)':<28}{cond_ms:>22.2f}{cond_queries:>9}{cond_ms / full_ms:>8.2f}x")
        print(f"rounds: full {', '.join(f'{x * 1000:.2f}' for x in fulls)}; "
              f"304 {', '.join(f'{x * 1000:.2f}' for x in cond)} (ms)")


if __name__ == "__main__":
    main()
