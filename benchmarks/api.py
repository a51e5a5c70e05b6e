"""Tablet hand submissions over HTTP against a minimal DRF view, in one run: p50 and p99 latency.

    .venv/bin/python benchmarks/api.py [--tablets 50] [--requests 40] [--workers 3] [--rounds 2]

A private stack (``benchmarks/load/stack.py``: PostgreSQL and Redis on free ports, gunicorn with
``docker/gunicorn.conf.py`` and the production settings) serves the real app plus one extra view,
``POST /bench/minimal/``: a DRF view with the same authentication (device token), permission and rate
limiting (``TabletWriteThrottle`` on Redis) that inserts one row (an audit event). No Celery worker runs
(the outbox still publishes to Redis).

``--tablets`` tablets are paired through the API's own services, one board each (a ``games`` match long
enough never to be decided). Each tablet is one asyncio task on one HTTP connection, sending its
requests back to back (no think time: a stress test). Phases alternate, ``--rounds`` times each: every
tablet sends ``--requests`` minimal requests, then ``--requests`` hand submissions (the next hand of its
board, tally form from the engine's seeded simulator, a fresh Idempotency-Key each). Rates are raised so
the limits count but never refuse. Prints p50/p99/mean per endpoint and the p99 ratio (the aim: the
submission's p99 at most 2x the minimal view's).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MINIMAL_PATH = "/bench/minimal/"
BENCH_RATES = {"tablet_write": "1000000/min", "login": "1000000/min", "pairing": "1000000/min"}


# ---- the server side: the app with the minimal view (gunicorn "benchmarks.api:wsgi_app()") -----------


def wsgi_app() -> Any:
    """The project's WSGI app plus ``POST /bench/minimal/``, rate limits raised (still counted)."""
    from django.conf import settings

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": BENCH_RATES}
    import django

    django.setup()
    from django.urls import path
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    import config.urls
    from api.permissions import IsTablet
    from api.throttles import TabletWriteThrottle
    from tournaments.models import AuditEvent

    class MinimalView(APIView):
        """Same authentication (the default classes: device token first), permission and throttle as a
        tablet write; one INSERT."""

        permission_classes = [IsTablet]
        throttle_classes = [TabletWriteThrottle]

        def post(self, request: Request) -> Response:
            device = request.auth
            row = AuditEvent.objects.create(tournament_id=device.tournament_id, device=device, action="bench.minimal",
                                            object_type="bench", object_id="0")
            return Response({"id": row.pk}, status=201)

    config.urls.urlpatterns.insert(0, path(MINIMAL_PATH.strip("/") + "/", MinimalView.as_view()))
    from django.core.wsgi import get_wsgi_application

    return get_wsgi_application()


# ---- the client side ---------------------------------------------------------------------------------


@dataclass
class Tablet:
    token: str
    board: int
    hands: list[tuple[int, int, dict[str, Any]]]
    next_hand: int = 0


@dataclass
class Timings:
    samples: dict[str, list[float]] = field(default_factory=lambda: {"minimal": [], "submit": []})
    failures: dict[str, int] = field(default_factory=dict)  # in the order first seen

    def failed(self, what: str) -> None:
        self.failures[what] = self.failures.get(what, 0) + 1


def hand_sequence(seed: int, count: int) -> list[tuple[int, int, dict[str, Any]]]:
    """``count`` hands of consecutive games from first dealer 0: (game number, hand number, record)."""
    from scoring.simulate import simulate_game

    out: list[tuple[int, int, dict[str, Any]]] = []
    game, dealer = 1, 0
    while len(out) < count:
        simulated = simulate_game("trinidad-tournament", seed=seed * 1000 + game, first_dealer=dealer)
        out += [(game, number, hand) for number, hand in enumerate(simulated.tally_hands, start=1)]
        dealer = simulated.hands[-1].next_dealer
        game += 1
    return out[:count]


def build_tablets(count: int, hands_each: int) -> list[Tablet]:
    """A published round of ``count`` boards, each seated and with its own paired tablet (run in-process
    against the stack's database)."""
    from scoring import RuleSet
    from tournaments.models import Board, BoardPair, Club, Entry, Pair, Player, Round, Tournament
    from tournaments.services import board_seat
    from tournaments.services.devices import device_pair, pairing_code_create

    rules = "trinidad-tournament"
    tournament = Tournament.objects.create(
        name="API benchmark", slug=f"bench-{uuid.uuid4().hex[:8]}", rules=rules, status="running", published=True,
        rules_resolved=RuleSet.from_spec(rules).to_dict(), match_format={"kind": "games", "n": 99},
    )
    club = Club.objects.create(name=f"Bench club {tournament.slug}")
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    tablets = []
    for table in range(1, count + 1):
        entries = []
        for side in range(2):
            p1 = Player.objects.create(name=f"T{table} S{side} P1", club=club)
            p2 = Player.objects.create(name=f"T{table} S{side} P2", club=club)
            pair = Pair.objects.create(player_1=p1, player_2=p2, club=club)
            entries.append(Entry.objects.create(tournament=tournament, pair=pair))
        board = Board.objects.create(round=round_, table=table, pair_a=entries[0], pair_b=entries[1],
                                     match_format=tournament.match_format)
        for side, entry in enumerate(entries):
            BoardPair.objects.create(board=board, round=round_, entry=entry, side=side)
        a, b = entries[0].pair, entries[1].pair
        board_seat(board=board, first_dealer=0,
                   seating={"0": a.player_1_id, "1": b.player_1_id, "2": a.player_2_id, "3": b.player_2_id})
        _, code = pairing_code_create(tournament=tournament, table=table, user=None)
        _, token = device_pair(code=code, label=f"bench {table}")
        tablets.append(Tablet(token=token, board=board.pk, hands=hand_sequence(table, hands_each)))
    return tablets


