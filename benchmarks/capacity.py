"""Server CPU per unit of work, for the capacity model (docs/operations.md, "Beyond one machine"), in one run.

    .venv/bin/python benchmarks/capacity.py [--pairs 200] [--repeat 60] [--reads 3000] [--no-caddy]

A private stack (``benchmarks/load/stack.py``: PostgreSQL, Redis, gunicorn with the production settings, a
Celery worker and beat) with Caddy in front when the ``publishing`` app provides it. A Swiss of ``--pairs``
pairs, round 1 paired and published. Each operation is sent one request at a time (reads through Caddy
``--concurrency`` at a time) and measured as the CPU seconds of every server process tree (gunicorn,
PostgreSQL, the Celery worker, Redis, Caddy) between before and after, once the outbox is empty, divided
by the count: CPU, not wall time, so what else runs on the machine inflates it little. Each figure is
also printed as a ratio to the baseline measured in the same run: ``GET /healthz`` through gunicorn (a
request that touches the database once) and, for Caddy, a static file of the same size as the published
standings.

* tablet write: ``POST …/hands/`` and what follows it on the worker (standings, published renders);
* tablet preview and board read (``POST …/preview/``, ``GET /api/v1/tablet/board/``), the read both in full
  and unchanged (a 304 to ``If-None-Match`` with the tag of the state shown, as tablet.js polls);
* confirmation of a game by both pairs;
* spectator read: the standings fragment and the standings JSON, from Django and from Caddy's files;
* pairing: the worker's Swiss for ``--pairs`` pairs after a round (start to drafted).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import httpx  # noqa: E402

from benchmarks.load import checks, procstat  # noqa: E402
from benchmarks.load.actors import Ledger  # noqa: E402
from benchmarks.load.client import Recorder as SetupRecorder  # noqa: E402
from benchmarks.load.national import Freshness, Scorer  # noqa: E402
from benchmarks.load.national_run import start_front  # noqa: E402
from benchmarks.load.openloop import Pool, Recorder  # noqa: E402
from benchmarks.load.setup import create_event  # noqa: E402
from benchmarks.load.stack import HOST, Stack, sigterm_as_exit  # noqa: E402


class Meter:
    """CPU seconds of the server's process trees between ``start`` and ``stop``."""

    def __init__(self, roots: dict[str, int]) -> None:
        self.roots = roots

    def take(self) -> dict[str, float]:
        return procstat.tree_seconds(self.roots)

    def since(self, before: dict[str, float]) -> dict[str, float]:
        after = self.take()
        return {k: max(0.0, after[k] - before.get(k, 0.0)) for k in self.roots}


IDLE: dict[str, int] = {}  # the process trees whose quiet ``quiet`` waits for (the worker, PostgreSQL)


HOLD = 3
"""Seconds in a row the worker and PostgreSQL stay idle before a step counts as done (a render within a
second of the last is deferred: one idle second proves nothing)."""

SLUG: list[str] = []  # the event's slug, once created


def published_current() -> bool:
    """Whether the published files show the event as it stands: the change's groups (``<slug>.json``) and
    the results group, rendered apart in paced slices (``publishing/results.py``: no pass running or queued,
    its stored fingerprint the database's). A write's renders are not over until then."""
    from publishing import results as published_results
    from publishing.publish import load_state
    from tournaments.selectors.fingerprint import fingerprint

    if not SLUG:
        return True
    slug = SLUG[0]
    if load_state(slug).get("fp", {}).get("event") != fingerprint(slug, tier="live"):
        return False
    state = published_results.load(slug)
    return (state.get("fp") == fingerprint(slug, tier="results")
            and not any(state.get(key) for key in ("pass", "queued", "dirty")))


