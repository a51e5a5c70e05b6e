"""Checks shared by the services: who may act on a board, whether its round is open, 409s with state.
(The hot path's lean row writes and read live in ``rows.py``, their one seam.)"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar

from django.contrib.auth.base_user import AbstractBaseUser

from tournaments import roles
from tournaments.actors import Actor
from tournaments.models import Board, Device, Round
from tournaments.models.querysets import RoundQuerySet
from tournaments.selectors.organiser import role_on

from .errors import Conflict, DomainError, NotAllowed

P = ParamSpec("P")
R = TypeVar("R")

OPEN_ROUND_STATUSES = RoundQuerySet.LIVE_STATUSES
STANDINGS_TASK = "tournaments.tasks.standings_recompute"


def actor(user: Actor) -> AbstractBaseUser | None:
    """The user to record (an authenticated user), or None."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def check_device(board: Board, device: Device | None, *, tournament_id: int, table: int | None = None) -> None:
    """A tablet acts only on the board at its own table in its own tournament (403 ``not_your_board``).

    ``table`` overrides ``board.table`` when the caller read it with a lock query instead of the board.
    """
    if device is None:
        return
    table = board.table if table is None else table
    if device.tournament_id != tournament_id or table is None or device.table != table:
        raise NotAllowed("not_your_board", "This tablet does not score this board.")


def is_organiser(user: Actor, tournament_id: int) -> bool:
    """Whether ``user`` runs the tournament: staff, its organiser or a co-organiser (``manage``)."""
    return roles.allows(role_on(user, tournament_id), "manage")


def require_role(user: Actor, tournament_id: int, action: str) -> None:
    """``action`` (``tournaments.roles.POLICY``: ``read``, ``check_in``, ``pair_tablets``, ``manage``,
    ``tournament_delete``, ``manage_roles``) by ``user`` on the tournament, or 403: ``not_organiser`` without
    a role on it, ``role_not_allowed`` when the role does not cover the action."""
    role = role_on(user, tournament_id)
    if roles.allows(role, action):
        return
    raise NotAllowed("not_organiser" if role is None else "role_not_allowed", roles.refusal(role, action))


def require_organiser(user: Actor, tournament_id: int) -> None:
    """The operations that run the event (``manage``: staff, the organiser or a co-organiser), 403
    ``not_organiser`` (no role) or ``role_not_allowed`` (a scorekeeper) otherwise."""
    require_role(user, tournament_id, "manage")


def conflict(
    code: str, message: str, board: Board, *, cls: type[DomainError] = Conflict, fields: Mapping[str, str] | None = None
) -> DomainError:
    """A refusal (409 by default) that will carry the board's current state.

    The state is read by ``refusals_with_state`` once the service's transaction has rolled back, so it
    never shows a change that is being refused.
    """
    error = cls(code, message, fields=fields)
    error.state_of_board = board.pk  # type: ignore[attr-defined]
    return error


def refusals_with_state(fn: Callable[P, R]) -> Callable[P, R]:
    """Outermost decorator of a service: fills ``current`` of its refusals after the rollback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except DomainError as error:
            board_id = getattr(error, "state_of_board", None)
            if board_id is not None and error.current is None:
                from tournaments.selectors import board_state

                board = Board.objects.filter(pk=board_id).first()
                if board is not None:
                    error.current = board_state(board)
            raise

    return wrapper


def check_round_open(board: Board, round_: Round) -> None:
    """Tablet writes need the board's round published or in play (409 otherwise, with the state), and a board
    whose result comes from its hands (409 ``board_forfeited``: docs/adr/0012-result-source.md)."""
    check_round_status(board, round_.status, round_.number)
    if board.forfeited is not None:
        raise conflict("board_forfeited", "The organiser recorded this board as a forfeit: its play has stopped.",
                       board)


def check_round_status(board: Board, status: str, number: int) -> None:
    if status == Round.Status.CLOSED:
        raise conflict("stale_board", f"Round {number} is closed: this board is no longer current.", board)
    if status not in OPEN_ROUND_STATUSES:
        raise conflict("round_not_open", f"Round {number} is not published yet.", board)
