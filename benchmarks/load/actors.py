"""The people of a tournament day, as asyncio tasks over the API: tablets, the organiser, viewers.

* ``Tablet``: one paired scoring tablet at one table. It reads its current board, records the seating,
  plays each game from the engine's simulator (``scoring.simulate.simulate_game`` from the board's score
  and next dealer) and submits one hand about every 2 seconds with a fresh ``Idempotency-Key``; now and
  then it resends a hand whose answer it "lost" (same key: the stored answer comes back), sends one twice
  at once (same key: one hand), or reuses a key with another body (422). A refused write is retried with
  the same key after ``Retry-After`` (429, 503) or a transport error; a 409 makes it read the board again.
  Every hand the server acknowledged goes into the ``Ledger``, which the end checks hold against the
  database.
* ``Organiser``: starts a round (the worker pairs it), publishes it, watches the boards, confirms
  finished games in bulk, closes the round (time called) and starts the next.
* ``Viewer``: a phone polling the standings or a board's scorecard every 10 seconds, with ETags.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from scoring.simulate import simulate_game

from .client import Api, Recorder, error_code, retry_after

#: 409 codes a tablet meets in normal play when the organiser moved on (time called, round closed).
STALE_CODES = {"stale_board", "stale_game", "round_not_open", "match_decided", "game_over"}


@dataclass(frozen=True)
class Ack:
    """A hand the server acknowledged (201): what was sent and the hand id it answered."""

    key: str
    table: int
    board: int
    game: int
    number: int
    record: dict[str, Any]
    hand_id: int


@dataclass
class Ledger:
    """What the clients know was stored, and what they sent without ever learning the outcome."""

    acks: dict[tuple[int, str], Ack] = field(default_factory=dict)
    unanswered: set[tuple[int, str]] = field(default_factory=set)  # (table, key) sent, no final answer
    behaviours: dict[str, int] = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.behaviours[what] = self.behaviours.get(what, 0) + 1


@dataclass
class Behaviour:
    """How a tablet misbehaves, per hand (probabilities) and how fast it plays."""

    hand_interval: tuple[float, float] = (1.5, 2.5)
    retry: float = 0.05  # the answer was lost: resend with the same key and body
    duplicate: float = 0.03  # a double tap: the same request twice at once
    reused_key: float = 0.01  # a buggy client: the same key with another body (422)
    tablet_confirms: float = 0.7  # both pairs confirm on the tablet; otherwise the organiser does
    play_form: float = 0.5  # card-by-card records instead of tallies
    attempts: int = 12  # sends of one request before the tablet gives up (and reports it)


@dataclass
class Shared:
    """What the organiser publishes to the viewers: the tournament and the current round's boards."""

    slug: str = ""
    board_ids: list[int] = field(default_factory=list)
    round_number: int = 0


