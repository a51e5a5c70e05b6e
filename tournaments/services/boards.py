"""Boards: seating, help calls, and the derived results of a board and of a team match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.models import Board, Device, TeamMatch


def board_seat(
    *, board: Board, seating: Mapping[str, int] | None, first_dealer: int,
    device: Device | None = None, user: Any = None,
) -> Board:
    raise NotImplementedError


def board_call_help(*, board: Board, device: Device | None = None, user: Any = None) -> Board:
    raise NotImplementedError


def board_help_clear(*, board: Board, device: Device | None = None, user: Any = None) -> Board:
    raise NotImplementedError


def board_results_refresh(board: Board) -> Board:
    raise NotImplementedError


def team_match_refresh(team_match: TeamMatch) -> TeamMatch:
    raise NotImplementedError