async def run_phase(base_url: str, tablets: list[Tablet], what: str, requests: int, timings: Timings) -> float:
    import httpx

    async def one_tablet(tablet: Tablet) -> None:
        # What a Caddy front adds: production settings redirect plain HTTP otherwise.
        headers = {"Authorization": f"Device {tablet.token}", "X-Forwarded-Proto": "https",
                   "X-Forwarded-For": "10.0.0.1"}
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=120, limits=limits) as client:
            for _ in range(requests):
                if what == "minimal":
                    path, body = MINIMAL_PATH, {}
                else:
                    game, number, hand = tablet.hands[tablet.next_hand]
                    path, body = f"/api/v1/tablet/boards/{tablet.board}/hands/", {"game": game, "number": number,
                                                                                  "hand": hand}
                key = {"Idempotency-Key": str(uuid.uuid4())}
                for _attempt in range(3):  # as a tablet does: resend the same request, same key
                    started = time.perf_counter()
                    try:
                        response = await client.post(path, json=body, headers=key)
                    except httpx.HTTPError as exc:
                        timings.failed(f"{what} {type(exc).__name__}")
                        continue
                    elapsed = time.perf_counter() - started
                    if response.status_code == 201:
                        timings.samples[what].append(elapsed)
                        if what == "submit":
                            tablet.next_hand += 1
                    else:
                        timings.failed(f"{what} {response.status_code} {response.text[:160]}")
                        if what == "submit" and "hand_number_taken" in response.text:
                            tablet.next_hand += 1  # it landed after all: go on with the next hand
                    break

    started = time.perf_counter()
    await asyncio.gather(*(one_tablet(t) for t in tablets))
    return time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered)) + 0.5) - 1))
    return ordered[index]


def report(timings: Timings, seconds: dict[str, float]) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    for what, values in timings.samples.items():
        if not values:
            continue
        figures[what] = {
            "n": len(values),
            "p50_ms": percentile(values, 50) * 1000,
            "p99_ms": percentile(values, 99) * 1000,
            "mean_ms": statistics.fmean(values) * 1000,
            "per_s": len(values) / seconds[what] if seconds.get(what) else 0.0,
        }
    return figures


def main() -> int:
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=50)
    parser.add_argument("--requests", type=int, default=40, help="requests per tablet per phase")
    parser.add_argument("--rounds", type=int, default=2, help="minimal/submit phase pairs")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (docker default: 3)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (docker default: 1)")
    args = parser.parse_args()

    from benchmarks.load.stack import VENV_BIN, Stack, sigterm_as_exit, wait_until

    class BenchStack(Stack):
        """The load harness's private stack, serving this module's app, without Celery."""

        def start_web(self) -> None:
            self.web = self._spawn([str(VENV_BIN / "gunicorn"), "--config", str(REPO / "docker/gunicorn.conf.py"),
                                    "benchmarks.api:wsgi_app()"], "gunicorn.log")
            wait_until("gunicorn", self.healthy, 60)

        def start_worker(self) -> None:
            pass

        def start_publisher(self) -> None:
            pass

        def start_beat(self) -> None:
            pass

    with sigterm_as_exit(), BenchStack(web_workers=args.workers, web_threads=args.threads) as stack:
        stack.use_here()
        hands_each = args.requests * args.rounds + 5
        tablets = build_tablets(args.tablets, hands_each)
        timings = Timings()
        seconds = {"minimal": 0.0, "submit": 0.0}
        warm = Timings()
        asyncio.run(run_phase(stack.base_url, tablets, "minimal", 3, warm))
        asyncio.run(run_phase(stack.base_url, tablets, "submit", 3, warm))
        load_before = os.getloadavg()[0]
        for _ in range(args.rounds):
            for what in ("minimal", "submit"):
                seconds[what] += asyncio.run(run_phase(stack.base_url, tablets, what, args.requests, timings))
        figures = report(timings, seconds)
        print(f"{args.tablets} tablets, {args.requests} requests each per phase, {args.rounds} rounds, "
              f"gunicorn {args.workers} workers x {args.threads} threads, private PostgreSQL and Redis; "
              f"{os.cpu_count()} cores; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
        for what, f in figures.items():
            print(f"{what:8} n={int(f['n']):5}  p50 {f['p50_ms']:7.1f} ms  p99 {f['p99_ms']:7.1f} ms  "
                  f"mean {f['mean_ms']:7.1f} ms  {f['per_s']:6.0f} req/s")
        if "minimal" in figures and "submit" in figures:
            print(f"ratio submit/minimal: p50 {figures['submit']['p50_ms'] / figures['minimal']['p50_ms']:.2f}x, "
                  f"p99 {figures['submit']['p99_ms'] / figures['minimal']['p99_ms']:.2f}x (aim: p99 at most 2x)")
        for what, count in [*warm.failures.items(), *timings.failures.items()]:
            print(f"refused: {count} x {what}")
        if timings.failures:
            print(f"server logs kept in {stack.log_dir}")
            return 1
        shutil.rmtree(stack.log_dir, ignore_errors=True)
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
