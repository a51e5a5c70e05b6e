"""Reproduces the deadlock behind the 503s that ``make load`` saw on ``POST /rounds/<id>/close/``.

    python -m benchmarks.drills.deadlock_close             # exit status 1 while the deadlock is there
    python -m benchmarks.drills.deadlock_close --with-fix  # the same with the proposed fix patched in

Not part of ``make drills``: the repro of a product bug (fixed in commit 6a6d20c), kept as its proof. On a private stack:
one board, first to 3; the tablet plays games 1 and 2 to their ends. Then, in this process, two threads
through the services: pair B confirms game 2 (``game_confirm``, held 1 s after it locked the game, before
it refreshes the board, to make the interleaving certain) while the organiser closes the round
(``round_close``). ``round_close`` locks the round's games with ``select_for_update()`` joined to their
boards, which locks the boards' rows as well, game by game in id order: game 1 and its board, then it waits
for game 2, which the confirmation holds; the confirmation then updates the board, which the close holds.
PostgreSQL breaks the deadlock after ``deadlock_timeout`` (1 s) by failing one of the two, which the API
answers as 503 ``database_unavailable``. Fix, both in ``round_close``'s module
(``tournaments/services/confirmations.py``): ``select_for_update(of=("self",))`` in ``_round_games``
(games only, the documented lock order) and in ``round_close``'s ``Round.objects.select_for_update()``
(the round only: with ``select_related("tournament")`` it locks the tournament row too, and the
confirmation's deferred foreign-key check on the tournament, at COMMIT, then waits for the close).
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
from scoring.simulate import simulate_game


async def prepare(stack: Stack) -> dict[str, Any]:
    recorder, ledger = Recorder(), Ledger()
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=30) as client:
        event, organiser = await create_event(client, recorder, name="deadlock", pairs=2, tables=1, first_to=3)
        round_ = await organiser.start_round(timeout=60)
        assert round_ is not None, recorder.problems
        await organiser.call("round_publish", "POST", f"/api/v1/rounds/{round_['id']}/publish/", expect=200)
        tablet = Tablet(1, event.tablet_tokens[1], client, recorder, ledger, seed=1, behaviour=FAST)
        state = await tablet.board()
        assert state is not None
        await tablet.seat(state, time.monotonic() + 30)
        for seed in (5, 6):
            state = await tablet.board()
            assert state is not None and state["game_status"] == "in_play", state
            hands = simulate_game(state["rules"], seed=seed, first_dealer=int(state["next_dealer"])).tally_hands
            for number, record in enumerate(hands, 1):
                answer = await tablet.submit(int(state["board"]), int(state["game_number"]), number, record,
                                             time.monotonic() + 30)
                assert answer is not None, recorder.problems
        return {"tournament": event.tournament_id, "round": int(round_["id"]), "board": int(state["board"])}


def race(ids: dict[str, Any], *, with_fix: bool) -> list[str]:
    from django.db import connection

    from tournaments.models import Device, Game, Round, TournamentRole
    from tournaments.services import confirmations

    user = TournamentRole.objects.filter(tournament_id=ids["tournament"]).select_related("user").first().user
    device = Device.objects.get(tournament_id=ids["tournament"], table=1, revoked_at__isnull=True)
    game = Game.objects.get(board_id=ids["board"], number=2)
    confirm_locked, round_games = confirmations._confirm_locked, confirmations._round_games

    def slow_confirm(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)  # the game is locked; the board is not updated yet
        return confirm_locked(*args, **kwargs)

    def games_only(round_: Round) -> list[Game]:  # the proposed fix
        return list(Game.objects.select_for_update(of=("self",)).filter(board__round=round_)
                    .exclude(status=Game.Status.VOIDED).order_by("id"))

    confirmations._confirm_locked = slow_confirm  # type: ignore[assignment]
    if with_fix:
        confirmations._round_games = games_only  # type: ignore[assignment]
        # and the round alone, not its tournament (select_related would lock that row too, and every
        # write's deferred foreign-key check on the tournament waits for it at COMMIT)
        Round.objects.select_for_update = (  # type: ignore[method-assign]
            lambda **kw: Round.objects.get_queryset().select_for_update(of=("self",)))
    errors: list[str] = []

    def confirm() -> None:
        try:
            confirmations.game_confirm(game=game, party="b", device=device)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"game_confirm: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        finally:
            connection.close()

    def close() -> None:
        time.sleep(0.3)
        try:
            confirmations.round_close(round=Round.objects.get(pk=ids["round"]), user=user, confirm_remaining=True)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"round_close: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm), threading.Thread(target=close)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    confirmations._confirm_locked, confirmations._round_games = confirm_locked, round_games  # type: ignore[assignment]
    Round.objects.__dict__.pop("select_for_update", None)
    status = Round.objects.get(pk=ids["round"]).status
    print(f"round {status}; errors: {errors or 'none'}")
    return [f"{e}" for e in errors] + ([] if status == "closed" else ["the round did not close"])


def main() -> int:
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sigterm_as_exit(), Stack(settings="benchmarks.drills.settings", web_workers=1, worker_concurrency=1,
                                  fast_db=True) as stack:
        stack.use_here()
        logging.getLogger("httpx").setLevel(logging.WARNING)
        ids = asyncio.run(prepare(stack))
        failures = race(ids, with_fix="--with-fix" in sys.argv)
        lines = stack.pg.log_file.read_text(errors="replace").splitlines()
        at = next((i for i, line in enumerate(lines) if "deadlock detected" in line), None)
        deadlock = lines[at:at + 8] if at is not None else []
    for line in deadlock:
        print(f"postgresql: {line[:400]}")
    for failure in failures:
        print(f"FAIL  {failure}")
    if not failures:
        print("PASS  a confirmation and the round's close run one after the other, no deadlock")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