class Tablet:
    """One scoring tablet: ``Authorization: Device <token>``, one table."""

    def __init__(self, table: int, token: str, client: httpx.AsyncClient, recorder: Recorder, ledger: Ledger,
                 *, seed: int, behaviour: Behaviour | None = None) -> None:
        self.table = table
        self.token = token
        self.api = Api(client, recorder, address=f"127.0.1.{table % 250 + 1}", authorization=f"Device {token}")
        self.recorder = recorder
        self.ledger = ledger
        self.rng = random.Random(seed)
        self.behaviour = behaviour or Behaviour()
        self.last_sent = 0.0
        self.hands_acked = 0

    # ---- reads ---------------------------------------------------------------------------------------
    async def board(self) -> dict[str, Any] | None:
        """The tablet's current board, or None (none yet, or a refusal already recorded)."""
        response = await self.api.request("tablet_board", "GET", "/api/v1/tablet/board/")
        if response is None:
            return None
        if response.status_code == 200:
            return dict(response.json())
        if response.status_code in (429, 503):
            await asyncio.sleep(retry_after(response))
        elif response.status_code != 404:
            self.recorder.problem(f"table {self.table}: board read {response.status_code}: {response.text[:200]}")
        return None

    # ---- writes --------------------------------------------------------------------------------------
    async def write(self, op: str, path: str, body: dict[str, Any], *, expect: int, hard_deadline: float,
                    key: str | None = None) -> tuple[str, httpx.Response | None]:
        """Send one tablet write until it has a final answer: ("ok" | "stale" | "refused" | "gave_up", answer).

        The same key and body on every attempt; 429 and 503 wait for Retry-After, transport errors and
        other 5xx a second.
        """
        key = key or uuid.uuid4().hex
        seen: list[str] = []
        for _ in range(self.behaviour.attempts):
            if time.monotonic() > hard_deadline:
                seen.append("stopped: the drain deadline passed")
                break
            response = await self.api.request(op, "POST", path, json=body, key=key)
            seen.append(str(response.status_code) if response is not None else "no answer")
            if response is None or (response.status_code >= 500 and response.status_code != 503):
                await asyncio.sleep(1.0)
                continue
            status = response.status_code
            if status == expect:
                return "ok", response
            if status in (429, 503):
                await asyncio.sleep(retry_after(response))
                continue
            if status == 409 and error_code(response) in STALE_CODES:
                return "stale", response
            self.recorder.problem(f"table {self.table}: {op} answered {status}: {response.text[:300]}")
            return "refused", response
        self.ledger.unanswered.add((self.table, key))
        self.recorder.problem(f"table {self.table}: {op} gave up, answers {seen} (key {key})")
        return "gave_up", None

    async def seat(self, state: dict[str, Any], hard_deadline: float) -> bool:
        a, b = state["pairs"]["a"]["players"], state["pairs"]["b"]["players"]
        seating = {"0": a[0]["id"], "1": b[0]["id"], "2": a[1]["id"], "3": b[1]["id"]}
        outcome, _ = await self.write("tablet_seating", f"/api/v1/tablet/boards/{state['board']}/seating/",
                                      {"seating": seating, "first_dealer": self.rng.randrange(4)}, expect=200,
                                      hard_deadline=hard_deadline)
        return outcome == "ok"

    async def confirm(self, board: int, game: int, hard_deadline: float) -> None:
        for side in ("a", "b"):
            await self.write("tablet_confirm", f"/api/v1/tablet/boards/{board}/confirmations/",
                             {"game": game, "side": side, "agrees": True}, expect=201, hard_deadline=hard_deadline)

    async def submit(self, board: int, game: int, number: int, record: dict[str, Any],
                     hard_deadline: float) -> dict[str, Any] | None:
        """Submit one hand (with the day's random resends); its answer when acknowledged, else None."""
        path = f"/api/v1/tablet/boards/{board}/hands/"
        body = {"game": game, "number": number, "hand": record}
        key = uuid.uuid4().hex
        response: httpx.Response | None = None
        if self.rng.random() < self.behaviour.duplicate:
            self.ledger.count("duplicate_sends")
            first, second = await asyncio.gather(
                self.api.request("hand_submit", "POST", path, json=body, key=key),
                self.api.request("hand_duplicate", "POST", path, json=body, key=key),
            )
            answers = [r for r in (first, second) if r is not None and r.status_code == 201]
            if len(answers) == 2 and answers[0].json()["id"] != answers[1].json()["id"]:
                self.recorder.problem(f"table {self.table}: a double send stored two hands: "
                                      f"{answers[0].json()['id']} and {answers[1].json()['id']}")
            for r in (first, second):
                if r is not None and r.status_code not in (201, 429, 503) and r.status_code < 500:
                    if r.status_code == 409 and error_code(r) in STALE_CODES:
                        continue
                    self.recorder.problem(f"table {self.table}: a double send answered {r.status_code}: {r.text[:200]}")
            response = answers[0] if answers else None
        if response is None:
            outcome, response = await self.write("hand_submit", path, body, expect=201, hard_deadline=hard_deadline,
                                                 key=key)
            if outcome != "ok" or response is None:
                return None
        hand = dict(response.json())
        self.ledger.acks[(self.table, key)] = Ack(key, self.table, board, game, number, record, int(hand["id"]))
        self.hands_acked += 1
        if self.rng.random() < self.behaviour.retry:
            self.ledger.count("retries")
            again = await self.api.request("hand_retry", "POST", path, json=body, key=key)
            if again is not None and again.status_code == 201:
                if again.json().get("id") != hand["id"] or again.headers.get("Idempotent-Replayed") != "true":
                    self.recorder.problem(f"table {self.table}: a retry was not answered from the stored answer")
            elif again is not None and again.status_code not in (429, 503):
                self.recorder.problem(f"table {self.table}: a retry answered {again.status_code}: {again.text[:200]}")
        if self.rng.random() < self.behaviour.reused_key:
            self.ledger.count("reused_keys")
            other = {**body, "number": number + 1000}
            again = await self.api.request("hand_reused_key", "POST", path, json=other, key=key)
            if again is not None and again.status_code not in (422, 503):
                self.recorder.problem(f"table {self.table}: a reused key with another body answered "
                                      f"{again.status_code}, not 422: {again.text[:200]}")
        return hand

    # ---- play ------------------------------------------------------------------------------------------
    async def pace(self) -> None:
        low, high = self.behaviour.hand_interval
        wait = self.last_sent + self.rng.uniform(low, high) - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last_sent = time.monotonic()

    async def play_game(self, state: dict[str, Any], deadline: float, hard_deadline: float) -> None:
        """Play the board's current game from where it stands; return at its end or on any surprise."""
        board, game = int(state["board"]), int(state["game_number"])
        simulated = simulate_game(state["rules"], seed=self.rng.randrange(2**31), score=state["score"],
                                  first_dealer=int(state["next_dealer"]))
        hands = simulated.play_hands if self.rng.random() < self.behaviour.play_form else simulated.tally_hands
        number = int(state["next_hand_number"])
        for offset, record in enumerate(hands):
            await self.pace()
            if time.monotonic() > deadline:
                return
            answer = await self.submit(board, game, number + offset, record, hard_deadline)
            if answer is None:
                return
            if answer.get("game_status") == "finished":
                if self.rng.random() < self.behaviour.tablet_confirms:
                    await self.confirm(board, game, hard_deadline)
                return

    async def run(self, deadline: float, drain: float = 30.0) -> None:
        """Play until ``deadline``; a request under way may finish (with retries) for ``drain`` seconds more."""
        hard_deadline = deadline + drain
        self.last_sent = time.monotonic() - self.rng.uniform(0, self.behaviour.hand_interval[1])
        while time.monotonic() < deadline:
            state = await self.board()
            if state is None or state["round_status"] not in ("published", "in_play") or state["result"]["decided"]:
                await asyncio.sleep(self.rng.uniform(4.0, 6.0))  # between rounds: a poll every ~5 s
                continue
            if state["seating"] is None:
                if not await self.seat(state, hard_deadline):
                    await asyncio.sleep(1.0)
                continue
            if state["game_status"] != "in_play":
                await asyncio.sleep(1.0)
                continue
            await self.play_game(state, deadline, hard_deadline)