def quiet(timeout: float = 120.0, idle_for: float = 90.0) -> bool:
    """Wait for the outbox to empty and the published files to be current, then up to ``idle_for``
    seconds for the worker and PostgreSQL to go idle (under 5 % of a core, ``HOLD`` seconds in a row): a
    write's deferred renders land inside its measurement, and a backlog left by the step before does not
    land in the next. False (and said) when they did not."""
    from django.db import connections

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        connections.close_all()
        if checks.unsent_outbox() == 0 and published_current():
            break
        time.sleep(0.5)
    else:
        print(f"  (the outbox or the published files were not current within {timeout:.0f} s)", flush=True)
    deadline = time.monotonic() + idle_for
    calm = 0  # seconds in a row under 5 % of a core
    while time.monotonic() < deadline:
        before = procstat.tree_seconds(IDLE)
        time.sleep(1.0)
        calm = calm + 1 if sum(procstat.tree_seconds(IDLE).values()) - sum(before.values()) < 0.05 else 0
        if calm >= HOLD:
            return True
    print(f"  (the worker and PostgreSQL did not go idle within {idle_for:.0f} s)", flush=True)
    return False


TASK_LINE = re.compile(r"^\[(?P<at>[^\]]+?),\d+: INFO/[^\]]+\] Task (?P<name>[\w.]+)\[(?P<id>[\w-]+)\] "
                       r"(?P<what>received|succeeded in (?P<seconds>[\d.]+)s)")


def worker_tasks(log: Path, offset: int) -> dict[str, Any]:
    """What the worker ran after byte ``offset`` of its log: per task name, how many succeeded and their
    seconds; and each ``round_pair``'s received and succeeded times (a queue's wait shows between them
    and the start)."""
    tasks: dict[str, dict[str, float]] = {}
    pairing: list[str] = []
    with open(log, "rb") as handle:
        handle.seek(offset)
        text = handle.read().decode("utf-8", "replace")
    for line in text.splitlines():
        match = TASK_LINE.match(line)
        if match is None:
            continue
        name = match["name"].rsplit(".", 1)[-1]
        if name == "round_pair":
            pairing.append(f"{match['at']} {match['what'][:30]}")
        if match["seconds"] is not None:
            row = tasks.setdefault(name, {"succeeded": 0, "seconds": 0.0})
            row["succeeded"] += 1
            row["seconds"] = round(row["seconds"] + float(match["seconds"]), 3)
    return {"tasks": tasks, "round_pair": pairing,
            "failed": [line for line in text.splitlines() if "ERROR" in line or "Traceback" in line][:20]}


def background(meter: Meter, seconds: float = 4.0) -> dict[str, float]:
    """CPU seconds per second each tree spends with no request at all (sweeps, autovacuum, polling)."""
    before = meter.take()
    time.sleep(seconds)
    return {k: v / seconds for k, v in meter.since(before).items()}


async def measure(meter: Meter, name: str, count: int, one: Any, results: dict[str, Any], *,
                  concurrency: int = 1, settle: bool = True) -> None:
    if settle:
        await asyncio.to_thread(quiet)
    idle = await asyncio.to_thread(background, meter)
    before = meter.take()
    wall = time.monotonic()
    gate = asyncio.Semaphore(concurrency)

    async def run(i: int) -> None:
        async with gate:
            await one(i)

    await asyncio.gather(*(run(i) for i in range(count)))
    if settle:
        await asyncio.to_thread(quiet)
    elapsed = time.monotonic() - wall
    spent = {k: max(0.0, v - idle.get(k, 0.0) * elapsed) for k, v in meter.since(before).items()}
    results[name] = {"count": count, "wall_s": elapsed, "background_cores": idle,
                     "cpu_ms_each": {k: v / count * 1000 for k, v in spent.items() if v > 0},
                     "cpu_ms_total_each": sum(spent.values()) / count * 1000}
    print(f"{name:52} {results[name]['cpu_ms_total_each']:8.2f} ms  "
          + ", ".join(f"{k} {v:.2f}" for k, v in results[name]["cpu_ms_each"].items()), flush=True)


