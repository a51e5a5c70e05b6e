"""``make drills``: seven fault drills on a private stack; each prints what it checked and PASS/FAIL.

    python -m benchmarks.drills.run          # exit status 1 when any check failed

The stack is ``benchmarks.load.stack.Stack`` with ``benchmarks.drills.settings`` (production, with a
10 s Redis visibility timeout and a 3 s outbox sweep, the published results on): PostgreSQL and Redis are
private instances on free ports, never the machine's shared services; a worker serves the default queue
and a publisher the "publish" queue, one process each; the published files go to a temporary folder. One Swiss of 8 pairs on 4 tables, first to 3 games, played
by paired tablets over the API with simulated hands:

1. Redis stopped in the middle of round 1: hands and confirmations are still accepted and stored, the
   outbox fills, standings wait; once Redis is back the sweep publishes and standings catch up.
2. The Celery worker SIGKILLed in the middle of a standings recomputation, then of a pairing (each task
   held on the tournament's row lock so the kill lands mid-task): the task is delivered again after the
   visibility timeout, runs to the end once, and the result is right.
3. PostgreSQL restarted under three tablets and a viewer: 503 with Retry-After (never 500), the retries
   with the same keys succeed.
4. One tablet sends the same hand 100 times with one key (10 at a time), then 20 times with new keys:
   one hand stored.
5. A replaced tablet: after its table is paired to a new device, the old token gets 401 (reads, new
   writes and replays of its own keys) and the new tablet scores on.
6. A refused game: a dispute that keeps the game out of the standings and the round open, that neither
   pair can overwrite, and that the organiser resolves by confirming the game.
7. The publisher SIGKILLed in the middle of a render (run after drill 3, on a board still in play): held on
   the boards' table (locked from outside: the render reads it first), the render is delivered again after
   the visibility timeout, the published standings become current and every published file is whole.

At the end, over everything the drills sent: no acknowledged hand lost, none doubled, every game equal
to its rescoring by the engine, standings equal to a full recomputation from the hand log, and the public
(published) standings showing that order.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import psycopg

from benchmarks.load import checks
from benchmarks.load.actors import Ack, Behaviour, Ledger, Organiser, Tablet
from benchmarks.load.checks import Check
from benchmarks.load.client import Api, Recorder, error_code, percentile
from benchmarks.load.setup import Event, create_event, pair_tablet, pairing_codes
from benchmarks.load.stack import HOST, Stack, sigterm_as_exit
from scoring.simulate import simulate_game

FAST = Behaviour(hand_interval=(0.0, 0.05), retry=0.0, duplicate=0.0, reused_key=0.0, tablet_confirms=1.0,
                 play_form=0.5, attempts=60)
TABLES = 4


def log(text: str) -> None:
    print(text, flush=True)


def _statuses(counts: dict[str, Counter[str]], *ops: str) -> Counter[str]:
    total: Counter[str] = Counter()
    for op, c in counts.items():
        if not ops or op in ops:
            total.update(c)
    return total


def _parses(body: bytes, parse: Callable[[bytes], Any]) -> bool:
    try:
        parse(body)
    except ValueError:
        return False
    return True


def _fivexx(counts: dict[str, Counter[str]]) -> int:
    return sum(n for c in counts.values() for s, n in c.items() if s.startswith("5") and s != "503")


class TournamentLock:
    """Hold the tournament's row lock from outside, as a long task would: the next pairing or standings
    recomputation of that tournament waits on it (both lock the row first). ``boards``: the boards' table
    instead, in ACCESS EXCLUSIVE mode, which even a plain read waits on (a publisher's render reads the
    boards first; it takes no row lock)."""

    def __init__(self, port: int, tournament_id: int, *, boards: bool = False) -> None:
        from tournaments.models import Board, Tournament

        self.port = port
        self.conn = psycopg.connect(host=HOST, port=port, user="postgres", dbname="hangjack")
        if boards:
            self.conn.execute(f"LOCK TABLE {Board._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        else:
            self.conn.execute(f"SELECT id FROM {Tournament._meta.db_table} WHERE id = %s FOR UPDATE",
                              (tournament_id,))
        self.pid = self.conn.info.backend_pid

    def waiting(self) -> int:
        """How many other backends wait on this lock right now."""
        with psycopg.connect(host=HOST, port=self.port, user="postgres", dbname="hangjack", autocommit=True) as mon:
            row = mon.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                              (self.pid,)).fetchone()
        return int(row[0]) if row else 0

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


class Drills:
    def __init__(self, stack: Stack, client: httpx.AsyncClient, recorder: Recorder, ledger: Ledger, event: Event,
                 organiser: Organiser) -> None:
        self.stack = stack
        self.client = client
        self.recorder = recorder
        self.ledger = ledger
        self.event = event
        self.organiser = organiser
        self.tid = event.tournament_id
        self.tablets = {t: self.tablet(t, token) for t, token in event.tablet_tokens.items()}
        self.public = Api(client, recorder, address="127.0.3.1")
        self.round_id: int | None = None

    def tablet(self, table: int, token: str, behaviour: Behaviour = FAST) -> Tablet:
        return Tablet(table, token, self.client, self.recorder, self.ledger, seed=7919 * table + len(self.ledger.acks),
                      behaviour=behaviour)

    # ---- play -------------------------------------------------------------------------------------------
    async def play(self, table: int, *, games: int = 1, confirm: bool = True, seconds: float = 60.0) -> int:
        """Play ``games`` whole games at ``table`` (seating first when needed); hands acknowledged."""
        tablet = self.tablets[table]
        until = time.monotonic() + seconds
        finished = acked = 0
        while finished < games and time.monotonic() < until:
            state = await tablet.board()
            if state is None or state["result"]["decided"]:
                return acked
            if state["seating"] is None:
                await tablet.seat(state, until)
                continue
            board, game = int(state["board"]), int(state["game_number"])
            simulated = simulate_game(state["rules"], seed=tablet.rng.randrange(2**31), score=state["score"],
                                      first_dealer=int(state["next_dealer"]))
            hands = simulated.play_hands if tablet.rng.random() < 0.5 else simulated.tally_hands
            first = int(state["next_hand_number"])
            for offset, record in enumerate(hands):
                answer = await tablet.submit(board, game, first + offset, record, until)
                if answer is None:
                    return acked
                acked += 1
                if answer.get("game_status") == "finished":
                    finished += 1
                    if confirm:
                        await tablet.confirm(board, game, until)
                    break
        return acked

    async def play_all(self, *, games: int = 1, confirm: bool = True) -> int:
        counts = await asyncio.gather(*(self.play(t, games=games, confirm=confirm) for t in self.tablets))
        return sum(counts)

    async def undecided_table(self) -> int | None:
        for table, tablet in self.tablets.items():
            state = await tablet.board()
            if state is not None and not state["result"]["decided"]:
                return table
        return None

    async def next_round(self) -> dict[str, Any] | None:
        """Start (the worker pairs it) and publish the next round."""
        round_ = await self.organiser.start_round(timeout=60)
        if round_ is None:
            return None
        await self.organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/", expect=200)
        self.round_id = int(round_["id"])
        return round_

    async def close_round(self) -> bool:
        assert self.round_id is not None
        response = await self.organiser.call("round_close", "POST", f"/api/v1/rounds/{self.round_id}/close/",
                                             expect=200, json={"confirm_remaining": True})
        return response is not None

    def standings_checks(self) -> list[Check]:
        found, rebuilt = checks.check_scores(self.tid)
        return found + checks.check_standings(self.tid, rebuilt)

    async def wait_for(self, what: str, check: Callable[[], bool], timeout: float) -> Check:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            try:
                if check():
                    return Check(what, True, f"after {time.monotonic() - started:.1f}s")
            except Exception:  # noqa: BLE001 - the database or broker coming back
                from django.db import connections

                connections.close_all()
            await asyncio.sleep(0.25)
        return Check(what, False, f"not within {timeout:.0f}s")

    # ---- 1. Redis stopped ---------------------------------------------------------------------------------
    async def drill_redis(self) -> list[Check]:
        found: list[Check] = []
        await self.play_all(games=1)
        settled = checks.settle([self.tid], 30)
        found.append(Check("before the outage: outbox empty, standings current", settled.ok, settled.detail))
        self.stack.redis.stop()
        log("  Redis stopped")
        before, acks_before, sent = self.recorder.snapshot(), len(self.ledger.acks), time.monotonic()
        durations_before = {op: len(self.recorder.durations.get(op, [])) for op in ("hand_submit", "tablet_confirm")}
        acked = await self.play_all(games=1)
        standings = await self.public.request("public_standings", "GET",
                                              f"/api/v1/public/tournaments/{self.event.slug}/standings/")
        during = self.recorder.since(before)
        submits = self.recorder.durations["hand_submit"][durations_before["hand_submit"]:]
        confirms = self.recorder.durations["tablet_confirm"][durations_before["tablet_confirm"]:]
        writes = _statuses(during, "hand_submit", "tablet_confirm", "tablet_seating")
        found.append(Check(
            "hands and confirmations accepted and stored with Redis down",
            acked > 0 and len(self.ledger.acks) - acks_before == acked and _fivexx(during) == 0
            and set(writes) <= {"200", "201"},
            f"{acked} hands acknowledged in {time.monotonic() - sent:.1f}s, writes answered {dict(writes)}; "
            f"hand submission p50 {percentile(submits, 50) * 1000:.0f} ms, max {max(submits or [0]) * 1000:.0f} ms; "
            f"confirmation p50 {percentile(confirms, 50) * 1000:.0f} ms, max {max(confirms or [0]) * 1000:.0f} ms",
        ))
        slow = [d for d in submits + confirms if d > 2.0]
        if slow:
            log(f"  NOTE: {len(slow)} of {len(submits) + len(confirms)} hands and confirmations took over 2 s with "
                f"Redis down (max {max(slow):.1f}s): a game-ending hand or a confirmation publishes to the broker on "
                "commit, and kombu can retry a refused connection for about 6 s before the outbox gives up "
                "(docs/operations.md)")
        found.append(Check("public standings still served (cache fails open)",
                           standings is not None and standings.status_code == 200,
                           f"answered {standings.status_code if standings is not None else 'nothing'}"))
        unsent = checks.unsent_outbox()
        found.append(Check("the outbox filled", unsent > 0, f"{unsent} outbox rows unsent"))
        stale = not checks.standings_current(self.tid)
        found.append(Check("standings wait for Redis (the new games are not in them yet)", stale,
                           "snapshot older than the results" if stale else "snapshot already current"))
        self.stack.redis.start()
        log("  Redis started again")
        back = time.monotonic()
        settled = checks.settle([self.tid], 90)
        found.append(Check("standings caught up once Redis was back (outbox sweep)", settled.ok,
                           f"{settled.detail} ({time.monotonic() - back:.1f}s after Redis came back)"))
        found.append(await self.published_current("the published standings caught up too (publisher)", 60, back))
        up = self.services_up(60)
        found.append(Check("the worker and the publisher are up after the outage", up,
                           f"restarted by the stack (Docker's restart policy): {self.stack.restarts or 'none'}"))
        if self.stack.restarts:
            log(f"  NOTE: {self.stack.restarts} exited on the broker's loss and were started again: Celery/kombu 5.7 "
                "end a worker holding an unacknowledged message when Redis goes away (\"Unrecoverable error: "
                "AttributeError ... 'hostname'\", docs/operations.md)")
        found += self.standings_checks()
        return found

    def services_up(self, timeout: float) -> bool:
        """The worker and the publisher running within ``timeout`` seconds: one that exited on the broker's loss is
        being started again by the stack's supervisor (Docker's restart policy), which holds the stack's lock
        until the new process says it is ready; until then the dead process is still the one on record."""
        deadline = time.monotonic() + timeout
        while True:
            with self.stack._lock:  # a restart in progress finishes first
                up = all(p is not None and p.poll() is None for p in (self.stack.worker, self.stack.publisher))
            if up or time.monotonic() >= deadline:
                return up
            time.sleep(0.5)

    async def published_current(self, what: str, timeout: float, since: float) -> Check:
        """Wait until the public standings (the published file, served by Django or Caddy) show the order
        recomputed from the hand log."""
        deadline, last = time.monotonic() + timeout, "no answer"
        while time.monotonic() < deadline:
            answer = await self.public.request("public_standings", "GET",
                                               f"/api/v1/public/tournaments/{self.event.slug}/standings/")
            if answer is not None and answer.status_code == 200:
                _, rebuilt = checks.check_scores(self.tid)
                shown = checks.check_standings(self.tid, rebuilt, list(answer.json()["rows"]))[-1]
                if shown.ok:
                    return Check(what, True, f"{shown.detail} ({time.monotonic() - since:.1f}s)")
                last = shown.detail
            await asyncio.sleep(0.5)
        return Check(what, False, f"not within {timeout:.0f}s: {last}")

    # ---- 2. the worker killed -------------------------------------------------------------------------------
    async def kill_mid_task(self, task: str, trigger: Callable[[], Awaitable[Any]]) -> tuple[list[Check], str | None]:
        """Stop the worker, ``trigger`` a ``task``, hold the tournament row, start a worker, SIGKILL it while
        the task waits on the row, release; returns the checks and the killed task's id."""
        found: list[Check] = []
        self.stack.stop_worker()
        await trigger()
        lock = TournamentLock(self.stack.pg.port, self.tid)
        try:
            self.stack.start_worker()
            killed_log = self.stack.worker_log

            def running() -> list[str]:
                text = killed_log.read_text(errors="replace")
                done = set(re.findall(rf"Task tournaments\.tasks\.{task}\[([0-9a-f-]+)\] succeeded", text))
                received = re.findall(rf"Task tournaments\.tasks\.{task}\[([0-9a-f-]+)\] received", text)
                return [t for t in received if t not in done]

            blocked = await self.wait_for(f"{task} under way and waiting on the tournament row",
                                          lambda: bool(running()) and lock.waiting() > 0, 30)
            found.append(blocked)
            task_id = running()[0] if running() else None
            self.stack.kill_worker()
            log(f"  worker SIGKILLed with {task}[{task_id}] in progress")
            found.append(Check("the worker was killed in the middle of the task", blocked.ok and task_id is not None,
                               f"task {task_id} received, not finished, when the worker was killed"))
        finally:
            await asyncio.sleep(0.5)
            lock.release()
        return found, task_id

    async def redelivered(self, task: str, task_id: str | None, timeout: float = 45.0) -> Check:
        """Wait for the new worker to receive the killed task again and finish it."""
        log_file, started = self.stack.worker_log, time.monotonic()

        def seen(what: str) -> bool:
            return task_id is not None and f"{task}[{task_id}] {what}" in log_file.read_text(errors="replace")

        while time.monotonic() - started < timeout and not seen("succeeded"):
            await asyncio.sleep(0.25)
        return Check("the killed task was delivered again and ran to its end", seen("received") and seen("succeeded"),
                     f"task {task_id}: {'received' if seen('received') else 'not received'} by the new worker and "
                     f"{'succeeded' if seen('succeeded') else 'not finished'} {time.monotonic() - started:.1f}s after "
                     "it started (visibility timeout 10 s)")

    async def drill_worker(self) -> list[Check]:
        from tournaments.models import AuditEvent, Board, BoardPair, Round

        found: list[Check] = []
        # a) a standings recomputation
        table = await self.undecided_table()
        if table is None:
            return [Check("an undecided board to play on", False, "every board is decided")]

        async def finish_a_game() -> int:
            return await self.play(table, games=1, confirm=True)

        log("  a) standings recomputation")
        part, task_id = await self.kill_mid_task("standings_recompute", finish_a_game)
        found += part
        stale = not checks.standings_current(self.tid)
        found.append(Check("nothing stored by the killed recomputation", stale,
                           "snapshot still older than the results" if stale else "snapshot already current"))
        self.stack.start_worker()
        found.append(await self.redelivered("standings_recompute", task_id))
        found.append(await self.wait_for("standings current again", lambda: checks.standings_current(self.tid), 30))
        found += self.standings_checks()

        # b) a pairing
        log("  b) pairing")
        if not await self.close_round():
            return [*found, Check("round 1 closed", False, "the organiser could not close it")]
        settled = checks.settle([self.tid], 30)
        found.append(Check("round 1 closed and standings settled before the pairing", settled.ok, settled.detail))
        started: dict[str, Any] = {}

        async def start_round() -> None:
            response = await self.organiser.call("round_start", "POST", f"/api/v1/tournaments/{self.tid}/rounds/",
                                                 expect=201, json={})
            started.update(response.json() if response is not None else {})

        part, task_id = await self.kill_mid_task("round_pair", start_round)
        found += part
        round_id = int(started.get("id", 0))
        status = Round.objects.filter(pk=round_id).values_list("status", flat=True).first()
        found.append(Check("the round waits, pending, after the kill", started.get("status") == "pending"
                           and status == "pending", f"round {round_id} answered {started.get('status')}, now {status}"))
        self.stack.start_worker()
        drafted = await self.wait_for(
            "the round drafted by the redelivered task",
            lambda: Round.objects.filter(pk=round_id).values_list("status", flat=True).first() == "drafted", 45)
        found.append(drafted)
        found.append(await self.redelivered("round_pair", task_id))
        boards = Board.objects.filter(round_id=round_id).count()
        seats = list(BoardPair.objects.filter(round_id=round_id).values_list("entry_id", flat=True))
        pairings = AuditEvent.objects.filter(action="round.pair", object_id=str(round_id)).count()
        found.append(Check("the pairing is right: every pair seated once, paired once",
                           boards == TABLES and len(seats) == 2 * TABLES and len(set(seats)) == 2 * TABLES
                           and pairings == 1,
                           f"{boards} boards, {len(seats)} seats for {len(set(seats))} pairs, {pairings} pairing(s) "
                           "in the audit trail"))
        published = await self.organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_id}/publish/",
                                              expect=200)
        self.round_id = round_id
        found.append(Check("round 2 published", published is not None, ""))
        return found

    # ---- 7. the publisher killed mid-render ----------------------------------------------------------------
    async def drill_publisher(self) -> list[Check]:
        """Stop the publisher, confirm a game (the worker recomputes the standings), lock the boards' table,
        start a publisher, SIGKILL it while the render waits on the table, release; a new publisher receives
        the same messages again and the published standings become current."""
        found: list[Check] = []
        table = await self.undecided_table()
        if table is None:
            return [Check("an undecided board to play on", False, "every board is decided")]
        self.stack.stop_publisher()
        await self.play(table, games=1, confirm=True)
        settled = checks.settle([self.tid], 30)
        found.append(Check("publisher stopped, a game confirmed: outbox sent and standings current (the worker)",
                           settled.ok, settled.detail))
        # a render is a publish_event or the beat's sweep (queued while the publisher was down, it can come
        # first to the new publisher, whose one process then renders there and holds the other messages back)
        pattern = r"Task (publishing\.tasks\.(?:publish_event|sweep)\[[0-9a-f-]+\]) {}"
        lock = TournamentLock(self.stack.pg.port, self.tid, boards=True)
        killed: list[str] = []
        try:
            self.stack.start_publisher()
            killed_log = self.stack.publisher_log

            def unfinished() -> list[str]:
                text = killed_log.read_text(errors="replace")
                done = set(re.findall(pattern.format("(?:succeeded|retry)"), text))
                return [t for t in dict.fromkeys(re.findall(pattern.format("received"), text)) if t not in done]

            blocked = await self.wait_for("a render under way and waiting on the boards' table",
                                          lambda: bool(unfinished()) and lock.waiting() > 0, 30)
            found.append(blocked)
            killed = unfinished()
            self.stack.kill_publisher()
            log(f"  publisher SIGKILLed with {killed} received and unfinished")
            found.append(Check("the publisher was killed in the middle of a render", blocked.ok and bool(killed),
                               f"{len(killed)} render task(s) received, not finished, when it was killed: {killed}"))
        finally:
            await asyncio.sleep(0.5)
            lock.release()
        restarted = time.monotonic()
        self.stack.start_publisher()
        new_log = self.stack.publisher_log

        def redone() -> bool:
            text = new_log.read_text(errors="replace")
            return bool(killed) and all(f"{t} received" in text and f"{t} succeeded" in text for t in killed)

        again = await self.wait_for("the killed render(s) delivered again to the new publisher and run to the end",
                                    redone, 45)
        found.append(Check(again.name, again.ok, f"{len(killed)} task(s), {again.detail} (visibility timeout 10 s)"))
        found.append(await self.published_current("the published standings current again", 30, restarted))
        found.append(self.files_whole())
        return found

    def files_whole(self) -> Check:
        """Every published file whole: each JSON parses, each gzip unpacks to its page; a temporary file left by
        the kill (never served: no address names it) is counted, not failed."""
        import gzip
        import json
        from pathlib import Path

        root = Path(self.stack.extra_env["PUBLISH_ROOT"])
        pages = [p for p in root.rglob("index.*") if ".state" not in p.parts and not p.name.endswith(".gz")]
        broken: list[str] = []
        for page in pages:
            body = page.read_bytes()
            packed = page.with_name(page.name + ".gz")
            if not body or (page.suffix == ".json" and not _parses(body, json.loads)) or (
                    packed.exists() and gzip.decompress(packed.read_bytes()) != body):
                broken.append(str(page.relative_to(root)))
        temps = [p for p in root.rglob(".tmp-*") if ".state" not in p.parts]
        return Check("no published file half-written", bool(pages) and not broken,
                     f"{len(pages)} pages and their gzip checked, {len(broken)} broken {broken[:3]}; "
                     f"{len(temps)} temporary file(s) left by the kill (never served)")

    # ---- 3. PostgreSQL restarted --------------------------------------------------------------------------
    async def drill_postgres(self) -> list[Check]:
        from django.db import connections

        found: list[Check] = []
        before, acks_before = self.recorder.snapshot(), len(self.ledger.acks)
        unanswered_before = len(self.ledger.unanswered)
        steady = Behaviour(hand_interval=(0.6, 0.9), retry=0.05, duplicate=0.05, reused_key=0.0, tablet_confirms=1.0,
                           attempts=60)
        # tables 1-3 play; table 4 stays quiet so drill 4 starts with its tablet's rate limit unused
        players = [self.tablet(t, tablet.token, steady) for t, tablet in self.tablets.items() if t != TABLES]
        deadline = time.monotonic() + 24
        health: Counter[str] = Counter()
        probe = Api(self.client, self.recorder, address="127.0.3.2")

        async def watch() -> None:
            while time.monotonic() < deadline:
                await self.public.request("public_standings", "GET",
                                          f"/api/v1/public/tournaments/{self.event.slug}/standings/")
                answer = await probe.request("healthz", "GET", "/healthz", timeout=10)
                health[str(answer.status_code) if answer is not None else "none"] += 1
                await asyncio.sleep(0.5)

        async def outage() -> float:
            await asyncio.sleep(5)
            started = time.monotonic()
            await asyncio.to_thread(self.stack.pg.stop, "fast")
            log("  PostgreSQL stopped")
            await asyncio.sleep(6)
            await asyncio.to_thread(self.stack.pg.start)
            log("  PostgreSQL started again")
            return time.monotonic() - started

        results = await asyncio.gather(outage(), watch(), *(p.run(deadline, drain=40) for p in players))
        connections.close_all()
        during = self.recorder.since(before)
        all_statuses = _statuses(during)
        acked = len(self.ledger.acks) - acks_before
        found.append(Check("clients got 503 with Retry-After while PostgreSQL was down",
                           all_statuses["503"] > 0 and health["503"] > 0
                           and not any("without Retry-After" in p for p in self.recorder.problems),
                           f"{all_statuses['503']} answers 503 over {results[0]:.1f}s down; /healthz {dict(health)}"))
        found.append(Check("never a 500", _fivexx(during) == 0,
                           f"answers: {dict(sorted(all_statuses.items()))}"))
        gave_up = len(self.ledger.unanswered) - unanswered_before
        found.append(Check("their retries (same keys) succeeded", acked > 0 and gave_up == 0,
                           f"{acked} hands acknowledged during the drill, {gave_up} sends given up"))
        found += checks.check_hands(self.tid, self.ledger.acks, self.ledger.unanswered)
        return found

    # ---- 4. one hand sent 100 times ------------------------------------------------------------------------
    async def seated(self, tablet: Tablet) -> dict[str, Any] | None:
        """The tablet's current board, seated first when needed."""
        state = await tablet.board()
        if state is not None and state["seating"] is None:
            await tablet.seat(state, time.monotonic() + 30)
            state = await tablet.board()
        return state

    async def drill_resend(self, table: int) -> list[Check]:
        from tournaments.models import Hand

        tablet = self.tablets[table]
        state = await self.seated(tablet)
        if state is None:
            return [Check("a board to play on", False, "no current board")]
        board, game, number = int(state["board"]), int(state["game_number"]), int(state["next_hand_number"])
        record = simulate_game(state["rules"], seed=4242, score=state["score"],
                               first_dealer=int(state["next_dealer"])).tally_hands[0]
        body = {"game": game, "number": number, "hand": record}
        path = f"/api/v1/tablet/boards/{board}/hands/"
        key = uuid.uuid4().hex
        answers: list[httpx.Response | None] = []
        for _ in range(10):
            answers += await asyncio.gather(*(tablet.api.request("hand_resend", "POST", path, json=body, key=key)
                                              for _ in range(10)))
        codes = Counter(str(a.status_code) if a is not None else "none" for a in answers)
        ids = {a.json().get("id") for a in answers if a is not None and a.status_code == 201}
        replayed = sum(1 for a in answers if a is not None and a.headers.get("Idempotent-Replayed") == "true")
        if len(ids) == 1:
            hand_id = int(next(iter(ids)))
            self.ledger.acks[(table, key)] = Ack(key, table, board, game, number, record, hand_id)
        found = [Check("100 sends with one key: one answer", codes == Counter({"201": 100}) and len(ids) == 1,
                       f"answers {dict(codes)}, {len(ids)} distinct hand id(s), {replayed} marked Idempotent-Replayed")]
        fresh: list[httpx.Response | None] = []
        for _ in range(20):
            fresh.append(await tablet.api.request("hand_resend_new_key", "POST", path, json=body,
                                                  key=uuid.uuid4().hex))
        fresh_codes = Counter(f"{a.status_code} {error_code(a)}" if a is not None else "none" for a in fresh)
        allowed = {"409 hand_number_taken", "429 throttled"}  # 429: the device's 120 writes/min are used up
        found.append(Check("20 more sends with new keys: refused (taken, or rate-limited), none stored",
                           set(fresh_codes) <= allowed and fresh_codes["409 hand_number_taken"] > 0,
                           f"answers {dict(fresh_codes)}"))
        stored = Hand.objects.filter(game__board_id=board, game__number=game, number=number).count()
        found.append(Check("one hand stored", stored == 1, f"{stored} hand(s) stored as game {game} hand {number}"))
        return found

    # ---- 5. a replaced tablet --------------------------------------------------------------------------------
    async def drill_replaced(self, table: int) -> list[Check]:
        from tournaments.models import Device, Hand

        old = self.tablets[table]
        found: list[Check] = []
        state = await self.seated(old)
        if state is None:
            return [Check("a board to play on", False, "no current board")]
        board, game = int(state["board"]), int(state["game_number"])
        simulated = simulate_game(state["rules"], seed=99, score=state["score"],
                                  first_dealer=int(state["next_dealer"])).tally_hands
        first = await old.submit(board, game, int(state["next_hand_number"]), simulated[0], time.monotonic() + 30)
        old_key = next((k for (t, k), a in self.ledger.acks.items() if t == table and first and a.hand_id == first["id"]),
                       None)
        codes = await pairing_codes(self.organiser, [table])
        paired = await pair_tablet(self.client, self.recorder, table, codes[table])
        new = self.tablet(table, str(paired["token"]))
        log(f"  table {table} paired to a new tablet (device {paired['device']['id']})")
        path = f"/api/v1/tablet/boards/{board}/hands/"
        number = int(state["next_hand_number"]) + 1
        second = {"game": game, "number": number, "hand": simulated[1] if len(simulated) > 1 else simulated[0]}
        refused = {
            "read its board": await old.api.request("old_tablet", "GET", "/api/v1/tablet/board/"),
            "send the next hand": await old.api.request("old_tablet", "POST", path, json=second, key=uuid.uuid4().hex),
            "replay its own last key": await old.api.request(
                "old_tablet", "POST", path, json={"game": game, "number": number - 1, "hand": simulated[0]},
                key=old_key or "none"),
            "confirm a game": await old.api.request("old_tablet", "POST", f"/api/v1/tablet/boards/{board}/confirmations/",
                                                    json={"game": game, "side": "a"}, key=uuid.uuid4().hex),
        }
        answers = {what: (r.status_code if r is not None else None) for what, r in refused.items()}
        found.append(Check("the replaced tablet is refused with 401", first is not None and set(answers.values()) == {401},
                           f"old tablet: {answers}"))
        landed = await new.submit(board, game, number, second["hand"], time.monotonic() + 30)
        found.append(Check("the new tablet scores on", landed is not None, f"hand {number} stored as "
                           f"{landed['id'] if landed else 'nothing'} by the new tablet"))
        old_device = Device.objects.get(pk=self.event.device_ids[table])
        late = Hand.objects.filter(device=old_device, created_at__gt=old_device.revoked_at).count() \
            if old_device.revoked_at else -1
        on_number = Hand.objects.filter(game__board_id=board, game__number=game, number=number).count()
        found.append(Check("nothing stored from the old tablet after its replacement", old_device.revoked_at is not None
                           and late == 0 and on_number == 1,
                           f"old device revoked at {old_device.revoked_at}, {late} hands from it after that, "
                           f"{on_number} hand(s) as number {number}"))
        self.tablets[table] = new
        self.event.device_ids[table] = int(paired["device"]["id"])
        return found

    # ---- 6. a refused game -------------------------------------------------------------------------------------
    async def drill_dispute(self, table: int) -> list[Check]:
        from tournaments.models import Board, Game

        tablet = self.tablets[table]
        found: list[Check] = []
        await self.play(table, games=1, confirm=False)
        state = await tablet.board()
        if state is None:
            return [Check("a board to play on", False, "no current board")]
        board = int(state["board"])
        finished = [g for g in state["games"] if g["status"] == "finished"]
        if not finished:
            return [Check("a finished game", False, f"games {state['games']}")]
        game_number = int(finished[-1]["number"])
        conf = f"/api/v1/tablet/boards/{board}/confirmations/"
        a = await tablet.api.request("dispute", "POST", conf, json={"game": game_number, "side": "a", "agrees": True},
                                     key=uuid.uuid4().hex)
        b = await tablet.api.request("dispute", "POST", conf, json={
            "game": game_number, "side": "b", "agrees": False, "reason": "Hand 3: High was ours, not theirs"},
            key=uuid.uuid4().hex)
        state = await tablet.board()
        disputed = state is not None and state["status"] == "disputed"
        found.append(Check("pair B's refusal puts the board in dispute",
                           a is not None and a.status_code == 201 and b is not None and b.status_code == 201 and disputed,
                           f"pair A confirmed ({a.status_code if a else None}), pair B refused "
                           f"({b.status_code if b else None}); board status {state['status'] if state else None}"))
        flip_b = await tablet.api.request("dispute", "POST", conf, json={"game": game_number, "side": "b", "agrees": True},
                                          key=uuid.uuid4().hex)
        flip_a = await tablet.api.request("dispute", "POST", conf, json={
            "game": game_number, "side": "a", "agrees": False, "reason": "changed our mind"}, key=uuid.uuid4().hex)
        flips = [(r.status_code, error_code(r)) if r is not None else None for r in (flip_b, flip_a)]
        found.append(Check("no silent overwrite: neither pair can change its word", all(
            f is not None and f[0] == 409 for f in flips), f"pair B agreeing now: {flips[0]}; pair A refusing now: {flips[1]}"))
        settled = checks.settle([self.tid], 30)
        game = Game.objects.get(board_id=board, number=game_number, status="finished")
        found.append(Check("the disputed game is not counted", settled.ok and not game.confirmed,
                           f"{settled.detail}; game confirmed={game.confirmed}"))
        found += self.standings_checks()
        assert self.round_id is not None
        close = await self.organiser.api.request("round_close", "POST", f"/api/v1/rounds/{self.round_id}/close/",
                                                 json={"confirm_remaining": True})
        found.append(Check("the round cannot close while the dispute is open",
                           close is not None and close.status_code == 409 and error_code(close) == "dispute_open",
                           f"close answered {close.status_code if close else None} {error_code(close) if close else ''}"))
        # The organiser finds the game's id in the board's state (GET /api/v1/boards/<id>/).
        seen = await self.organiser.call("board_get", "GET", f"/api/v1/boards/{board}/", expect=200)
        listed = [g for g in (seen.json()["games"] if seen is not None else []) if g["number"] == game_number]
        game_id = listed[0].get("id") if listed else None
        found.append(Check("the organiser's board view names the game's id", game_id == game.pk,
                           f"games/{game_id} in the board state, {game.pk} in the database"))
        ruling = await self.organiser.call("game_confirm", "POST", f"/api/v1/games/{game_id or game.pk}/confirm/",
                                           expect=201)
        ruled = Board.objects.get(pk=board)
        found.append(Check("the organiser's ruling (confirming the game) resolves the dispute",
                           ruling is not None and ruling.json().get("game_confirmed") is True and not ruled.disputed,
                           f"ruling answered {ruling.status_code if ruling else None}; board disputed={ruled.disputed}, "
                           f"status {ruled.status}"))
        settled = checks.settle([self.tid], 30)
        found.append(Check("standings count the game once ruled", settled.ok, settled.detail))
        found += self.standings_checks()
        closed = await self.close_round()
        found.append(Check("the round closes once the dispute is resolved", closed, ""))
        return found


