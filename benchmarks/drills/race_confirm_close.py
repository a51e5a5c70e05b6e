"""Reproduces a race found by ``make load``: a pair's confirmation that waits on the round's close
rewrites the board's result from the round as it was before the close.

    python -m benchmarks.drills.race_confirm_close             # exit status 1 while the race is there
    python -m benchmarks.drills.race_confirm_close --with-fix  # the same with the proposed fix patched in

Not part of ``make drills`` (the six drills the issue asks for): it is the repro of a product bug, kept so
the fix can be proven. On a private stack (PostgreSQL, Redis on free ports): one board, first to 3; the
tablet plays game 1 to its end and pair A confirms it. Then, in this process, two threads through the
services: the organiser closes the round (``round_close``, held open 2 s inside its transaction, after its
work, to make the interleaving certain) while pair B confirms game 1 (``game_confirm``), which waits on
the game row the close locked. After both: time was called, so the board must be decided (pair A leads
1-0) and the closed round must have no game in play.

What happened before commit 6a6d20c fixed it: ``game_confirm`` locked the game with
``select_for_update(of=("self",)).select_related("board__round")``; after waiting for the lock
PostgreSQL re-reads the locked game row but not the joined round, so the service saw the round still in
play, and ``board_results_refresh`` wrote ``decided=False`` over the close's result and opened a new
game in the closed round.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from typing import Any

import httpx

from benchmarks.drills.run import FAST
from benchmarks.load.actors import Ledger, Tablet
from benchmarks.load.client import Recorder
from benchmarks.load.setup import create_event
from benchmarks.load.stack import Stack, sigterm_as_exit


async def prepare(stack: Stack) -> dict[str, Any]:
    recorder, ledger = Recorder(), Ledger()
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=30) as client:
        event, organiser = await create_event(client, recorder, name="race", pairs=2, tables=1, first_to=3)
        round_ = await organiser.start_round(timeout=60)
        assert round_ is not None, recorder.problems
        await organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/", expect=200)
        tablet = Tablet(1, event.tablet_tokens[1], client, recorder, ledger, seed=1, behaviour=FAST)
        state = await tablet.board()
        assert state is not None
        await tablet.seat(state, time.monotonic() + 30)
        state = await tablet.board()
        assert state is not None
        from scoring.simulate import simulate_game

        hands = simulate_game(state["rules"], seed=5, first_dealer=int(state["next_dealer"])).tally_hands
        for number, record in enumerate(hands, 1):
            assert await tablet.submit(int(state["board"]), 1, number, record, time.monotonic() + 30) is not None
        await tablet.write("tablet_confirm", f"/api/v1/tablet/boards/{state['board']}/confirmations/",
                           {"game": 1, "side": "a"}, expect=201, hard_deadline=time.monotonic() + 30)
        return {"tournament": event.tournament_id, "round": int(round_["id"]), "board": int(state["board"])}


def race(ids: dict[str, Any], *, with_fix: bool) -> list[str]:
    from django.db import connection

    from tournaments.models import Board, Device, Game, Round, TournamentRole
    from tournaments.services import confirmations

    user = TournamentRole.objects.filter(tournament_id=ids["tournament"]).select_related("user").first().user
    device = Device.objects.get(tournament_id=ids["tournament"], table=1, revoked_at__isnull=True)
    game = Game.objects.get(board_id=ids["board"], number=1)
    original = confirmations.audit_record

    def slow_audit(**kwargs: Any) -> Any:
        result = original(**kwargs)
        if kwargs.get("action") == "round.close":
            time.sleep(2.0)  # the close's transaction stays open, its locks held, its work done
        return result

    confirmations.audit_record = slow_audit  # type: ignore[assignment]
    refresh = confirmations.board_results_refresh
    if with_fix:  # the proposed fix: read the board and its round again once the game's lock is held

        def fresh_refresh(board: Board, **kwargs: Any) -> Board:
            return refresh(Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk), **kwargs)

        confirmations.board_results_refresh = fresh_refresh  # type: ignore[assignment]
    errors: list[str] = []

    def close() -> None:
        try:
            confirmations.round_close(round=Round.objects.get(pk=ids["round"]), user=user, confirm_remaining=True)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"close: {exc!r}")
        finally:
            connection.close()

    def confirm() -> None:
        time.sleep(0.5)
        try:
            confirmations.game_confirm(game=game, party="b", device=device)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"confirm: {exc!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=close), threading.Thread(target=confirm)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    confirmations.audit_record = original  # type: ignore[assignment]
    confirmations.board_results_refresh = refresh  # type: ignore[assignment]
    board = Board.objects.get(pk=ids["board"])
    in_play = list(Game.objects.filter(board=board, status=Game.Status.IN_PLAY).values_list("number", flat=True))
    status = Round.objects.get(pk=ids["round"]).status
    print(f"round {status}; board decided={board.decided} winner={board.winner} bullseyes "
          f"{board.bullseyes_a}-{board.bullseyes_b} all_confirmed={board.all_confirmed}; games in play: {in_play}; "
          f"errors: {errors}")
    failures = []
    if not (board.decided and board.winner == 0):
        failures.append("the board is not decided after time was called (pair A led 1-0)")
    if in_play:
        failures.append(f"the closed round has game(s) {in_play} in play")
    return failures


def main() -> int:
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sigterm_as_exit(), Stack(settings="benchmarks.drills.settings", web_workers=1, worker_concurrency=1,
                                  fast_db=True) as stack:
        stack.use_here()
        logging.getLogger("httpx").setLevel(logging.WARNING)
        ids = asyncio.run(prepare(stack))
        failures = race(ids, with_fix="--with-fix" in sys.argv)
    for failure in failures:
        print(f"FAIL  {failure}")
    if not failures:
        print("PASS  a confirmation racing the round's close leaves the close's result")
    print(f"{0 if failures else 1} passed, {len(failures and [1])} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