class Organiser:
    """The organiser's side of the day: ``Authorization: Token <knox token>``."""

    def __init__(self, token: str, tournament_id: int, client: httpx.AsyncClient, recorder: Recorder,
                 shared: Shared) -> None:
        self.api = Api(client, recorder, address="127.0.0.1", authorization=f"Token {token}")
        self.tournament_id = tournament_id
        self.recorder = recorder
        self.shared = shared
        self.open_round: int | None = None
        self.rounds_closed = 0
        self.pairing_seconds: list[float] = []

    async def call(self, op: str, method: str, path: str, *, expect: int, json: Any = None,
                   attempts: int = 6, until: float | None = None) -> httpx.Response | None:
        """One organiser request, retried on 429, 503, 5xx and transport errors (``attempts`` sends, none
        started after ``until``); None when it did not succeed (recorded as a problem)."""
        seen: list[str] = []
        for _ in range(attempts):
            if until is not None and time.monotonic() > until:
                break
            response = await self.api.request(op, method, path, json=json)
            if response is not None and response.status_code == expect:
                return response
            seen.append(str(response.status_code) if response is not None else "no answer")
            if response is not None and response.status_code not in (429, 503) and response.status_code < 500:
                self.recorder.problem(f"organiser: {op} answered {response.status_code}: {response.text[:300]}")
                return None
            await asyncio.sleep(retry_after(response) if response is not None else 1.0)
        self.recorder.problem(f"organiser: {op} {method} {path} did not succeed: {seen}")
        return None

    async def start_round(self, timeout: float = 90.0) -> dict[str, Any] | None:
        """Start the next round and wait for the worker to pair it (drafted)."""
        started = time.monotonic()
        until = started + timeout
        response = await self.call("round_start", "POST", f"/api/v1/tournaments/{self.tournament_id}/rounds/",
                                   expect=201, json={}, until=until)
        if response is None:
            return None
        round_ = dict(response.json())
        while round_["status"] == "pending" and time.monotonic() < until:
            await asyncio.sleep(0.25)
            polled = await self.call("round_get", "GET", f"/api/v1/rounds/{round_['id']}/", expect=200, until=until)
            if polled is not None:
                round_ = dict(polled.json())
        if round_["status"] != "drafted":
            self.recorder.problem(f"organiser: round {round_['number']} still {round_['status']} after {timeout:.0f}s: "
                                  f"{round_.get('feasibility_note', '')}")
            return None
        self.pairing_seconds.append(time.monotonic() - started)
        self.recorder.add("round_paired (start to drafted)", "drafted", time.monotonic() - started, started)
        return round_

    async def boards(self, round_id: int) -> list[dict[str, Any]]:
        response = await self.call("round_boards", "GET", f"/api/v1/rounds/{round_id}/boards/?limit=200", expect=200)
        return list(response.json()["results"]) if response is not None else []

    async def close(self, round_id: int) -> bool:
        response = await self.call("round_close", "POST", f"/api/v1/rounds/{round_id}/close/", expect=200,
                                   json={"confirm_remaining": True})
        if response is not None:
            self.rounds_closed += 1
            self.open_round = None
        return response is not None

    async def confirm_all(self, round_id: int) -> None:
        await self.call("round_confirm_all", "POST", f"/api/v1/rounds/{round_id}/confirm-all/", expect=200)

    async def run(self, deadline: float, *, round_limit: float, watch_every: float = 5.0,
                  confirm_every: float = 15.0) -> None:
        """Round after round until ``deadline``; a round closes when every board is decided or at its time limit."""
        while time.monotonic() < deadline:
            round_ = await self.start_round(timeout=max(5.0, min(90.0, deadline - time.monotonic())))
            if round_ is None:
                return
            published = await self.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/",
                                         expect=200, until=deadline)
            if published is None:
                return
            self.open_round = int(round_["id"])
            boards = await self.boards(self.open_round)
            self.shared.board_ids = [int(b["id"]) for b in boards]
            self.shared.round_number = int(round_["number"])
            opened = last_confirm = time.monotonic()
            while time.monotonic() < deadline:
                await asyncio.sleep(watch_every)
                boards = await self.boards(self.open_round)
                if boards and all(b["decided"] for b in boards):
                    break
                if time.monotonic() - last_confirm >= confirm_every:
                    await self.confirm_all(self.open_round)
                    last_confirm = time.monotonic()
                if time.monotonic() - opened >= round_limit:
                    break  # time is called
            if time.monotonic() >= deadline:
                return  # the last round stays open until the tablets stop; ``finish`` closes it
            if not await self.close(self.open_round):
                return

    async def finish(self) -> None:
        """After the tablets stopped: confirm what is finished and close the open round."""
        if self.open_round is not None:
            await self.confirm_all(self.open_round)
            await self.close(self.open_round)


