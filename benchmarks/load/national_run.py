"""``make load LOAD_ARGS="--profile national-day"``: a national day at realistic pace, measured open-loop.

    python -m benchmarks.load.run --profile national-day                 # 500 tables, 10,000 viewers, 15 min
    python -m benchmarks.load.run --profile national-day --minutes 1 --tables 100 --viewers 1000   # a smoke run

The private stack of ``stack.Stack`` (PostgreSQL, Redis, gunicorn, a Celery worker and beat) with Caddy in
front when the ``publishing`` app provides it (``--no-caddy``: viewers read Django directly). A Swiss of
``2 x tables`` pairs, first to ``--first-to`` games; round 1 is paired and published, then every board is
brought to a staggered point of its match (0 to ``--stagger`` hands, through the tablet API, confirmed as
played). Then the day (``national``): tablets at a hand every 60-120 s with their previews and board polls,
viewers polling as the pages do, the freshness probe; ``--warmup`` seconds, then ``--minutes`` of steady
state, the only requests counted (by planned send). Afterwards the organiser confirms and closes the
round and the compressed day's end checks run (``checks``). Figures: latency from planned send (p50, p95,
p99) for tablets and viewers apart, achieved against intended rates, bytes per second, the generator's
lag behind its plan, CPU of every process tree and of the machine, errors (5xx and transport failures),
freshness samples.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import logging
import math
import os
import random
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import uvloop

from . import checks, procstat
from .actors import Ledger
from .client import Recorder as SetupRecorder
from .national import (
    Freshness,
    Probe,
    Scorer,
    Viewer,
    has_whole_table,
    intended_rates,
    page_chooser,
    plan_day,
)
from .openloop import Plan, Pool, Recorder, drive
from .setup import create_event
from .stack import HOST, Stack, sigterm_as_exit

RESULTS = Path(__file__).resolve().parents[1] / "results"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks.load.run --profile national-day")
    parser.add_argument("--profile", default="national-day")
    parser.add_argument("--tables", type=int, default=500, help="tables, one tablet each (default 500: 1,000 pairs)")
    parser.add_argument("--viewers", type=int, default=10000, help="spectators' phones (default 10,000)")
    parser.add_argument("--minutes", type=float, default=15.0, help="steady state measured, minutes (default 15)")
    parser.add_argument("--warmup", type=float, default=90.0, help="seconds of load before measuring (default 90)")
    parser.add_argument("--first-to", type=int, default=2, help="match format: first to N games (default 2)")
    parser.add_argument("--stagger", type=int, default=4, help="a board starts 0..N hands into its match")
    parser.add_argument("--web-workers", type=int, default=6, help="gunicorn workers (docker/gunicorn.conf.py: 6)")
    parser.add_argument("--web-threads", type=int, default=2, help="gunicorn threads (docker/gunicorn.conf.py: 2)")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes (compose: 2)")
    parser.add_argument("--background-nice", type=int, default=5,
                        help="the Celery worker's and publisher's autogroup nice: their share of a busy CPU "
                             "(default 5, about a third of gunicorn's, as compose's cpu_shares 341; 0: equal)")
    parser.add_argument("--connections", type=int, default=2048, help="the phones' keep-alive connections at most")
    parser.add_argument("--settle", type=float, default=180.0, help="seconds allowed for the outbox and standings")
    parser.add_argument("--no-caddy", action="store_true", help="viewers read Django directly, no proxy")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the figures here (default benchmarks/results/"
                                                  "national-day-<date>.json for a full run)")
    parser.add_argument("--samples", type=Path, help="write every tablet and probe answer here as CSV (wall-clock "
                                                     "planned send, class, operation, latency ms, status)")
    parser.add_argument("--label", default="", help="a note kept with the figures (e.g. 'smoke')")
    return parser.parse_args(argv)


def start_front(stack: Stack, publish_root: Path) -> tuple[Any, str] | None:
    """Caddy in front (``publishing.caddy``: docker/published.caddy's rules, then Django), or None without Caddy."""
    from publishing.caddy import Caddy, caddy_binary

    class Front(Caddy):
        """The private Caddy speaks plain HTTP; towards Django it says https, as the production Caddy (which
        terminates TLS) does, so the production settings do not redirect the tablets' API calls."""

        def write_config(self) -> Path:
            path = super().write_config()
            block = f"reverse_proxy {self.upstream} {{\n"
            text = path.read_text()
            assert block in text, "publishing.caddy's Caddyfile changed: adapt benchmarks/load/national_run.py"
            path.write_text(text.replace(block, block + "\t\t\theader_up X-Forwarded-Proto https\n"))
            return path

    if caddy_binary() is None:
        return None
    front = Front(root=publish_root, upstream=f"{HOST}:{stack.web_port}")
    front.start()
    return front, front.url


def public_order_check(url: str, tid: int, rebuilt: Any, wait: float = 30.0) -> checks.Check:
    """The published standings (what a spectator reads) list the recomputed order; renders are merged, so
    this waits up to ``wait`` seconds for the last one and says how long it took."""
    fresh_rows, _ = checks.recomputed_standings(tid, rebuilt)
    fresh = json.loads(json.dumps(fresh_rows, default=str))
    started = time.monotonic()
    ok, text = False, "no answer"
    while time.monotonic() - started < wait:
        answer = httpx.get(url, headers={"X-Forwarded-Proto": "https"}, timeout=60)
        if answer.status_code == 200:
            ok, text = checks.public_order(answer.json()["rows"], fresh)
            if ok:
                break
        time.sleep(0.5)
    return checks.Check("the published standings show the recomputed order", ok,
                        f"{text}; read {time.monotonic() - started:.1f}s after the standings settled")


async def stagger(scorers: list[Scorer], rng: random.Random, most: int, gate: int = 24) -> int:
    """Bring each board to a random point of its match: 0..``most`` hands, no previews, no pauses."""
    limit = asyncio.Semaphore(gate)

    async def one(scorer: Scorer, hands: int) -> None:
        async with limit:
            for _ in range(hands):
                await scorer.hand(time.monotonic(), preview=False)
                if scorer.done:
                    break

    await asyncio.gather(*(one(s, rng.randint(0, most)) for s in scorers))
    return sum(s.hands_acked for s in scorers)


async def national_day(stack: Stack, args: argparse.Namespace, base_url: str) -> dict[str, Any]:
    setup_recorder, ledger = SetupRecorder(), Ledger()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=60, max_keepalive_connections=60)
    async with httpx.AsyncClient(base_url=stack.base_url, limits=limits, timeout=120.0) as client:
        t0 = time.monotonic()
        print(f"[national] setting up: {2 * args.tables} pairs, {args.tables} tablets paired", flush=True)
        event, organiser = await create_event(client, setup_recorder, name="national-day", pairs=2 * args.tables,
                                              tables=args.tables, first_to=args.first_to)
        round_ = await organiser.start_round(timeout=300)
        if round_ is None or await organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/",
                                                  expect=200) is None:
            raise RuntimeError(f"round 1 was not paired and published: {setup_recorder.problems[-3:]}")
        organiser.open_round = int(round_["id"])
        boards = [int(b["id"]) for b in await organiser.boards(organiser.open_round)]
        while len(boards) < args.tables:  # the list is paged
            more = await organiser.call("round_boards", "GET", f"/api/v1/rounds/{round_['id']}/boards/?limit=200"
                                        f"&offset={len(boards)}", expect=200)
            page = [int(b["id"]) for b in more.json()["results"]] if more is not None else []
            if not page:
                break
            boards += page
        print(f"[national] round 1 paired and published ({len(boards)} boards) after {time.monotonic() - t0:.0f}s",
              flush=True)

        recorder, freshness = Recorder(), Freshness()
        if args.samples:
            recorder.raw = []
        # Separate pools, as separate devices have their own connections: one per tablet, ``--connections`` for
        # the phones (a phone waiting for a free one has that wait in its latency), two for the probe.
        front_host, front_port = urlsplit(base_url).hostname or HOST, urlsplit(base_url).port or 80
        front = Pool(front_host, front_port, size=args.connections)
        tablets_pool = Pool(front_host, front_port, size=max(1, args.tables))
        probe_pool = Pool(front_host, front_port, size=2)
        scorers = [Scorer(t, token, tablets_pool, recorder, ledger, freshness, seed=args.seed * 1000 + t)
                   for t, token in sorted(event.tablet_tokens.items())]
        for scorer in scorers:  # seat every board (the first thing a tablet does)
            state = await scorer.get_board(time.monotonic())
            if state is not None and state.get("seating") is None:
                a, b = state["pairs"]["a"]["players"], state["pairs"]["b"]["players"]
                await scorer.post("tablet_seating", f"/api/v1/tablet/boards/{state['board']}/seating/",
                                  {"seating": {"0": a[0]["id"], "1": b[0]["id"], "2": a[1]["id"], "3": b[1]["id"]},
                                   "first_dealer": scorer.rng.randrange(4)}, time.monotonic())
                await scorer.get_board(time.monotonic())
        staggered = await stagger(scorers, rng, args.stagger)
        decided = sum(s.done for s in scorers)
        print(f"[national] boards staggered: {staggered} hands played, {decided} boards already decided, "
              f"after {time.monotonic() - t0:.0f}s", flush=True)

        viewers = [Viewer(v, page_chooser(event.slug, 1, boards), seed=args.seed * 100000 + v)
                   for v in range(args.viewers)]
        plan = Plan()
        whole_table = has_whole_table(args.tables)  # a large event's standings page polls its whole table too
        streams = plan_day(plan, scorers, viewers, rng=rng, viewers_arrive_over=max(1.0, args.warmup * 0.75),
                           whole_table=whole_table)
        tasks: set[asyncio.Task[None]] = set()

        def fire(stream: int, planned: float) -> None:
            kind, actor = streams[stream]
            if kind == "poll":
                coro = actor.poll(planned)
            elif kind == "hand":
                coro = actor.hand(planned)
            elif kind == "whole":
                coro = actor.act_whole(front, recorder, planned)
            else:
                coro = actor.act(front, recorder, planned)
            task = asyncio.ensure_future(coro)
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        roots = {**stack.pids(), **({"caddy": stack.extra_pids["caddy"]} if "caddy" in stack.extra_pids else {})}
        start = time.monotonic()
        window = (start + args.warmup, start + args.warmup + args.minutes * 60)
        recorder.window = window
        measured: dict[str, Any] = {}

        async def sample() -> None:
            await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
            statements_reset(stack.pg.url)
            sessions_before = sessions_opened(stack.pg.url) + 1  # this read's own session counts too
            freshness.counting = True
            before, self_before, machine_before = (procstat.tree_seconds(roots), procstat.self_seconds(),
                                                   procstat.machine_busy_seconds())
            print(f"[national] warm-up over: measuring {args.minutes:g} min", flush=True)
            await asyncio.sleep(max(0.0, window[1] - time.monotonic()))
            freshness.counting = False
            after = procstat.tree_seconds(roots)
            measured["cpu"] = {n: max(0.0, after.get(n, 0.0) - before.get(n, 0.0)) for n in roots}
            measured["cpu"]["load generator"] = procstat.self_seconds() - self_before
            busy, total = procstat.machine_busy_seconds()
            measured["machine_busy"] = (busy - machine_before[0]) / max(1e-9, total - machine_before[1])
            measured["wall"] = time.monotonic() - window[0]
            measured["pg_statements"] = statements_top(stack.pg.url)
            measured["pg_sessions"] = sessions_opened(stack.pg.url) - sessions_before

        async def progress() -> None:
            while time.monotonic() < window[1]:
                await asyncio.sleep(min(60.0, max(0.1, window[1] - time.monotonic())))
                t = recorder.classes
                print(f"[national] t={time.monotonic() - start:5.0f}s in flight {len(tasks)}; counted: tablet "
                      f"{len(t['tablet'].latency)} viewer {len(t['viewer'].latency)}; hands acked "
                      f"{sum(s.hands_acked for s in scorers)}; freshness samples {len(freshness.samples)}, "
                      f"pending {len(freshness.pending)}; problems {recorder.problem_count}", flush=True)

        probe = Probe(probe_pool, recorder, freshness, f"/api/v1/public/tournaments/{event.slug}/standings/")
        print(f"[national] playing: warm-up {args.warmup:g}s then {args.minutes:g} min; viewers through "
              f"{base_url}", flush=True)
        await asyncio.gather(drive(plan, fire, start, window[1] - start), sample(), progress(),
                             probe.run(lambda: time.monotonic() > window[1] + 5))
        freshness.missed = len(freshness.pending)
        drain_until = time.monotonic() + 60
        while tasks and time.monotonic() < drain_until:
            await asyncio.sleep(0.5)
        for task in list(tasks):
            task.cancel()
        for pool in (front, tablets_pool, probe_pool):
            await pool.close()
        print(f"[national] stopped ({len(tasks)} requests still open after the drain were cancelled); "
              "the organiser confirms and closes round 1", flush=True)
        await organiser.finish()
    return {"event": event, "ledger": ledger, "recorder": recorder, "freshness": freshness, "measured": measured,
            "staggered_hands": staggered, "decided_before": decided, "boards": len(boards),
            "setup_problems": setup_recorder.problems}


