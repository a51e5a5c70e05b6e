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

import sys
import time
from typing import Any

from benchmarks.drills.repro import guarded, one_board, run_repro, run_together
from benchmarks.load.stack import Stack


async def prepare(stack: Stack) -> dict[str, Any]:
    return await one_board(stack, name="deadlock", seeds=(5, 6))


def race(ids: dict[str, Any], *, with_fix: bool) -> list[str]:
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
    run_together(
        guarded(errors, "game_confirm", lambda: confirmations.game_confirm(game=game, party="b", device=device)),
        guarded(errors, "round_close", lambda: confirmations.round_close(
            round=Round.objects.get(pk=ids["round"]), user=user, confirm_remaining=True), delay=0.3),
    )
    confirmations._confirm_locked, confirmations._round_games = confirm_locked, round_games  # type: ignore[assignment]
    Round.objects.__dict__.pop("select_for_update", None)
    status = Round.objects.get(pk=ids["round"]).status
    print(f"round {status}; errors: {errors or 'none'}")
    return [f"{e}" for e in errors] + ([] if status == "closed" else ["the round did not close"])


def deadlock_log(stack: Stack) -> list[str]:
    lines = stack.pg.log_file.read_text(errors="replace").splitlines()
    at = next((i for i, line in enumerate(lines) if "deadlock detected" in line), None)
    return [f"postgresql: {line[:400]}" for line in (lines[at:at + 8] if at is not None else [])]


def main() -> int:
    return run_repro(prepare, lambda ids: race(ids, with_fix="--with-fix" in sys.argv), after=deadlock_log,
                     passed="a confirmation and the round's close run one after the other, no deadlock")


if __name__ == "__main__":
    sys.exit(main())