async def day(stack: Stack, args: argparse.Namespace, front_url: str | None) -> dict[str, Any]:
    results: dict[str, Any] = {}
    roots = {**stack.pids(), **stack.extra_pids}
    roots.pop("celery beat", None)  # its sweeps every 30 s are not any request's cost
    IDLE.update({k: v for k, v in roots.items() if k in ("celery worker", "postgresql")})
    meter = Meter(roots)
    setup_recorder, ledger, recorder = SetupRecorder(), Ledger(), Recorder()
    recorder.window = (0.0, 1e12)
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=300.0) as client:
        event, organiser = await create_event(client, setup_recorder, name="capacity", pairs=args.pairs,
                                              tables=args.pairs // 2, first_to=50)
        started = time.monotonic()
        round_ = await organiser.start_round(timeout=300)
        assert round_ is not None, setup_recorder.problems
        print(f"round 1 of {args.pairs} pairs drafted in {time.monotonic() - started:.1f}s")
        await organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/", expect=200)
        direct = Pool(HOST, stack.web_port, size=8)
        scorers = [Scorer(t, token, direct, recorder, ledger, Freshness(), seed=t)
                   for t, token in sorted(event.tablet_tokens.items())][: args.repeat]
        for s in scorers:
            state = await s.get_board(time.monotonic())
            assert state is not None
            a, b = state["pairs"]["a"]["players"], state["pairs"]["b"]["players"]
            await s.post("seat", f"/api/v1/tablet/boards/{state['board']}/seating/",
                         {"seating": {"0": a[0]["id"], "1": b[0]["id"], "2": a[1]["id"], "3": b[1]["id"]},
                          "first_dealer": 0}, time.monotonic())
            await s.get_board(time.monotonic())
            assert s.board_etag, "the board read carries no ETag"
            s.simulate()
        headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.9.9.9"}
        slug = event.slug
        SLUG.append(slug)

        async def healthz(_: int) -> None:
            await direct.request("GET", "/healthz", headers)

        print(f"{'operation':52} {'CPU each':>11}  (per process tree)")
        await measure(meter, "baseline: GET /healthz (gunicorn)", args.repeat * 4, healthz, results)

        async def board(i: int) -> None:
            await direct.request("GET", "/api/v1/tablet/board/", scorers[i % len(scorers)].headers)

        await measure(meter, "tablet board read", args.repeat * 2, board, results)

        async def board_unchanged(i: int) -> None:
            s = scorers[i % len(scorers)]
            answer = await direct.request("GET", "/api/v1/tablet/board/", {**s.headers, "If-None-Match": s.board_etag})
            assert answer.status == 304, (answer.status, answer.body[:300])

        await measure(meter, "tablet board read, unchanged (304 with If-None-Match)", args.repeat * 2,
                      board_unchanged, results)

        async def preview(i: int) -> None:
            s = scorers[i]
            b, g, _ = s.game
            await direct.request("POST", f"/api/v1/tablet/boards/{b}/preview/",
                                 {**s.headers, "Idempotency-Key": f"p{i}-{time.time()}"}, {"game": g, "hand": s.hands[0]})

        await measure(meter, "tablet preview", len(scorers), preview, results)

        async def hand(i: int) -> None:
            s = scorers[i]
            b, g, n = s.game
            answer = await direct.request("POST", f"/api/v1/tablet/boards/{b}/hands/",
                                          {**s.headers, "Idempotency-Key": f"h{i}-{time.time()}"},
                                          {"game": g, "number": n, "hand": s.hands[0]})
            assert answer.status == 201, answer.body[:300]

        await measure(meter, "tablet write (hand, with the worker's work after it)", len(scorers), hand, results)

        live = f"/t/{slug}/standings/live/"
        api = f"/api/v1/public/tournaments/{slug}/standings/"

        for label, path in (("standings fragment", live), ("standings JSON", api)):
            async def read(_: int, path: str = path) -> None:
                await direct.request("GET", path, {**headers, "X-Requested-With": "fetch"})

            await measure(meter, f"spectator read from Django: {label}", args.repeat * 2, read, results, settle=False)

        if front_url is not None:
            from urllib.parse import urlsplit

            parts = urlsplit(front_url)
            caddy = Pool(parts.hostname or HOST, parts.port or 80, size=args.concurrency)
            first = await caddy.request("GET", live, headers)
            size = len(first.body)
            static_dir = Path(os.environ["PUBLISH_ROOT"]) / "capacity-static"
            static_dir.mkdir(parents=True, exist_ok=True)
            (static_dir / "index.html").write_bytes(os.urandom(size // 2).hex().encode()[:size])
            for label, path in (("baseline: a static file of the same size (Caddy)", "/capacity-static/"),
                                ("spectator read from Caddy: standings fragment", live),
                                ("spectator read from Caddy: standings JSON", api)):
                async def cread(_: int, path: str = path) -> None:
                    await caddy.request("GET", path, headers)

                await measure(meter, label, args.reads, cread, results, concurrency=args.concurrency, settle=False)
            results["published standings fragment bytes"] = size
            await caddy.close()

        await direct.close()
        # pairing: close round 1 (time called: every board decided as it stands) and pair round 2
        await asyncio.to_thread(quiet)
        log_at = stack.worker_log.stat().st_size
        closed = await organiser.close(int(round_["id"]))
        assert closed, f"round 1 did not close: {setup_recorder.problems[-3:]}"
        await asyncio.to_thread(quiet, 300, 300)
        results["worker after the close"] = worker_tasks(stack.worker_log, log_at)
        print(f"worker after the close: {results['worker after the close']['tasks']}", flush=True)
        log_at = stack.worker_log.stat().st_size
        idle = await asyncio.to_thread(background, meter)
        before = meter.take()
        started, started_utc = time.monotonic(), time.strftime("%H:%M:%S", time.gmtime())
        second = await organiser.start_round(timeout=300)
        if second is None:
            print(f"round 2 not drafted: {setup_recorder.problems[-3:]}", flush=True)
            print(f"worker log: {stack.worker_log}; gunicorn log: {stack.log_dir / 'gunicorn.log'}", flush=True)
        wall = time.monotonic() - started
        await asyncio.to_thread(quiet)
        results["worker while pairing"] = worker_tasks(stack.worker_log, log_at)
        print(f"worker while pairing: {results['worker while pairing']}", flush=True)
        elapsed = time.monotonic() - started
        spent = {k: max(0.0, v - idle.get(k, 0.0) * elapsed) for k, v in meter.since(before).items()}
        results["pairing"] = {"pairs": args.pairs, "round": 2, "start_to_drafted_s": wall, "ok": second is not None,
                              "started_utc": started_utc,
                              "cpu_ms_each": {k: v * 1000 for k, v in spent.items() if v > 0},
                              "cpu_ms_total_each": sum(spent.values()) * 1000}
        print(f"{'pairing round 2 of ' + str(args.pairs) + ' pairs (start to drafted)':52} "
              f"{results['pairing']['cpu_ms_total_each']:8.0f} ms  "
              + ", ".join(f"{k} {v:.0f}" for k, v in results["pairing"]["cpu_ms_each"].items()), flush=True)
    base = results["baseline: GET /healthz (gunicorn)"]["cpu_ms_total_each"]
    print("\nRatios to GET /healthz through gunicorn (same run):")
    for name, row in results.items():
        if isinstance(row, dict) and "cpu_ms_total_each" in row:
            print(f"  {name:52} {row['cpu_ms_total_each'] / base:7.2f}x")
    caddy_base = results.get("baseline: a static file of the same size (Caddy)")
    if caddy_base:
        for name in ("spectator read from Caddy: standings fragment", "spectator read from Caddy: standings JSON"):
            ratio = results[name]["cpu_ms_total_each"] / caddy_base["cpu_ms_total_each"]
            print(f"  {name} v the static file of the same size: {ratio:.2f}x")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=60, help="writes measured (one tablet each)")
    parser.add_argument("--reads", type=int, default=3000, help="reads through Caddy per case")
    parser.add_argument("--concurrency", type=int, default=16, help="reads through Caddy at once")
    parser.add_argument("--no-caddy", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    args.repeat = min(args.repeat, args.pairs // 2)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    logging.getLogger("httpx").setLevel(logging.WARNING)
    publish_root = Path(os.environ.get("TMPDIR", "/tmp")) / f"hangjack-capacity-{os.getpid()}"
    publish_root.mkdir(parents=True, exist_ok=True)
    front = None
    try:
        with sigterm_as_exit(), Stack(web_workers=3, web_threads=4, worker_concurrency=2,
                                      extra_env={"PUBLISH_ROOT": str(publish_root)}) as stack:
            front = None if args.no_caddy else start_front(stack, publish_root)
            if front:
                stack.extra_pids["caddy"] = front[0].pid()
            print(f"stack logs: {stack.log_dir}", flush=True)
            stack.use_here()
            results = asyncio.run(day(stack, args, front[1] if front else None))
    finally:
        if front is not None:
            front[0].stop()
    results["machine"] = {"cores": os.cpu_count(), "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                          "caddy": front is not None}
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