class Viewer:
    """A spectator's phone: standings or one board's scorecard every ``every`` seconds, with If-None-Match."""

    def __init__(self, number: int, client: httpx.AsyncClient, recorder: Recorder, shared: Shared, *, seed: int,
                 every: float = 10.0) -> None:
        self.api = Api(client, recorder, address=f"127.{2 + number // 60000}.{number // 250 % 240}.{number % 250 + 1}")
        self.shared = shared
        self.rng = random.Random(seed)
        self.every = every
        self.etags: dict[str, str] = {}

    async def run(self, deadline: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.every))
        while time.monotonic() < deadline:
            started = time.monotonic()
            slug = self.shared.slug
            if self.rng.random() < 0.5 or not self.shared.board_ids:
                op, path = "public_standings", f"/api/v1/public/tournaments/{slug}/standings/"
            else:
                board = self.rng.choice(self.shared.board_ids)
                op, path = "public_scorecard", f"/api/v1/public/tournaments/{slug}/boards/{board}/"
            headers = {"If-None-Match": self.etags[path]} if path in self.etags else None
            response = await self.api.request(op, "GET", path, headers=headers)
            ok = response is not None and response.status_code == 200 and "ETag" in response.headers
            if ok and response is not None and len(self.etags) < 200:
                self.etags[path] = response.headers["ETag"]
            await asyncio.sleep(max(0.0, started + self.every - time.monotonic()))
