"""``make load``: a compressed tournament day on this machine, then proof that nothing was lost.

    python -m benchmarks.load.run                  # 300 s, 100 tablets, 1,000 viewers
    python -m benchmarks.load.run --duration 30    # a smoke run
    python -m benchmarks.load.run --profile national-day --minutes 1   # the national day (national_run.py)

A private stack (``stack.Stack``: PostgreSQL and Redis on free ports, gunicorn with the production
settings and a throwaway secret, a Celery worker and beat) serves a Swiss of ``2 x tablets`` pairs. For
``--duration`` seconds: every table's tablet plays simulated hands (one about every 2 s, with retries,
double sends and reused keys), ``--viewers`` phones poll the standings or a scorecard every 10 s, and
the organiser pairs, publishes, confirms and closes round after round. Then the open round is closed,
the stack is left to settle, and the checks of ``checks`` run. It prints throughput and p50/p99 latency
per operation (requests started inside the window), the CPU share of the load generator and of each
service, and every check with PASS/FAIL; the exit status is 1 when a check failed or the server
answered a 5xx other than 503.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from . import checks, procstat
from .actors import Behaviour, Ledger, Organiser, Tablet, Viewer
from .client import Recorder
from .setup import Event, create_event
from .stack import Stack, sigterm_as_exit


@dataclass
class DayResult:
    event: Event
    organiser: Organiser
    recorder: Recorder
    ledger: Ledger
    wall: float
    cpu: dict[str, float]
    machine_busy: float
    extras: dict[str, Any] = field(default_factory=dict)


async def day(stack: Stack, args: argparse.Namespace) -> DayResult:
    recorder, ledger = Recorder(), Ledger()
    limits = httpx.Limits(max_connections=args.tablets * 3 + args.viewers + 50, max_keepalive_connections=200)
    # A browser waits minutes, not seconds: a short client timeout would only resend requests the server
    # is still queueing (and then does for nobody) when it is saturated.
    async with httpx.AsyncClient(base_url=stack.base_url, limits=limits, timeout=120.0) as client:
        print(f"[load] setting up: {2 * args.tablets} pairs, {args.tablets} tablets paired through the API", flush=True)
        event, organiser = await create_event(client, recorder, name="load-day", pairs=2 * args.tablets,
                                              tables=args.tablets, first_to=args.first_to)
        behaviour = Behaviour()
        tablets = [Tablet(t, token, client, recorder, ledger, seed=args.seed * 1000 + t, behaviour=behaviour)
                   for t, token in sorted(event.tablet_tokens.items())]
        viewers = [Viewer(v, client, recorder, organiser.shared, seed=args.seed * 100000 + v)
                   for v in range(args.viewers)]
        recorder.problems.clear()
        recorder.durations.clear()
        recorder.statuses.clear()

        roots = stack.pids()
        start = time.monotonic()
        deadline = start + args.duration
        recorder.window = (start, deadline)
        before = procstat.tree_seconds(roots)
        before_self, before_machine = procstat.self_seconds(), procstat.machine_busy_seconds()
        measured: dict[str, Any] = {}

        async def sample_at_deadline() -> None:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            after = procstat.tree_seconds(roots)
            measured["wall"] = time.monotonic() - start
            # a service restarted meanwhile (--redis-outage) has a new process: its old time is not counted
            measured["cpu"] = {name: max(0.0, after.get(name, 0.0) - before.get(name, 0.0)) for name in roots}
            measured["cpu"]["load generator"] = procstat.self_seconds() - before_self
            busy, total = procstat.machine_busy_seconds()
            measured["machine_busy"] = (busy - before_machine[0]) / max(1e-9, total - before_machine[1])

        async def progress() -> None:
            while time.monotonic() < deadline:
                await asyncio.sleep(min(30.0, max(0.0, deadline - time.monotonic())))
                hands = len(recorder.durations.get("hand_submit", []))
                print(f"[load] t={time.monotonic() - start:5.0f}s  hands sent {hands}  acknowledged "
                      f"{len(ledger.acks)}  rounds closed {organiser.rounds_closed}  problems "
                      f"{recorder.counters['problems']}", flush=True)

        async def redis_outage() -> None:
            if not args.redis_outage:
                return
            at, length = args.redis_outage
            await asyncio.sleep(max(0.0, start + at - time.monotonic()))
            await asyncio.to_thread(stack.redis.stop)
            print(f"[load] t={time.monotonic() - start:5.0f}s  Redis stopped for {length:.0f}s", flush=True)
            await asyncio.sleep(length)
            await asyncio.to_thread(stack.redis.start)
            print(f"[load] t={time.monotonic() - start:5.0f}s  Redis started again", flush=True)

        print(f"[load] playing for {args.duration:.0f}s: {len(tablets)} tablets, {len(viewers)} viewers", flush=True)
        await asyncio.gather(
            sample_at_deadline(), progress(), redis_outage(),
            organiser.run(deadline, round_limit=args.round_limit),
            *(t.run(deadline) for t in tablets),
            *(v.run(deadline) for v in viewers),
        )
        print("[load] tablets stopped; the organiser closes the open round", flush=True)
        recorder.window = None
        await organiser.finish()
    return DayResult(event, organiser, recorder, ledger, measured["wall"], measured["cpu"], measured["machine_busy"])


def server_cost(stack: Stack, slug: str, board_ids: list[int], requests: int = 40) -> dict[str, float]:
    """Server CPU (gunicorn and PostgreSQL) per request of the public reads, one request at a time after the
    day: CPU time, not wall time, so what other processes on the machine do inflates it little."""
    headers = {"X-Forwarded-Proto": "https"}
    roots = {k: v for k, v in stack.pids().items() if k in ("gunicorn", "postgresql")}
    paths = {"public_standings (200)": f"/api/v1/public/tournaments/{slug}/standings/"}
    if board_ids:
        paths["public_scorecard (200)"] = f"/api/v1/public/tournaments/{slug}/boards/{board_ids[0]}/"
    costs: dict[str, float] = {}
    with httpx.Client(base_url=stack.base_url, headers=headers, timeout=60) as client:
        etag = client.get(paths["public_standings (200)"]).headers.get("ETag", "")
        cases = [(name, path, {}) for name, path in paths.items()]
        cases.append(("public_standings (304, If-None-Match)", paths["public_standings (200)"], {"If-None-Match": etag}))
        for name, path, extra in cases:
            before = procstat.tree_seconds(roots)
            for _ in range(requests):
                client.get(path, headers=extra)
            after = procstat.tree_seconds(roots)
            costs[name] = sum(after[k] - before[k] for k in roots) / requests * 1000
    return costs


def public_standings(stack: Stack, slug: str) -> list[dict[str, Any]] | None:
    response = httpx.get(f"{stack.base_url}/api/v1/public/tournaments/{slug}/standings/",
                         headers={"X-Forwarded-Proto": "https"}, timeout=30)
    return list(response.json()["rows"]) if response.status_code == 200 else None


def report(result: DayResult, found: list[checks.Check], args: argparse.Namespace) -> dict[str, Any]:
    rows = result.recorder.table(result.wall)
    cores = os.cpu_count() or 1
    print()
    print(f"Load: {result.wall:.0f} s window, {args.tablets} tablets, {args.viewers} viewers, gunicorn "
          f"{args.web_workers} workers x {args.web_threads} threads, Celery worker concurrency {args.worker_concurrency}, "
          f"{cores} cores")
    print(f"{'operation':34} {'count':>7} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses")
    for row in rows:
        print(f"{row['op']:34} {row['count']:7d} {row['per_second']:7.2f} {row['p50_ms']:8.1f} {row['p99_ms']:8.1f} "
              f"{row['max_ms']:8.1f}  {row['statuses']}")
    total = sum(r["count"] for r in rows)
    print(f"{'all requests':34} {total:7d} {total / result.wall:7.2f}")
    shares = {name: seconds / (result.wall * cores) for name, seconds in result.cpu.items()}
    shares["other processes (not this run's)"] = max(0.0, result.machine_busy - sum(shares.values()))
    print("CPU, share of the machine (all cores) over the window: "
          + ", ".join(f"{name} {share:.1%}" for name, share in sorted(shares.items(), key=lambda kv: -kv[1]))
          + f"; machine busy {result.machine_busy:.1%}")
    print(f"Load generator: {result.cpu.get('load generator', 0.0) / result.wall:.1%} of one core")
    pairing = sorted(result.organiser.pairing_seconds)
    print(f"Rounds: {result.organiser.rounds_closed} closed; start-to-drafted "
          + (f"median {pairing[len(pairing) // 2]:.2f}s, max {pairing[-1]:.2f}s" if pairing else "-"))
    print(f"Tablet behaviours: {result.ledger.behaviours}; hands acknowledged {len(result.ledger.acks)}; "
          f"sends never answered {len(result.ledger.unanswered)}")
    print(f"Problems seen by the clients: {result.recorder.counters['problems']}")
    for line in result.recorder.problems[:20]:
        print(f"  - {line}")
    print()
    for check in found:
        print(check.line())
    return {
        "window_s": result.wall, "tablets": args.tablets, "viewers": args.viewers, "cores": cores,
        "web_workers": args.web_workers, "web_threads": args.web_threads, "operations": rows,
        "cpu_share": shares, "machine_busy": result.machine_busy, "rounds_closed": result.organiser.rounds_closed,
        "pairing_seconds": pairing, "behaviours": result.ledger.behaviours, "acks": len(result.ledger.acks),
        "unanswered": len(result.ledger.unanswered), "problems": result.recorder.problems,
        "checks": [asdict(c) for c in found],
    }


def _outage(text: str) -> tuple[float, float]:
    at, _, length = text.partition(":")
    return float(at), float(length or 30)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of play measured (default 300)")
    parser.add_argument("--tablets", type=int, default=100, help="tables, one paired tablet each (default 100)")
    parser.add_argument("--viewers", type=int, default=1000, help="phones polling every 10 s (default 1000)")
    parser.add_argument("--first-to", type=int, default=3, help="match format: first to N games (default 3)")
    parser.add_argument("--round-limit", type=float, default=120.0, help="seconds before time is called on a round")
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn workers (docker/gunicorn.conf.py: 6)")
    parser.add_argument("--web-threads", type=int, default=1, help="gunicorn threads per worker (docker/gunicorn.conf.py: 2)")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes (compose: 2)")
    parser.add_argument("--settle", type=float, default=90.0, help="seconds allowed for the outbox and standings")
    parser.add_argument("--redis-outage", type=_outage, metavar="AT:SECONDS",
                        help="stop Redis AT seconds into the day for SECONDS (e.g. 60:30), then start it again")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="also write the figures and checks as JSON here")
    parser.add_argument("--keep-logs", action="store_true", help="print where the services' logs are and keep them")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    profile = argparse.ArgumentParser(add_help=False)
    profile.add_argument("--profile", choices=("compressed-day", "national-day"), default="compressed-day")
    chosen, rest = profile.parse_known_args(argv)
    if chosen.profile == "national-day":
        from .national_run import main as national_main  # its own flags (--minutes, --viewers ...)

        return national_main(argv)
    args = parse(rest)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # this process's ORM use is setup and checks only
    started = time.monotonic()
    with sigterm_as_exit(), Stack(web_workers=args.web_workers, web_threads=args.web_threads,
                                  worker_concurrency=args.worker_concurrency) as stack:
        print(f"[load] private stack up in {time.monotonic() - started:.0f}s: PostgreSQL :{stack.pg.port}, "
              f"Redis :{stack.redis.port}, gunicorn :{stack.web_port}; logs in {stack.log_dir}", flush=True)
        stack.use_here()
        logging.getLogger("httpx").setLevel(logging.WARNING)
        result = asyncio.run(day(stack, args))
        tid = result.event.tournament_id
        found = [checks.settle([tid], args.settle)]
        found += checks.check_hands(tid, result.ledger.acks, result.ledger.unanswered)
        score_checks, rebuilt = checks.check_scores(tid)
        found += score_checks
        found += checks.check_standings(tid, rebuilt, public_standings(stack, result.event.slug))
        errors = result.recorder.server_errors()
        found.append(checks.Check("no 5xx but 503", errors == 0, f"{errors} answers 500-599 other than 503"))
        costs = server_cost(stack, result.event.slug, result.organiser.shared.board_ids)
        figures = report(result, found, args)
        print("Server CPU per request (gunicorn + PostgreSQL, one at a time after the day): "
              + ", ".join(f"{name} {ms:.0f} ms" for name, ms in costs.items()))
        figures["server_cpu_ms_per_request"] = costs
        gunicorn_log = (stack.log_dir / "gunicorn.log").read_text(errors="replace")
        tracebacks = gunicorn_log.count("Traceback")
        if tracebacks:
            print(f"gunicorn log: {tracebacks} tracebacks (see {stack.log_dir}/gunicorn.log)")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2, default=lambda v: None if v != v else v))
    failed = [c for c in found if not c.ok]
    if args.keep_logs or failed:
        print(f"logs kept in {stack.log_dir}")
    else:
        shutil.rmtree(stack.log_dir, ignore_errors=True)
    print(f"\n{len(found) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
