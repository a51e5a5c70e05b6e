"""Published results (docs/adr/0013): what a spectator's read costs through Caddy, what a render costs, and
that published reads survive gunicorn and PostgreSQL going down.

    .venv/bin/python benchmarks/published_reads.py                   # reads + renders (100..1,000 pairs)
    .venv/bin/python benchmarks/published_reads.py --sizes 100,1000 --requests 4000
    .venv/bin/python benchmarks/published_reads.py --down-check      # gunicorn and PostgreSQL stopped

1. **Reads**: an event of ``--read-pairs`` pairs is published to a temporary folder; one Caddy (Debian's 2.6,
   ``publishing.caddy``: the production rules of docker/published.caddy) serves it and, under ``/_static/``,
   a plain file of the same size (and its gzip) with the same ``file_server``. Batches of ``--requests``
   GETs (``--concurrency`` keep-alive connections, ``Accept-Encoding: gzip`` as phones send) alternate
   between the two, in the same run; it prints requests per second, p50/p99 latency and Caddy's own CPU per
   request (from /proc), and the ratios published/static (the aim: at most 1.5x). The generator is Python
   (httpx): its own cost is in the latency of both targets alike, not in Caddy's CPU.
2. **Renders**: for each size in ``--sizes`` (pairs), an event with four closed rounds and one in play
   (bulk-inserted boards with results), then the median wall and CPU time of a change's render (the event's
   pages, the live round's pairings and one board: what a hand or a confirmation costs), of the results
   pages (statistics, clubs, club pages and one page per pair, at most every ``PUBLISH_RESULTS_SECONDS``:
   ten pair pages are rendered and the others counted at their average), and of one board's three pages (a
   full render is that times the boards, plus the rest); and the queries of one change's render (the
   per-render memo of ``tournaments.selectors.memo`` keeps them the same at any size). Start small:
   ``--skip-reads --sizes 100`` takes under a minute; ``--sizes 1000 --results-upto 500`` a few.
3. ``--down-check``: a private stack (benchmarks/load/stack.py: PostgreSQL, Redis, gunicorn, worker, beat),
   an event published through it, Caddy in front; gunicorn and PostgreSQL are stopped and the published
   pages still answer 200 (Django's own pages answer 502).

The database is a throw-away test database of the configured ``DATABASE_URL`` (SQLite by default).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROUNDS_CLOSED = 4


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()


def build(pairs: int, seed: int = 1) -> int:
    """A published tournament of ``pairs`` pairs in 8 clubs: four closed rounds and one in play."""
    from tests.tournaments.factories import make_tournament
    from tournaments.models import Board, Club, Entry, Pair, Player, Round, Tournament

    rng = random.Random(seed)
    tournament = make_tournament()
    clubs = [Club.objects.create(name=f"Club {tournament.pk}-{i}") for i in range(8)]
    players = Player.objects.bulk_create([Player(name=f"Player {i} of {tournament.pk}") for i in range(2 * pairs)])
    made = Pair.objects.bulk_create([Pair(player_1=players[2 * i], player_2=players[2 * i + 1], club=clubs[i % 8],
                                          seed=i + 1) for i in range(pairs)])
    ids = [e.pk for e in Entry.objects.bulk_create([Entry(tournament=tournament, pair=p, seed=p.seed) for p in made])]
    boards = []
    for number in range(1, ROUNDS_CLOSED + 2):
        live = number == ROUNDS_CLOSED + 1
        round_ = Round.objects.create(tournament=tournament, number=number, status="in_play" if live else "closed")
        order = ids[:]
        rng.shuffle(order)
        for t in range(0, pairs - 1, 2):
            winner = rng.randrange(2)
            bulls = [0, 0]
            bulls[winner], bulls[1 - winner] = 2, rng.randrange(2)
            chalks = [rng.randrange(14, 42), rng.randrange(14, 42)]
            done = not live or rng.random() < 0.3
            boards.append(Board(round=round_, table=t // 2 + 1, pair_a_id=order[t], pair_b_id=order[t + 1],
                                bullseyes_a=bulls[0] if done else 0, bullseyes_b=bulls[1] if done else 0,
                                chalks_a=chalks[0] if done else 0, chalks_b=chalks[1] if done else 0,
                                decided=done, winner=winner if done else None, all_confirmed=done))
    Board.objects.bulk_create(boards, batch_size=2000)
    Tournament.objects.filter(pk=tournament.pk).update(published=True, status="running")
    from tournaments.services.standings import tournament_standings_recompute

    tournament_standings_recompute(tournament_id=tournament.pk)
    return int(tournament.pk)


def timed(fn: Any, repeat: int) -> tuple[float, float]:
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


# ---- 2. renders ---------------------------------------------------------------------------------------------
def measure_renders(pairs: int, repeat: int, results_too: bool = True) -> dict[str, float]:
    from publishing import pages, publish
    from tournaments.models import Board, Tournament

    tournament_id = build(pairs, seed=pairs)
    tournament = Tournament.objects.get(pk=tournament_id)
    live_board = Board.objects.filter(round__tournament=tournament, round__status="in_play").order_by("id").first()
    assert live_board is not None
    publish.publish_full(tournament_id) if pairs <= 100 else None  # a first full render only where it is cheap

    def message() -> None:
        state = publish.load_state(tournament.slug)
        state["rendered_at"] = 0
        state["results_at"] = time.time()  # results not due: a change's own render
        publish.save_state(tournament.slug, state)
        publish.publish_event(tournament_id, {"boards": [live_board.pk]})

    addresses = publish._results_addresses(tournament)
    pair_pages = [a for a in addresses if "/pairs/" in a]
    sample = [a for a in addresses if "/pairs/" not in a] + pair_pages[:: max(1, len(pair_pages) // 10)][:10]

    def results() -> None:  # statistics, clubs, club pages and ten pair pages; the other pairs estimated
        publish.render_addresses(sample)

    def board() -> None:
        publish.render_addresses(pages.board_addresses(tournament.slug, live_board.pk))

    out: dict[str, float] = {"boards": float(Board.objects.filter(round__tournament=tournament).count())}
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:  # the change's queries (the same at any size)
        message()
    out["queries"] = float(len(queries))
    for name, fn, times in (("message", message, repeat), ("results", results, 1), ("board", board, repeat)):
        if name == "results" and not results_too:
            out[name] = out[f"{name}_cpu"] = float("nan")
            continue
        out[name], out[f"{name}_cpu"] = timed(fn, times)
    # the sample's ten pair pages stand for all of them
    one_pair = (out["results"] / len(sample), out["results_cpu"] / len(sample))
    extra = len(pair_pages) - min(10, len(pair_pages))
    out["results"] += extra * one_pair[0]
    out["results_cpu"] += extra * one_pair[1]
    return out


# ---- 1. reads -----------------------------------------------------------------------------------------------
async def _batch(url: str, requests: int, concurrency: int) -> list[float]:
    import httpx

    latencies: list[float] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, headers={"Accept-Encoding": "gzip"}, timeout=30) as client:
        queue = iter(range(requests))

        async def worker() -> None:
            for _ in queue:
                start = time.perf_counter()
                response = await client.get(url)
                latencies.append(time.perf_counter() - start)
                if response.status_code != 200:
                    raise RuntimeError(f"{url}: {response.status_code}")

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_reads(pairs: int, requests: int, concurrency: int, rounds: int) -> dict[str, dict[str, float]]:
    from django.conf import settings

    from publishing import files, publish
    from publishing.caddy import Caddy, free_port

    tournament_id = build(pairs, seed=7)
    publish.publish_full(tournament_id)
    from tournaments.models import Tournament

    slug = Tournament.objects.get(pk=tournament_id).slug
    address = f"/t/{slug}/standings/"
    page = files.file_for(address)
    static = Path(tempfile.mkdtemp(prefix="hangjack-static-"))
    # the yardstick: a plain file of the same bytes (so the same size, and the same gzip) beside no rules
    shutil.copyfile(page, static / "page.html")
    shutil.copyfile(page.with_name(page.name + ".gz"), static / "page.html.gz")
    targets = {"published": address, "static": "/_static/page.html"}
    samples: dict[str, list[float]] = {name: [] for name in targets}
    cpu: dict[str, float] = dict.fromkeys(targets, 0.0)
    wall: dict[str, float] = dict.fromkeys(targets, 0.0)
    with Caddy(root=Path(settings.PUBLISH_ROOT), upstream=f"127.0.0.1:{free_port()}", static_root=static) as caddy:
        for path in targets.values():  # warm up both
            asyncio.run(_batch(caddy.url + path, 200, concurrency))
        for _ in range(rounds):
            for name, path in targets.items():
                before, start = _cpu_of(caddy.pid()), time.perf_counter()
                samples[name] += asyncio.run(_batch(caddy.url + path, requests, concurrency))
                wall[name] += time.perf_counter() - start
                cpu[name] += _cpu_of(caddy.pid()) - before
    shutil.rmtree(static, ignore_errors=True)
    out: dict[str, dict[str, float]] = {}
    for name in targets:
        lat = sorted(samples[name])
        out[name] = {"rps": len(lat) / wall[name], "p50": lat[len(lat) // 2], "p99": lat[int(len(lat) * 0.99)],
                     "cpu_us": cpu[name] / len(lat) * 1e6, "bytes": float(page.stat().st_size),
                     "gz_bytes": float(page.with_name(page.name + ".gz").stat().st_size)}
    return out


# ---- 3. down check ------------------------------------------------------------------------------------------
def down_check() -> None:
    import httpx

    from benchmarks.load.stack import Stack, _stop_group
    from publishing.caddy import Caddy

    root = Path(tempfile.mkdtemp(prefix="hangjack-published-"))
    os.environ["PUBLISH_ROOT"] = str(root)
    with Stack(web_workers=1, worker_concurrency=1) as stack:
        stack.use_here()
        from publishing import publish

        tournament_id = build(40, seed=3)
        publish.publish_full(tournament_id)
        from tournaments.models import Tournament

        slug = Tournament.objects.get(pk=tournament_id).slug
        published = [f"/t/{slug}/standings/", f"/t/{slug}/", f"/api/v1/public/tournaments/{slug}/standings/",
                     f"/t/{slug}/rounds/5/", "/"]
        django_only = f"/t/{slug}/entries/"
        with Caddy(root=root, upstream=f"127.0.0.1:{stack.web_port}") as caddy:
            def statuses() -> dict[str, int]:
                return {p: httpx.get(caddy.url + p, timeout=10).status_code for p in [*published, django_only]}

            print("all up:            ", statuses())
            _stop_group(stack.web)
            stack.web = None
            from django.db import connections

            connections.close_all()
            stack.pg.stop()
            print("gunicorn and PostgreSQL stopped:", statuses())
            down = statuses()
            assert all(down[p] == 200 for p in published), down
            assert down[django_only] == 502, down
            print("published reads answer 200 with gunicorn and PostgreSQL stopped; Django's own pages 502")
    shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,250,500,1000", help="pairs per event for the render timings")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--read-pairs", type=int, default=100)
    parser.add_argument("--requests", type=int, default=2000, help="requests per batch")
    parser.add_argument("--rounds", type=int, default=3, help="alternating batches per target")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--skip-reads", action="store_true")
    parser.add_argument("--skip-renders", action="store_true")
    parser.add_argument("--results-upto", type=int, default=1000, help="time the results pages up to this size")
    parser.add_argument("--down-check", action="store_true")
    args = parser.parse_args()
    if args.down_check:
        down_check()
        return
    setup_django()
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("publishing").setLevel(logging.WARNING)
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    root = Path(tempfile.mkdtemp(prefix="hangjack-published-"))
    settings.PUBLISH_ROOT, settings.PUBLISH_ENABLED, settings.PUBLISH_RESULTS_SECONDS = str(root), True, 3600
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"hangjack_bench_published_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"database: {connection.vendor}; cores: {os.cpu_count()}; load average: {os.getloadavg()[0]:.1f}")
        if not args.skip_reads:
            reads = measure_reads(args.read_pairs, args.requests, args.concurrency, args.rounds)
            size = reads["published"]
            print(f"\nreads through Caddy: standings of {args.read_pairs} pairs, {size['bytes']:.0f} bytes "
                  f"({size['gz_bytes']:.0f} gzipped), {args.rounds} x {args.requests} requests each, "
                  f"{args.concurrency} connections")
            print(f"{'target':>10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'Caddy CPU us/req':>17}")
            for name, r in reads.items():
                print(f"{name:>10} {r['rps']:>8.0f} {r['p50'] * 1000:>8.2f} {r['p99'] * 1000:>8.2f} {r['cpu_us']:>17.1f}")
            pub, sta = reads["published"], reads["static"]
            print(f"ratio published/static: p50 {pub['p50'] / sta['p50']:.2f}x, p99 {pub['p99'] / sta['p99']:.2f}x, "
                  f"Caddy CPU {pub['cpu_us'] / sta['cpu_us']:.2f}x, throughput {sta['rps'] / pub['rps']:.2f}x "
                  "(aim: at most 1.5x)")
        if not args.skip_renders:
            print("\nrenders (wall ms, CPU ms of this process in brackets; median of "
                  f"{args.repeat}; results once)")
            print(f"{'pairs':>6} {'boards':>7} {'change':>16} {'results pages':>18} {'one board (3)':>16} "
                  f"{'change queries':>15}")
            for pairs in [int(s) for s in args.sizes.split(",")]:
                r = measure_renders(pairs, args.repeat, results_too=pairs <= args.results_upto)
                cells = " ".join(f"{r[k] * 1000:>{w - 8}.0f} ({r[k + '_cpu'] * 1000:>5.0f})"
                                 for k, w in (("message", 16), ("results", 18), ("board", 16)))
                print(f"{pairs:>6} {int(r['boards']):>7} {cells} {int(r['queries']):>15}", flush=True)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