def statements_reset(url: str) -> None:
    """Start PostgreSQL's per-statement account (pg_stat_statements, when the stack preloads it) at the window."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            conn.execute("SELECT pg_stat_statements_reset()")
    except psycopg.Error as exc:
        print(f"[national] pg_stat_statements not available: {exc}", flush=True)


def sessions_opened(url: str) -> int:
    """How many sessions PostgreSQL has opened on the run's database so far (``pg_stat_database.sessions``,
    PostgreSQL 14+; -1 when unknown). Read at both ends of the window: a service that connects per task or per
    request shows here (on 2026-12-06 the Celery tasks opened about two a second, and the backends that exited
    took 0.1-0.3 of a core: docs/operations.md, "The fifth look")."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()").fetchone()
    except psycopg.Error:
        return -1
    return int(row[0]) if row and row[0] is not None else -1


def statements_top(url: str, limit: int = 12) -> list[dict[str, Any]]:
    """The statements that took PostgreSQL's time in the window, longest first: where its CPU went."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT calls, total_exec_time, total_plan_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 150) "
                "FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT %s", [limit]).fetchall()
            whole = conn.execute("SELECT count(*), sum(calls), sum(total_exec_time), sum(total_plan_time) "
                                 "FROM pg_stat_statements").fetchone()
    except psycopg.Error:
        return []
    top = [{"calls": int(calls), "total_ms": round(float(total), 1), "plan_ms": round(float(plan), 1), "query": query}
           for calls, total, plan, query in rows]
    if whole and whole[0]:
        top.insert(0, {"calls": int(whole[1]), "total_ms": round(float(whole[2]), 1),
                       "plan_ms": round(float(whole[3]), 1), "query": f"(all {whole[0]} statements)"})
    return top


def figures(day: dict[str, Any], args: argparse.Namespace, found: list[checks.Check], through: str) -> dict[str, Any]:
    rec: Recorder = day["recorder"]
    m = day["measured"]
    wall = m["wall"]
    cores = os.cpu_count() or 1
    shares = {n: s / (wall * cores) for n, s in m["cpu"].items()}
    shares["other processes (not this run's)"] = max(0.0, m["machine_busy"] - sum(shares.values()))
    fresh = sorted(day["freshness"].samples)

    def pct(q: float) -> float:
        return fresh[max(1, math.ceil(q / 100 * len(fresh))) - 1] if fresh else math.nan

    return {
        "label": args.label or ("full" if args.minutes >= 15 and args.tables >= 500 and args.viewers >= 10000
                                else "smoke (smaller than the national day)"),
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cores": cores,
        "tables": args.tables, "pairs": 2 * args.tables, "viewers": args.viewers, "first_to": args.first_to,
        "warmup_s": args.warmup, "window_s": wall, "viewers_through": through,
        "gunicorn": f"{args.web_workers} workers x {args.web_threads} threads",
        "worker_concurrency": args.worker_concurrency, "background_nice": args.background_nice,
        "intended_rates_expected": intended_rates(args.tables, args.viewers, whole_table=has_whole_table(args.tables)),
        "classes": {k: v.summary(wall) for k, v in sorted(rec.classes.items())},
        "operations": {k: v.summary(wall) for k, v in sorted(rec.ops.items())},
        "cpu_share_of_machine": shares, "cpu_cores_used": {n: s / wall for n, s in m["cpu"].items()},
        "machine_busy": m["machine_busy"], "pg_statements": m.get("pg_statements", []),
        "pg_sessions_opened": m.get("pg_sessions", -1),
        "freshness": {"samples": len(fresh), "missed": day["freshness"].missed, "p50_s": pct(50), "p95_s": pct(95),
                      "max_s": fresh[-1] if fresh else math.nan},
        "staggered_hands": day["staggered_hands"], "boards_decided_before_window": day["decided_before"],
        "hands_acknowledged_total": len(day["ledger"].acks), "sends_never_answered": len(day["ledger"].unanswered),
        "problems": rec.problems[:30], "problem_count": rec.problem_count, "setup_problems": day["setup_problems"][:10],
        "checks": [asdict(c) for c in found],
    }


def print_report(fig: dict[str, Any]) -> None:
    print(f"\nNational day ({fig['label']}): {fig['tables']} tables, {fig['viewers']} viewers through "
          f"{fig['viewers_through']}, {fig['window_s']:.0f} s measured after {fig['warmup_s']:.0f} s warm-up; "
          f"gunicorn {fig['gunicorn']}; Celery's autogroup nice {fig.get('background_nice', 0)}; {fig['cores']} cores")
    head = f"{'':38} {'intended/s':>10} {'achieved/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>6} {'kB/s':>8} {'lag p99':>8}  statuses"
    print(head)
    for group in ("classes", "operations"):
        for name, s in fig[group].items():
            print(f"{name[:38]:38} {s['intended_per_s']:10.1f} {s['achieved_per_s']:10.1f} {s['p50_ms']:8.1f} "
                  f"{s['p95_ms']:8.1f} {s['p99_ms']:8.1f} {s['errors']:6d} {s['bytes_per_s'] / 1000:8.1f} "
                  f"{s['lag_p99_ms']:8.1f}  {' '.join(f'{k}:{v}' for k, v in s['statuses'].items())}")
        print()
    other = fig["cpu_share_of_machine"]["other processes (not this run's)"] * fig["cores"]
    print("CPU, cores used: " + ", ".join(f"{n} {c:.2f}" for n, c in sorted(fig["cpu_cores_used"].items(),
                                                                           key=lambda kv: -kv[1]))
          + f"; other processes {other:.2f}"
          + f"; machine busy {fig['machine_busy']:.1%}")
    if fig.get("pg_sessions_opened", -1) >= 0:
        print(f"PostgreSQL sessions opened in the window: {fig['pg_sessions_opened']} "
              f"({fig['pg_sessions_opened'] / max(1e-9, fig['window_s']):.2f} a second; the harness's own reads included)")
    if fig["pg_statements"]:
        print("PostgreSQL's time in the window by statement (pg_stat_statements: execution + planning), "
              "longest first:")
        for row in fig["pg_statements"]:
            print(f"  {row['total_ms']:8.0f} ms + {row['plan_ms']:6.0f} ms planning {row['calls']:8d} calls  "
                  f"{row['query']}")
    f = fig["freshness"]
    print(f"Freshness: {f['samples']} samples, p50 {f['p50_s']:.2f} s, p95 {f['p95_s']:.2f} s, max {f['max_s']:.2f} s, "
          f"{f['missed']} not seen by the end")
    print(f"Hands acknowledged in all {fig['hands_acknowledged_total']} ({fig['staggered_hands']} in the stagger); "
          f"problems {fig['problem_count']}")
    for line in fig["problems"][:10]:
        print(f"  - {line}")
    for check in fig["checks"]:
        print(f"{'PASS' if check['ok'] else 'FAIL'}  {check['name']}: {check['detail']}")


def finite(value: Any) -> Any:
    """The figures with NaN as null (JSON has no NaN)."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def write_samples(path: Path, raw: list[tuple[float, str, str, float, str]]) -> None:
    """The raw answers of the measured window, for placing the slow ones in time (docs/operations.md)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["planned_unix", "class", "op", "latency_ms", "status"])
        writer.writerows((f"{at:.3f}", klass, op, f"{lat * 1000:.1f}", status) for at, klass, op, lat, status in raw)
    print(f"{len(raw)} samples written to {path}")


def main(argv: list[str]) -> int:
    args = parse(argv)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # this process's ORM use is setup and checks only
    logging.getLogger("httpx").setLevel(logging.WARNING)
    publish_root = Path(os.environ.get("TMPDIR", "/tmp")) / f"hangjack-publish-{os.getpid()}"
    publish_root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    front = None
    try:
        with sigterm_as_exit(), Stack(web_workers=args.web_workers, web_threads=args.web_threads,
                                      worker_concurrency=args.worker_concurrency,
                                      background_nice=args.background_nice,
                                      extra_env={"PUBLISH_ROOT": str(publish_root)}) as stack:
            front = None if args.no_caddy else start_front(stack, publish_root)
            base_url = front[1] if front else stack.base_url
            if front:
                stack.extra_pids["caddy"] = front[0].pid()
            print(f"[national] stack up in {time.monotonic() - started:.0f}s: gunicorn :{stack.web_port}, "
                  f"front {base_url if front else '(none: Django directly)'}", flush=True)
            stack.use_here()
            # uvloop's event loop: the generator's CPU per request is about half of asyncio's own loop's, and
            # it is taken from the same two cores as the server it measures
            day = uvloop.run(national_day(stack, args, base_url))
            tid = day["event"].tournament_id
            found = [checks.settle([tid], args.settle)]
            found += checks.check_hands(tid, day["ledger"].acks, day["ledger"].unanswered)
            score_checks, rebuilt = checks.check_scores(tid)
            found += score_checks
            found += checks.check_standings(tid, rebuilt)
            found.append(public_order_check(f"{base_url}/api/v1/public/tournaments/{day['event'].slug}/standings/",
                                            tid, rebuilt))
            errors = sum(v.summary(1)["errors"] for v in day["recorder"].classes.values())
            found.append(checks.Check("no errors (5xx, transport failures)", errors == 0,
                                      f"{errors} in the measured window"))
            fig = figures(day, args, found, "Caddy (published files, Django behind)" if front else "Django directly")
    finally:
        if front is not None:
            front[0].stop()
        shutil.rmtree(publish_root, ignore_errors=True)
    print_report(fig)
    if args.samples and day["recorder"].raw is not None:
        write_samples(args.samples, day["recorder"].raw)
    target = args.json or (RESULTS / f"national-day-{time.strftime('%Y%m%d-%H%M', time.gmtime())}.json"
                           if fig["label"] == "full" else None)
    if target:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(finite(fig), indent=2) + "\n")
        print(f"figures written to {target}")
    failed = [c for c in found if not c.ok]
    print(f"\n{len(found) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0
