"""The national day's people, on the open-loop generator (``openloop``): tablets, viewers, a freshness probe.

* ``Scorer``: one table's tablet as ``static/js/tablet.js`` behaves. A board read every 10 s
  (``setInterval(tick, 10000)``, conditional: ``If-None-Match``, a 304 keeps the state shown), and one hand every 60-120 s (seeded): the engine's reading first
  (``POST …/preview/``, "Check hand"), the hand itself a few seconds later ("Send hand", planned at
  check + 2-5 s and never before the reading came back), then the board read the page does once its queue
  is empty. A finished game is confirmed by both pairs on the tablet (each a few seconds apart), then read
  again. Hands come from ``scoring.simulate.simulate_game`` from the board's score and next dealer.
  429/503/5xx and transport failures are sent again with the same ``Idempotency-Key`` (as the queue does).
* ``Viewer``: a phone on one public page, polling its live fragment at the page's own interval
  (``data-poll-seconds``, a large event's: standings 15 s, a board 10 s, pairings 20 s; ``live.js``
  revalidates with ``If-None-Match``), now and then moving to another page (a full page load).
* ``Probe``: the freshness sample. When a tablet's confirmation completes a decided board, the time of that
  answer is noted with the two pairs' standings rows as last published; the probe reads the published
  standings every 0.25 s and the sample is the time until either row changes.

Every request's latency is from its planned send (``openloop.timed``).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.simulate import simulate_game

from .actors import Ack, Ledger
from .openloop import Answer, Plan, Pool, Recorder, timed

#: (page, share of viewers, poll seconds): a large event's data-poll-seconds (web.views.public.POLL_SECONDS, the
#: second of each pair; a test holds them equal).
PAGES: tuple[tuple[str, float, float], ...] = (("standings", 0.4, 15.0), ("board", 0.3, 10.0), ("pairings", 0.3, 20.0))
#: A large event's standings page polls a second part: the whole table (``standings/table/``), once a minute
#: (templates/public/standings.html; the live part above shows the top of it: web.views.public.LIVE_ALL_UPTO).
WHOLE_TABLE_POLL = 60.0
#: The rows above which the standings page has its whole table apart (web.views.public.LIVE_ALL_UPTO; a test
#: holds the two equal): two pairs a table.
LIVE_ALL_UPTO = 60


def has_whole_table(tables: int) -> bool:
    return tables * 2 > LIVE_ALL_UPTO
TABLET_POLL = 10.0  # static/js/tablet.js: setInterval(tick, 10000)
HAND_GAP = (60.0, 120.0)
DWELL = 180.0  # mean seconds a viewer stays on one page before moving to another
RETRY_STATUSES = {429, 503}


def proxy_headers(address: str) -> dict[str, str]:
    """What the proxy passes on (the client's address; Caddy replaces it with its own peer) plus what a
    phone's browser sends (gzip: Caddy serves the published ``.gz`` beside each file)."""
    return {"X-Forwarded-Proto": "https", "X-Forwarded-For": address, "Accept-Encoding": "gzip, deflate, br"}


@dataclass
class Freshness:
    """Freshness samples: seconds from a confirmed result to the published standings showing it."""

    samples: list[float] = field(default_factory=list)
    pending: list[tuple[float, tuple[int, ...], dict[int, str]]] = field(default_factory=list)
    missed: int = 0  # pending at the end (never seen)
    latest: dict[int, str] = field(default_factory=dict)  # entry -> its row as last read
    counting: bool = False

    def confirmed(self, at: float, entries: tuple[int, ...]) -> None:
        if not self.counting or not self.latest:
            return
        self.pending.append((at, entries, {e: self.latest.get(e, "") for e in entries}))

    def seen(self, at: float, rows: dict[int, str]) -> None:
        self.latest = rows
        still = []
        for confirmed_at, entries, before in self.pending:
            if any(rows.get(e, "") != before[e] for e in entries):
                self.samples.append(max(0.0, at - confirmed_at))
            else:
                still.append((confirmed_at, entries, before))
        self.pending = still


class Probe:
    """Reads the published standings JSON every ``every`` seconds and feeds ``Freshness``."""

    def __init__(self, pool: Pool, recorder: Recorder, freshness: Freshness, path: str, every: float = 0.25) -> None:
        self.pool, self.recorder, self.freshness, self.path, self.every = pool, recorder, freshness, path, every

    async def run(self, until: Callable[[], bool]) -> None:
        headers = {**proxy_headers("127.0.0.9"), "Accept": "application/json"}
        etag = ""
        while not until():
            planned = time.monotonic()
            self.recorder.plan("probe", "probe_standings_json", planned)
            answer = await timed(self.pool, self.recorder, "probe", "probe_standings_json", planned, "GET",
                                 self.path, {**headers, "If-None-Match": etag} if etag else headers)
            if answer is not None and answer.status == 200:  # a 304: nothing changed since the last read
                etag = answer.headers.get("etag", "")
                rows = {int(r["entry"]): json.dumps(r.get("values"), sort_keys=True)
                        for r in answer.json().get("rows", []) if r.get("entry") is not None}
                self.freshness.seen(time.monotonic(), rows)
            await asyncio.sleep(max(0.0, planned + self.every - time.monotonic()))


class Scorer:
    """One table's tablet (see the module's docstring)."""

    def __init__(self, table: int, token: str, pool: Pool, recorder: Recorder, ledger: Ledger,
                 freshness: Freshness, *, seed: int) -> None:
        self.table, self.pool, self.recorder, self.ledger, self.freshness = table, pool, recorder, ledger, freshness
        self.rng = random.Random(seed)
        self.headers = {**proxy_headers(f"10.{table // 250}.{table % 250}.1"), "Accept": "application/json",
                        "Authorization": f"Device {token}"}
        self.state: dict[str, Any] | None = None
        self.board_etag = ""  # the ETag of ``state`` (the tablet's conditional read)
        self.hands: list[dict[str, Any]] = []  # the current game's simulated hands still to send
        self.lock = asyncio.Lock()
        self.done = False  # the match is decided: no more hands this round
        self.polling = False  # a board read of the 10-second tick is still out
        self.hands_acked = 0

    # ---- requests ------------------------------------------------------------------------------------
    async def get_board(self, planned: float, op: str = "tablet_board") -> dict[str, Any] | None:
        # tablet.js reads conditionally: If-None-Match with the tag of the state it shows (a 304 keeps it);
        # after a write of its own it reads in full (docs/api.md, "Polling it")
        conditional = op == "tablet_board" and bool(self.board_etag) and self.state is not None
        headers = {**self.headers, "If-None-Match": self.board_etag} if conditional else self.headers
        self.recorder.plan("tablet", op, planned)
        answer = await timed(self.pool, self.recorder, "tablet", op, planned, "GET", "/api/v1/tablet/board/",
                             headers)
        if answer is not None and answer.status == 304 and conditional:
            return self.state
        if answer is not None and answer.status == 200:
            self.state = dict(answer.json())
            self.board_etag = answer.headers.get("etag", "")
            return self.state
        return None

    async def post(self, op: str, path: str, body: dict[str, Any], planned: float, *,
                   key: str | None = None, attempts: int = 8) -> Answer | None:
        """A tablet write until it has a final answer; retries (same key) are planned when sent."""
        key = key or uuid.uuid4().hex
        headers = {**self.headers, "Idempotency-Key": key}
        if op == "hand_submit":  # until a final answer comes (a timeout or the end may cut it short)
            self.ledger.unanswered.add((self.table, key))
        for attempt in range(attempts):
            if attempt:
                planned = time.monotonic()
            self.recorder.plan("tablet", op if not attempt else op + " (resent)", planned)
            answer = await timed(self.pool, self.recorder, "tablet", op if not attempt else op + " (resent)",
                                 planned, "POST", path, headers, body)
            if answer is not None and answer.status not in RETRY_STATUSES and answer.status < 500:
                self.ledger.unanswered.discard((self.table, key))
                return answer
            wait = 1.0
            if answer is not None and "retry-after" in answer.headers:
                wait = min(5.0, max(0.2, float(answer.headers["retry-after"] or 1)))
            await asyncio.sleep(wait)
        self.recorder.problem(f"table {self.table}: {op} gave up after {attempts} sends")
        return None

    # ---- play ----------------------------------------------------------------------------------------
    def playable(self) -> bool:
        s = self.state
        return bool(s and s["round_status"] in ("published", "in_play") and not s["result"]["decided"]
                    and s["seating"] is not None and s["game_status"] == "in_play")

    def simulate(self) -> None:
        s = self.state
        assert s is not None
        game = simulate_game(s["rules"], seed=self.rng.randrange(2**31), score=s["score"],
                             first_dealer=int(s["next_dealer"]))
        self.hands = list(game.play_hands if self.rng.random() < 0.5 else game.tally_hands)
        self.game = (int(s["board"]), int(s["game_number"]), int(s["next_hand_number"]))

    async def hand(self, planned: float, *, think: tuple[float, float] = (2.0, 5.0), preview: bool = True) -> None:
        """One hand: the reading, the send, the read after; a finished game confirmed by both pairs."""
        async with self.lock:
            if self.state is None and await self.get_board(time.monotonic(), "tablet_board (start)") is None:
                return
            if not self.playable():
                self.done = bool(self.state and self.state["result"]["decided"])
                return
            if not self.hands or self.game[:2] != (self.state["board"], self.state["game_number"]):  # type: ignore[index]
                self.simulate()
            board, game, number = self.game
            record = self.hands[0]
            if preview:
                await self.post("tablet_preview", f"/api/v1/tablet/boards/{board}/preview/",
                                {"game": game, "hand": record}, planned)
                send_at = planned + self.rng.uniform(*think)
                await asyncio.sleep(max(0.0, send_at - time.monotonic()))
            else:
                send_at = planned
            key = uuid.uuid4().hex
            answer = await self.post("hand_submit", f"/api/v1/tablet/boards/{board}/hands/",
                                     {"game": game, "number": number, "hand": record}, send_at, key=key)
            if answer is not None and answer.status == 201:
                stored = answer.json()
                self.ledger.acks[(self.table, key)] = Ack(key, self.table, board, game, number, record, int(stored["id"]))
                self.hands_acked += 1
                self.hands.pop(0)
                self.game = (board, game, number + 1)
                finished = stored.get("game_status") == "finished"
            else:
                self.hands = []  # refused or gave up: read the board and play on from what the server says
                finished = False
            if preview or finished or answer is None or answer.status != 201:  # (the stagger skips the read)
                await self.get_board(time.monotonic(), "tablet_board (after a write)")
            if finished:
                await self.confirm(board, game, preview)

    async def confirm(self, board: int, game: int, pause: bool) -> None:
        confirmed_at = 0.0
        for side in ("a", "b"):
            if pause:
                await asyncio.sleep(self.rng.uniform(3.0, 8.0))  # the pair reads the game and taps Confirm
            answer = await self.post("tablet_confirm", f"/api/v1/tablet/boards/{board}/confirmations/",
                                     {"game": game, "side": side, "agrees": True}, time.monotonic())
            confirmed_at = time.monotonic()
            if answer is None or answer.status != 201:
                self.recorder.problem(f"table {self.table}: confirmation {side} of game {game} answered "
                                      f"{answer.status if answer else 'nothing'}")
        state = await self.get_board(time.monotonic(), "tablet_board (after a write)")
        if state is not None and state["result"]["decided"]:
            self.done = True
            if state["result"].get("all_confirmed"):
                entries = tuple(int(state["pairs"][p]["entry"]) for p in ("a", "b") if state["pairs"][p])
                self.freshness.confirmed(confirmed_at, entries)

    async def poll(self, planned: float) -> None:
        """tablet.js skips a tick while it is sending (flush) or still reading (``refreshing``): such a tick
        counts as planned and never achieved, so a slow server shows as achieved < intended."""
        if self.lock.locked() or self.polling:
            self.recorder.plan("tablet", "tablet_board (tick skipped: still busy)", planned)
            return
        self.polling = True
        try:
            await self.get_board(planned)
        finally:
            self.polling = False


class Viewer:
    """A spectator's phone on one public page (see the module's docstring)."""

    def __init__(self, number: int, pages: Callable[[random.Random], tuple[str, str, str, float]], *,
                 seed: int) -> None:
        self.rng = random.Random(seed)
        self.pages = pages
        self.headers = {**proxy_headers(f"100.{64 + number // 62500}.{number // 250 % 250}.{number % 250 + 1}"),
                        "Accept": "text/html"}
        self.kind, self.page, self.live, self.interval = pages(self.rng)
        self.etag = ""
        self.loaded = False
        self.busy = False  # a request of this phone is still out
        self.waiting: float | None = None  # the planned time of the one poll waiting for it
        self.whole_etag = ""
        self.whole_busy = False  # the whole table's own poll (live.js polls each part on its own)

    def gap(self) -> float:
        return self.interval

    async def act(self, pool: Pool, recorder: Recorder, planned: float) -> None:
        """live.js polls one request at a time (the next is scheduled once the last answered): a send planned
        while one is out waits for it (its latency still counts from its plan); a second one planned
        meanwhile is never sent (planned, not achieved), so a phone never has more than one request out."""
        if self.busy:
            if self.waiting is None:
                self.waiting = planned
            else:
                recorder.plan("viewer", f"live {self.kind} (not sent: the last still out)", planned)
            return
        self.busy = True
        try:
            await self.send(pool, recorder, planned)
            while self.waiting is not None:
                planned, self.waiting = self.waiting, None
                await self.send(pool, recorder, planned)
        finally:
            self.busy = False

    async def send(self, pool: Pool, recorder: Recorder, planned: float) -> None:
        if not self.loaded or self.rng.random() < self.interval / DWELL:
            if self.loaded:
                self.kind, self.page, self.live, self.interval = self.pages(self.rng)
            self.loaded, self.etag = True, ""
            recorder.plan("viewer", f"page {self.kind}", planned)
            await timed(pool, recorder, "viewer", f"page {self.kind}", planned, "GET", self.page, self.headers)
            return
        headers = {**self.headers, "X-Requested-With": "fetch"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        recorder.plan("viewer", f"live {self.kind}", planned)
        answer = await timed(pool, recorder, "viewer", f"live {self.kind}", planned, "GET", self.live, headers)
        if answer is not None and answer.status == 200:
            self.etag = answer.headers.get("etag", "")


    async def act_whole(self, pool: Pool, recorder: Recorder, planned: float) -> None:
        """The standings page's second part, the whole table, polled once a minute while the phone is on the
        standings (one request out at a time, like the live part; a phone on another page sends nothing)."""
        if self.kind != "standings" or not self.loaded:
            return
        if self.whole_busy:  # planned, never sent (counted as the live part's are)
            recorder.plan("viewer", "whole table (not sent: the last still out)", planned)
            return
        self.whole_busy = True
        try:
            headers = {**self.headers, "X-Requested-With": "fetch"}
            if self.whole_etag:
                headers["If-None-Match"] = self.whole_etag
            recorder.plan("viewer", "whole table", planned)
            answer = await timed(pool, recorder, "viewer", "whole table", planned, "GET", self.page + "table/",
                                 headers)
            if answer is not None and answer.status == 200:
                self.whole_etag = answer.headers.get("etag", "")
        finally:
            self.whole_busy = False


def page_chooser(slug: str, round_number: int, board_ids: list[int]) -> Callable[[random.Random], tuple[str, str, str, float]]:
    """A random public page by ``PAGES``' shares: (kind, page path, live fragment path, poll seconds)."""
    kinds = [k for k, _, _ in PAGES]
    weights = [w for _, w, _ in PAGES]
    every = {k: s for k, _, s in PAGES}

    def choose(rng: random.Random) -> tuple[str, str, str, float]:
        kind = rng.choices(kinds, weights)[0]
        if kind == "standings":
            base = f"/t/{slug}/standings/"
        elif kind == "pairings":
            base = f"/t/{slug}/rounds/{round_number}/"
        else:
            base = f"/t/{slug}/boards/{rng.choice(board_ids)}/"
        return kind, base, base + "live/", every[kind]

    return choose


def plan_day(plan: Plan, scorers: list[Scorer], viewers: list[Viewer], *, rng: random.Random,
             viewers_arrive_over: float, whole_table: bool = True) -> dict[int, tuple[str, Any]]:
    """Put every stream on ``plan`` (run clock 0 = the warm-up's start); stream id -> (kind, actor)."""
    streams: dict[int, tuple[str, Any]] = {}
    sid = 0
    for scorer in scorers:
        plan.add(sid, rng.uniform(0, TABLET_POLL), lambda: TABLET_POLL)
        streams[sid] = ("poll", scorer)
        sid += 1
        plan.add(sid, rng.uniform(0, HAND_GAP[1]), lambda: rng.uniform(*HAND_GAP))
        streams[sid] = ("hand", scorer)
        sid += 1
    for viewer in viewers:
        plan.add(sid, rng.uniform(0, viewers_arrive_over), viewer.gap)
        streams[sid] = ("view", viewer)
        sid += 1
        if whole_table:  # a large event's standings: the whole table's poll (fires only while on the standings)
            plan.add(sid, rng.uniform(0, viewers_arrive_over) + WHOLE_TABLE_POLL, lambda: WHOLE_TABLE_POLL)
            streams[sid] = ("whole", viewer)
            sid += 1
    return streams


def intended_rates(tables: int, viewers: int, *, whole_table: bool = True) -> dict[str, float]:
    """Requests per second the plan asks for in steady state (expected values)."""
    hand = 1 / ((HAND_GAP[0] + HAND_GAP[1]) / 2)
    viewer = sum(share / every for _, share, every in PAGES)
    standings = next(share for kind, share, _ in PAGES if kind == "standings")
    return {"tablet board polls": tables / TABLET_POLL, "tablet hands (preview + hand + read)": 3 * tables * hand,
            "viewers": viewers * viewer,
            "viewers' whole tables": viewers * standings / WHOLE_TABLE_POLL if whole_table else 0.0}