async def drills(stack: Stack) -> list[tuple[str, list[Check]]]:
    recorder, ledger = Recorder(), Ledger()
    results: list[tuple[str, list[Check]]] = []
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=20.0) as client:
        event, organiser = await create_event(client, recorder, name="drills", pairs=2 * TABLES, tables=TABLES,
                                              first_to=3)
        d = Drills(stack, client, recorder, ledger, event, organiser)

        async def drill(title: str, run: Callable[[], Awaitable[list[Check]]]) -> None:
            log(f"\n[drill] {title}")
            started = time.monotonic()
            try:
                found = await run()
            except Exception as exc:  # noqa: BLE001 - a drill that crashes is a failed drill, the others still run
                traceback.print_exc()
                found = [Check("the drill ran to its end", False, f"{type(exc).__name__}: {exc}")]
            for check in found:
                log(f"  {check.line()}")
            verdict = "PASS" if all(c.ok for c in found) else "FAIL"
            log(f"  => {verdict}: {title} ({time.monotonic() - started:.0f}s)")
            results.append((title, found))

        if await d.next_round() is None:
            raise RuntimeError(f"round 1 could not start: {recorder.problems[-3:]}")
        await drill("1. Redis stopped in the middle of a round", d.drill_redis)
        await drill("2. Celery worker SIGKILLed in the middle of a recompute and of a pairing", d.drill_worker)
        await drill("3. PostgreSQL restarted under tablets and viewers", d.drill_postgres)
        await drill("7. the publisher SIGKILLed in the middle of a render", d.drill_publisher)

        async def round_three() -> list[Check]:
            closed = await d.close_round()
            started = await d.next_round()
            return [Check("round 2 closed, round 3 paired and published", closed and started is not None, "")]

        await drill("(round 3 for drills 4-6)", round_three)
        await drill("4. one tablet resending the same hand 100 times", lambda: d.drill_resend(TABLES))
        await drill("5. a replaced tablet still sending after its table was paired to a new device",
                    lambda: d.drill_replaced(2))
        await drill("6. a pair refusing a game: a dispute the organiser resolves", lambda: d.drill_dispute(3))

        async def final() -> list[Check]:
            found = [checks.settle([d.tid], 60)]
            found += checks.check_hands(d.tid, ledger.acks, ledger.unanswered)
            score_checks, rebuilt = checks.check_scores(d.tid)
            found += score_checks + checks.check_standings(d.tid, rebuilt)
            # the public standings are the published file: current within the render's second or two
            found.append(await d.published_current("the public standings show the recomputed order", 30,
                                                   time.monotonic()))
            found.append(Check("no 5xx but 503 over all drills", recorder.server_errors() == 0,
                               f"{recorder.server_errors()} answers 500-599 other than 503"))
            return found

        await drill("over all drills: nothing lost, nothing doubled, scores and standings from the hand log", final)
    return results


