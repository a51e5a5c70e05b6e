"""Measure the public page cache: N GETs of a page through Django's test client, cache off vs on.

    .venv/bin/python -m tests.web.bench_public_cache [--pairs 100] [--requests 200]

Builds a published Swiss in a throw-away test database (SQLite in memory unless DATABASE_URL says
otherwise): round 1 closed with every board played to its end by the engine's simulator and confirmed,
a standings snapshot, round 2 in play with three hands on every board. Then, for each page, times
``--requests`` GETs with the cache off (every request renders: "cold") and with it on after one priming
request ("warm": every request is a hit), with and without ``If-None-Match``, and prints wall and CPU
time per request, queries per request and the ratio. The figures go in docs/pages.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, autoclobber=True)

    from django.core.cache import caches
    from django.test import Client
    from django.urls import reverse

    from tests.web.factories import finish_board, make_round, make_snapshot, make_tournament, play_game
    from tournaments.models import Round
    from tournaments.selectors.fingerprint import fingerprint

    started = time.perf_counter()
    t = make_tournament(pairs=args.pairs, name="Bench Open")
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, board in enumerate(r1.boards.exclude(pair_b=None), 1):
        finish_board(board, seed=i)
    make_snapshot(t, after_round=1)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    boards = list(r2.boards.exclude(pair_b=None))
    for i, board in enumerate(boards):
        play_game(board, 1, seed=1000 + i, hands=3)
    print(f"{args.pairs} pairs, {len(boards)} boards in play; built in {time.perf_counter() - started:.1f} s "
          f"({connection.vendor})")

    client = Client()
    pages = [
        ("standings fragment (live)", reverse("web:standings_live", args=[t.slug])),
        ("pairings fragment (live)", reverse("web:pairings_live", args=[t.slug, 2])),
        ("board scorecard (live)", reverse("web:board", args=[t.slug, boards[0].pk])),
        ("statistics (results)", reverse("web:stats", args=[t.slug])),
    ]

    def run(url: str, etag: str | None = None) -> tuple[float, float, float]:
        headers = {"If-None-Match": etag} if etag else {}
        wall: list[float] = []
        cpu0 = time.process_time()
        with CaptureQueriesContext(connection) as queries:
            for _ in range(args.requests):
                t0 = time.perf_counter()
                response = client.get(url, headers=headers)
                wall.append(time.perf_counter() - t0)
                assert response.status_code == (304 if etag else 200), response.status_code
        cpu = (time.process_time() - cpu0) / args.requests
        return statistics.mean(wall) * 1000, cpu * 1000, len(queries) / args.requests

    print(f"{args.requests} GETs each; ms per request (wall / CPU), queries per request")
    for label, url in pages:
        settings.HANGJACK_PUBLIC_CACHE = {"live": 0, "results": 0}
        etag = client.get(url)["ETag"]
        cold = run(url)
        cold_304 = run(url, etag)
        settings.HANGJACK_PUBLIC_CACHE = {"live": 3600, "results": 3600}  # no expiry during the run
        caches["default"].clear()
        client.get(url)  # prime
        warm = run(url)
        warm_304 = run(url, etag)
        print(f"  {label}: cold {cold[0]:.2f} / {cold[1]:.2f} ms, {cold[2]:.0f} q; "
              f"warm {warm[0]:.2f} / {warm[1]:.2f} ms, {warm[2]:.0f} q; ratio {cold[0] / warm[0]:.1f}x wall, "
              f"{cold[1] / warm[1]:.1f}x CPU")
        print(f"  {'':{len(label)}}  304s: cold {cold_304[0]:.2f} ms, warm {warm_304[0]:.2f} ms "
              f"({cold_304[0] / warm_304[0]:.1f}x)")
    t0 = time.perf_counter()
    for _ in range(args.requests):
        fingerprint(t.slug, tier="live")
    print(f"fingerprint query alone (live tier, tournament): {(time.perf_counter() - t0) * 1000 / args.requests:.2f} ms")


if __name__ == "__main__":
    main()
