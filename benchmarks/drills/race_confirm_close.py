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

import sys
import time
from typing import Any

from benchmarks.drills.repro import guarded, one_board, run_repro, run_together
from benchmarks.load.stack import Stack


async def prepare(stack: Stack) -> dict[str, Any]:
    return await one_board(stack, name="race", seeds=(5,), pair_a_confirms_game_1=True)


def race(ids: dict[str, Any], *, with_fix: bool) -> list[str]:
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
    run_together(
        guarded(errors, "close", lambda: confirmations.round_close(
            round=Round.objects.get(pk=ids["round"]), user=user, confirm_remaining=True)),
        guarded(errors, "confirm", lambda: confirmations.game_confirm(game=game, party="b", device=device),
                delay=0.5),
    )
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
    return run_repro(prepare, lambda ids: race(ids, with_fix="--with-fix" in sys.argv),
                     passed="a confirmation racing the round's close leaves the close's result")


if __name__ == "__main__":
    sys.exit(main())