def main() -> int:
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # this process's ORM use is setup and checks only
    started = time.monotonic()
    publish_root = tempfile.mkdtemp(prefix="hangjack-drills-published-")  # never the project's published/
    with sigterm_as_exit(), Stack(settings="benchmarks.drills.settings", web_workers=2, worker_concurrency=1,
                                  publish_concurrency=1, fast_db=True,
                                  extra_env={"PUBLISH_ROOT": publish_root}) as stack:
        log(f"[drills] private stack up in {time.monotonic() - started:.0f}s: PostgreSQL :{stack.pg.port}, "
            f"Redis :{stack.redis.port}, gunicorn :{stack.web_port}, a worker (default queue) and a publisher "
            f"(\"publish\" queue), one process each (logs in {stack.log_dir}, published files in {publish_root})")
        stack.use_here()
        logging.getLogger("httpx").setLevel(logging.WARNING)
        results = asyncio.run(drills(stack))
        server_errors = (stack.log_dir / "gunicorn.log").read_text(errors="replace").count("Internal Server Error")
    log("\n[drills] summary")
    failed = 0
    for title, found in results:
        ok = all(c.ok for c in found)
        failed += 0 if ok else 1
        log(f"  {'PASS' if ok else 'FAIL'}  {title}")
    if server_errors:
        failed += 1
        log(f"  FAIL  gunicorn logged {server_errors} 'Internal Server Error' line(s)")
    shutil.rmtree(publish_root, ignore_errors=True)
    log(f"[drills] {time.monotonic() - started:.0f}s in all")
    if failed:
        log(f"  logs kept in {stack.log_dir}")
    else:
        shutil.rmtree(stack.log_dir, ignore_errors=True)
    log(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
