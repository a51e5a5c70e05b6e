"""Reads: the tablet's view of a board, and finding a table's current board."""

from __future__ import annotations

from typing import Any

from tournaments.models import Board, Tournament


def board_for_table(*, tournament: Tournament, table: int) -> Board | None:
    raise NotImplementedError


def board_state(board: Board) -> dict[str, Any]:
    raise NotImplementedError
