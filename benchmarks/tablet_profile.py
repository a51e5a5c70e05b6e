"""The scorer tablet's requests at a national day's size, one by one in this process: queries, query time,
CPU, each against a baseline (``GET /healthz``) of the same run.

    createdb -h 127.0.0.1 -U postgres hj_prof
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hj_prof .venv/bin/python benchmarks/tablet_profile.py
    ... benchmarks/tablet_profile.py --profile board_full        # and a cProfile top list of one operation
    ... benchmarks/tablet_profile.py --rebuild                   # set the event up again

A Swiss of ``--pairs`` pairs (default 1,000, on 500 tables; first to 2 games) on the PostgreSQL database
``DATABASE_URL`` names: the organiser, clubs, players and pairs as ``benchmarks/load/setup.py`` writes them,
the tournament, round 1's start, its publication and the tablets' pairing through the API, round 1 paired by
the worker's task (``tournaments.tasks.round_pair``, called here). Every board is seated and brought to a
staggered point of its match as the national day's run does it (0 to ``--stagger`` hands from
``scoring.simulate``, a finished game confirmed by both pairs), and ``--confirm-boards`` boards more are
played to the end of a game and left awaiting the pairs' confirmations. The set-up event is kept as a
template database (``<name>_template``, with the tablets' tokens in a file in the temporary folder) and
each run starts from a fresh copy of it, migrated (so a new migration is measured too) and analysed.

Requests go through Django's test client with the production settings (``DJANGO_SECRET_KEY`` made up when
unset; ``REDIS_URL`` default ``redis://127.0.0.1:6379/6``: the cache and rate limits in Redis, tasks queued
there and not run, so a write's renders are not counted) and the proxy's headers the tablets send behind
Caddy. Per operation: requests, queries per request, the time the queries took per request (measured
around each ``execute`` with ``connection.execute_wrapper``: the round trip as this process sees it), this
process's CPU per request (``time.process_time``: Django, DRF, the services, psycopg) and the PostgreSQL
backend's CPU per request (its ``/proc/<pid>/stat``, a 10 ms tick: read it over many requests), and the
ratio of their sum to the baseline's. Operations, at the national day's mix (docs/operations.md):

* ``healthz``: the baseline, ``GET /healthz`` (one query);
* ``board_304``: ``GET /api/v1/tablet/board/`` with the ETag of the state shown in If-None-Match;
* ``board_full``: the same read in full (200 with the state), as after a write;
* ``preview``: ``POST …/preview/`` of the board's next hand;
* ``hand``: ``POST …/hands/``, the next hand of a board (each on another board);
* ``confirm``: ``POST …/confirmations/``, a pair confirming a finished game (pair A, then pair B).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import logging
import os
import pstats
import random
import secrets
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

TICK = os.sysconf("SC_CLK_TCK")
OPERATIONS = ("healthz", "board_304", "board_full", "preview", "hand", "confirm")


# ---- the database: a template kept, a fresh copy each run ------------------------------------------------


def admin_connect(url: str) -> Any:
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(host=parts.hostname or "127.0.0.1", port=parts.port or 5432,
                           user=parts.username or "postgres", password=parts.password, dbname="postgres",
                           autocommit=True)


def database_exists(url: str, name: str) -> bool:
    with admin_connect(url) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def recreate(url: str, name: str, template: str | None = None) -> None:
    """Drop ``name`` and create it empty, or as a copy of ``template``."""
    from psycopg import sql

    with admin_connect(url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if template is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        else:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template)))


def django_setup(settings_module: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no collected static files here
    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host, the local-memory mail
    for name in ("celery", "django", "django.request", "django.server", "api", "tournaments", "publishing"):
        logging.getLogger(name).setLevel(logging.ERROR)


# ---- the tablet, as the national day's Scorer drives it (benchmarks/load/national.py) ---------------------


@dataclass
class Tablet:
    table: int
    token: str
    headers: dict[str, str] = field(default_factory=dict)
    etag: str = ""
    state: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        from benchmarks.load.national import proxy_headers

        raw = {**proxy_headers(f"10.{self.table // 250}.{self.table % 250}.1"), "Accept": "application/json",
               "Authorization": f"Device {self.token}"}
        self.headers = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in raw.items()}

    def get(self, client: Any, *, conditional: bool = False) -> Any:
        headers = {**self.headers, "HTTP_IF_NONE_MATCH": self.etag} if conditional else self.headers
        response = client.get("/api/v1/tablet/board/", **headers)
        if response.status_code == 200:
            self.state, self.etag = response.json(), response["ETag"]
        elif response.status_code != 304:
            raise SystemExit(f"table {self.table}: board read {response.status_code}: {response.content[:300]!r}")
        return response

    def post(self, client: Any, what: str, body: dict[str, Any], expect: int) -> Any:
        assert self.state is not None
        response = client.post(f"/api/v1/tablet/boards/{self.state['board']}/{what}/", data=json.dumps(body),
                               content_type="application/json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex, **self.headers)
        if response.status_code != expect:
            raise SystemExit(f"table {self.table}: {what} {response.status_code}: {response.content[:300]!r}")
        return response

    def playable(self) -> bool:
        s = self.state
        return bool(s and not s["result"]["decided"] and s["seating"] is not None and s["game_status"] == "in_play")

    def next_hand(self, seed: int) -> dict[str, Any]:
        """The board's next hand, simulated from its score and next dealer (as ``Scorer.simulate``)."""
        from scoring.simulate import simulate_game

        s = self.state
        assert s is not None
        rng = random.Random(seed)
        game = simulate_game(s["rules"], seed=rng.randrange(2**31), score=s["score"], first_dealer=int(s["next_dealer"]))
        hands = game.play_hands if rng.random() < 0.5 else game.tally_hands
        return {"game": s["game_number"], "number": s["next_hand_number"], "hand": hands[0]}

    def play(self, client: Any, seed: int) -> bool:
        """One hand; a game it finishes is left for the pairs to confirm. True when it finished a game."""
        sent = self.post(client, "hands", self.next_hand(seed), 201)
        self.get(client)
        return bool(sent.json().get("game_status") == "finished")

    def confirm(self, client: Any) -> None:
        assert self.state is not None
        game = next(g["number"] for g in self.state["games"] if g["status"] == "finished" and not g["confirmations"])
        for side in ("a", "b"):
            self.post(client, "confirmations", {"game": game, "side": side, "agrees": True}, 201)
        self.get(client)


