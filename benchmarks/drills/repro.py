"""Shared set-up of the race repro scripts (``deadlock_close``, ``race_confirm_close``).

Each plays one board through the API on a private stack, then runs two service calls in threads and
checks what they left. What differs is the race itself; the board, the threads and the report are here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import httpx

from benchmarks.drills.run import FAST
from benchmarks.load.actors import Ledger, Tablet
from benchmarks.load.client import Recorder
from benchmarks.load.setup import create_event
from benchmarks.load.stack import Stack, sigterm_as_exit
from scoring.simulate import simulate_game


async def one_board(stack: Stack, *, name: str, seeds: Iterable[int], pair_a_confirms_game_1: bool = False
                    ) -> dict[str, Any]:
    """A published round with one board, first to 3, seated; one game played per seed (tally hands)."""
    recorder, ledger = Recorder(), Ledger()
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=30) as client:
        event, organiser = await create_event(client, recorder, name=name, pairs=2, tables=1, first_to=3)
        round_ = await organiser.start_round(timeout=60)
        assert round_ is not None, recorder.problems
        await organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/", expect=200)
        tablet = Tablet(1, event.tablet_tokens[1], client, recorder, ledger, seed=1, behaviour=FAST)
        state = await tablet.board()
        assert state is not None
        await tablet.seat(state, time.monotonic() + 30)
        for seed in seeds:
            state = await tablet.board()
            assert state is not None and state["game_status"] == "in_play", state
            hands = simulate_game(state["rules"], seed=seed, first_dealer=int(state["next_dealer"])).tally_hands
            for number, record in enumerate(hands, 1):
                answer = await tablet.submit(int(state["board"]), int(state["game_number"]), number, record,
                                             time.monotonic() + 30)
                assert answer is not None, recorder.problems
        if pair_a_confirms_game_1:
            await tablet.write("tablet_confirm", f"/api/v1/tablet/boards/{state['board']}/confirmations/",
                               {"game": 1, "side": "a"}, expect=201, hard_deadline=time.monotonic() + 30)
        return {"tournament": event.tournament_id, "round": int(round_["id"]), "board": int(state["board"])}


def guarded(errors: list[str], label: str, call: Callable[[], Any], *, delay: float = 0.0) -> Callable[[], None]:
    """A thread body: wait ``delay``, run ``call``, record any exception, close this thread's connection."""

    def body() -> None:
        from django.db import connection

        time.sleep(delay)
        try:
            call()
        except Exception as exc:  # noqa: BLE001 - the repro reports whatever went wrong
            errors.append(f"{label}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        finally:
            connection.close()

    return body


def run_together(*bodies: Callable[[], None]) -> None:
    threads = [threading.Thread(target=body) for body in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)


def run_repro(prepare: Callable[[Stack], Any], race: Callable[[Any], list[str]], *, passed: str,
              after: Callable[[Stack], list[str]] | None = None) -> int:
    """Start a private stack, prepare the board, run the race; print PASS/FAIL and the tally line."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    notes: list[str] = []
    with sigterm_as_exit(), Stack(settings="benchmarks.drills.settings", web_workers=1, worker_concurrency=1,
                                  fast_db=True) as stack:
        stack.use_here()
        logging.getLogger("httpx").setLevel(logging.WARNING)
        ids = asyncio.run(prepare(stack))
        failures = race(ids)
        if after is not None:
            notes = after(stack)
    for line in notes:
        print(line)
    for failure in failures:
        print(f"FAIL  {failure}")
    if not failures:
        print(f"PASS  {passed}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0
