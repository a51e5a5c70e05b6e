"""Confirmation per game, disputes, bulk confirmation and closing a round."""

from __future__ import annotations

from typing import Any

from tournaments.models import Device, Game, GameConfirmation, Round


def game_confirm(
    *, game: Game, party: str, agrees: bool = True, reason: str = "",
    device: Device | None = None, user: Any = None,
) -> GameConfirmation:
    raise NotImplementedError


def round_confirm_all(*, round: Round, user: Any) -> int:  # noqa: A002
    raise NotImplementedError


def round_close(*, round: Round, user: Any, confirm_remaining: bool = False) -> Round:  # noqa: A002
    raise NotImplementedError