# ---- setting the event up ---------------------------------------------------------------------------------


def build(client: Any, pairs: int, stagger: int, confirm_boards: int, seed: int) -> dict[str, Any]:
    """The event (see the module's docstring); returns what a run needs: the tablets' tokens."""
    from benchmarks.load.setup import create_organiser, register_pairs
    from tournaments import tasks
    from tournaments.models import Round

    started = time.monotonic()
    organiser = {"HTTP_AUTHORIZATION": f"Token {create_organiser('organiser')}", "HTTP_X_FORWARDED_PROTO": "https"}

    def call(path: str, body: Any, expect: int) -> Any:
        response = client.post(path, data=json.dumps(body), content_type="application/json", **organiser)
        if response.status_code != expect:
            raise SystemExit(f"{path}: {response.status_code}: {response.content[:300]!r}")
        return response.json()

    slug = f"national-day-{secrets.token_hex(3)}"
    tournament = call("/api/v1/tournaments/", {
        "name": f"national-day {slug[-6:]}", "slug": slug, "rules": "trinidad-tournament", "pairing_system": "swiss",
        "match_format": {"kind": "first_to", "n": 2}, "rounds_planned": 50, "published": True, "status": "running",
    }, 201)
    tid = int(tournament["id"])
    register_pairs(tid, pairs)
    round_ = call(f"/api/v1/tournaments/{tid}/rounds/", {}, 201)
    tasks.round_pair(int(round_["id"]))  # the worker's task, run here
    if Round.objects.get(pk=round_["id"]).status != Round.Status.DRAFTED:
        raise SystemExit("round 1 was not paired")
    call(f"/api/v1/rounds/{round_['id']}/publish/", {}, 200)
    tables = pairs // 2
    codes: dict[int, str] = {}
    for start in range(1, tables + 1, 50):
        chunk = list(range(start, min(tables, start + 49) + 1))
        codes.update({int(r["table"]): str(r["code"]) for r in call(f"/api/v1/tournaments/{tid}/pairing-codes/",
                                                                    {"tables": chunk}, 201)})
    tokens: dict[int, str] = {}
    for table, code in codes.items():
        response = client.post("/api/v1/tablet/pair/", data=json.dumps({"code": code, "label": f"Table {table} tablet"}),
                               content_type="application/json", HTTP_X_FORWARDED_PROTO="https",
                               HTTP_X_FORWARDED_FOR=f"10.0.{table % 250}.1")
        if response.status_code != 201:
            raise SystemExit(f"table {table}: pairing {response.status_code}: {response.content[:300]!r}")
        tokens[table] = str(response.json()["token"])
    print(f"[setup] {pairs} pairs, round 1 paired and published, {tables} tablets paired after "
          f"{time.monotonic() - started:.0f} s", flush=True)
    rng = random.Random(seed)
    hands = 0
    for table in range(1, tables + 1):  # seat every board, then the stagger (benchmarks/load/national_run.py)
        tablet = Tablet(table, tokens[table])
        state = tablet.get(client).json()
        a, b = state["pairs"]["a"]["players"], state["pairs"]["b"]["players"]
        tablet.post(client, "seating", {"seating": {"0": a[0]["id"], "1": b[0]["id"], "2": a[1]["id"], "3": b[1]["id"]},
                                        "first_dealer": rng.randrange(4)}, 200)
        tablet.get(client)
        last = table > tables - confirm_boards  # played to the end of a game, left awaiting confirmation
        for _ in range(1000 if last else rng.randint(0, stagger)):
            if not tablet.playable():
                break
            hands += 1
            if tablet.play(client, rng.randrange(2**31)):
                if last:
                    break
                tablet.confirm(client)
        if table % 100 == 0:
            print(f"[setup] {table} boards seated and staggered ({hands} hands) after "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    return {"tournament": tid, "tokens": tokens, "confirm_boards": confirm_boards, "hands": hands}


# ---- measuring ---------------------------------------------------------------------------------------------


@dataclass
class Figures:
    requests: int = 0
    queries: int = 0
    query_seconds: float = 0.0
    cpu_seconds: float = 0.0
    pg_ticks: int = 0

    def per(self, value: float) -> float:
        return value / self.requests if self.requests else 0.0

    @property
    def pg_seconds(self) -> float:
        return self.pg_ticks / TICK

    def total_ms(self) -> float:
        return self.per(self.cpu_seconds + self.pg_seconds) * 1000


class Meter:
    """Queries, their time, this process's CPU and the PostgreSQL backend's CPU, summed over ``one()``."""

    def __init__(self) -> None:
        from django.db import connection

        self.connection = connection
        self.figures: dict[str, Figures] = {op: Figures() for op in OPERATIONS}
        self.current: Figures | None = None
        self.profiler: cProfile.Profile | None = None
        self.profiled = ""

    def backend_ticks(self) -> int:
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        raw = Path(f"/proc/{pid}/stat").read_text()
        fields = raw[raw.rfind(")") + 2:].split()
        return int(fields[11]) + int(fields[12])

    def wrapper(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            if self.current is not None:
                self.current.queries += 1
                self.current.query_seconds += time.perf_counter() - start

    @contextmanager
    def one(self, op: str) -> Iterator[None]:
        figures = self.figures[op]
        ticks = self.backend_ticks()
        self.current = figures
        profiler = self.profiler if op == self.profiled else None
        cpu = time.process_time()
        if profiler is not None:
            profiler.enable()
        try:
            with self.connection.execute_wrapper(self.wrapper):
                yield
        finally:
            if profiler is not None:
                profiler.disable()
            figures.cpu_seconds += time.process_time() - cpu
            self.current = None
            figures.requests += 1
            figures.pg_ticks += self.backend_ticks() - ticks


def measure(client: Any, tablets: list[Tablet], confirming: list[Tablet], meter: Meter, args: argparse.Namespace) -> None:
    healthz = {"HTTP_X_FORWARDED_PROTO": "https"}
    for t in tablets + confirming:
        t.get(client)  # the state and tag each shows
    in_play = [t for t in tablets if t.playable()]
    for i in range(args.warmup):  # a warm process: imports, the URL resolver, the first queries' plans
        client.get("/healthz", **healthz)
        tablets[i % len(tablets)].get(client, conditional=True)
        tablets[i % len(tablets)].get(client)
    for rnd in range(args.rounds):
        for i in range(args.reads):
            with meter.one("healthz"):
                response = client.get("/healthz", **healthz)
            assert response.status_code == 200, response.content[:200]
            t = tablets[(rnd * args.reads + i) % len(tablets)]
            with meter.one("board_304"):
                response = t.get(client, conditional=True)
            assert response.status_code == 304, response.status_code
            t = tablets[(rnd * args.reads + i + 7) % len(tablets)]
            with meter.one("board_full"):
                response = t.get(client)
            assert response.status_code == 200
        for i in range(args.reads):
            t = in_play[(rnd * args.reads + i) % len(in_play)]
            body = t.next_hand(i)
            with meter.one("preview"):
                t.post(client, "preview", {"game": body["game"], "hand": body["hand"]}, 200)
    hands = 0
    for t in in_play:
        if hands >= args.hands:
            break
        if not t.playable():
            continue
        body = t.next_hand(hands)
        with meter.one("hand"):
            t.post(client, "hands", body, 201)
        t.get(client)
        hands += 1
    for t in confirming:
        if t.state is None or not any(g["status"] == "finished" and not g["confirmations"] for g in t.state["games"]):
            continue
        game = next(g["number"] for g in t.state["games"] if g["status"] == "finished" and not g["confirmations"])
        for side in ("a", "b"):
            with meter.one("confirm"):
                t.post(client, "confirmations", {"game": game, "side": side, "agrees": True}, 201)


def report(meter: Meter, pairs: int) -> None:
    base = meter.figures["healthz"].total_ms() or 1.0
    print(f"\n{pairs} pairs on {pairs // 2} tables; per request:")
    print(f"{'operation':<12}{'requests':>9}{'queries':>9}{'query ms':>10}{'CPU ms':>9}{'PG CPU ms':>11}"
          f"{'total ms':>10}{'ratio':>9}")
    for op in OPERATIONS:
        f = meter.figures[op]
        if not f.requests:
            continue
        print(f"{op:<12}{f.requests:>9}{f.per(f.queries):>9.1f}{f.per(f.query_seconds) * 1000:>10.2f}"
              f"{f.per(f.cpu_seconds) * 1000:>9.2f}{f.per(f.pg_seconds) * 1000:>11.2f}{f.total_ms():>10.2f}"
              f"{f.total_ms() / base:>8.1f}x")
    print("CPU ms: this process (Django, DRF, the services, psycopg); PG CPU ms: the PostgreSQL backend; "
          "ratio: their sum against healthz's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--stagger", type=int, default=4, help="a board starts 0..N hands into its match")
    parser.add_argument("--confirm-boards", type=int, default=40, help="boards left with a game to confirm")
    parser.add_argument("--reads", type=int, default=200, help="requests of each read (and previews) a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=200, help="hand writes, each on another board")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--settings", default="config.settings.production")
    parser.add_argument("--rebuild", action="store_true", help="set the event up again (the template is replaced)")
    parser.add_argument("--profile", choices=OPERATIONS, help="print a cProfile top list of this operation")
    parser.add_argument("--top", type=int, default=35)
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("DATABASE_URL must name a PostgreSQL database (e.g. postgres://postgres@127.0.0.1:5432/hj_prof)")
    name = urlsplit(url).path.lstrip("/")
    template = f"{name}_template"
    saved = Path(tempfile.gettempdir()) / f"hangjack-tablet-profile-{template}-{args.pairs}.json"
    fresh = args.rebuild or not saved.exists() or not database_exists(url, template)
    recreate(url, name, None if fresh else template)
    django_setup(args.settings)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("migrate", verbosity=0)
    client = Client()
    if fresh:
        event = build(client, args.pairs, args.stagger, args.confirm_boards, args.seed)
        connection.close()
        recreate(url, template, name)
        saved.write_text(json.dumps(event))
    else:
        event = json.loads(saved.read_text())
    with connection.cursor() as cursor:  # the planner's statistics, as autovacuum keeps them on the day
        cursor.execute("ANALYZE")
    tokens = {int(k): v for k, v in event["tokens"].items()}
    tables = len(tokens)
    confirming = [Tablet(t, tokens[t]) for t in range(tables - event["confirm_boards"] + 1, tables + 1)]
    tablets = [Tablet(t, tokens[t]) for t in range(1, tables - event["confirm_boards"] + 1)]
    meter = Meter()
    if args.profile:
        meter.profiler, meter.profiled = cProfile.Profile(), args.profile
    measure(client, tablets, confirming, meter, args)
    report(meter, args.pairs)
    if meter.profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(meter.profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(args.top)
        print(f"\ncProfile of {args.profile} ({meter.figures[args.profile].requests} requests), by cumulative time:")
        print(out.getvalue())


if __name__ == "__main__":
    main()
