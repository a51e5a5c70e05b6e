"""Hands: submit, preview, undo (the tablet), correct and void (the organiser)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.models import Board, Device, Hand


def hand_submit(
    *, board: Board, game_number: int, hand_number: int, record: Mapping[str, Any],
    device: Device | None = None, user: Any = None,
) -> Hand:
    raise NotImplementedError


def hand_preview(*, board: Board, record: Mapping[str, Any], game_number: int | None = None) -> dict[str, Any]:
    raise NotImplementedError


def hand_undo(*, board: Board, hand_id: int, device: Device | None = None, user: Any = None) -> Hand:
    raise NotImplementedError


def hand_correct(*, hand: Hand, record: Mapping[str, Any], expected_version: int | None, user: Any) -> Hand:
    raise NotImplementedError


def hand_void(*, hand: Hand, user: Any, expected_version: int | None = None) -> Hand:
    raise NotImplementedError
