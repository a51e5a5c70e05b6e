"""Rounds: create, seat boards from pairings, publish, start play; a stand-in rotation pairing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments.models import Board, Club, Entry, Round, TeamMatch, Tournament


def tournament_rules_resolve(*, tournament: Tournament) -> Tournament:
    raise NotImplementedError


def round_create(*, tournament: Tournament, number: int | None = None) -> Round:
    raise NotImplementedError


def round_seat_boards(
    *, round: Round, pairings: Sequence[tuple[Entry, Entry | None]],  # noqa: A002
    explanations: Sequence[str] | None = None,
) -> list[Board]:
    raise NotImplementedError


def round_seat_team_matches(
    *, round: Round, matches: Sequence[tuple[Club, Club | None]],  # noqa: A002
    lineups: Mapping[int, Sequence[Entry]] | None = None, explanations: Sequence[str] | None = None,
) -> list[TeamMatch]:
    raise NotImplementedError


def round_publish(*, round: Round, user: Any = None) -> Round:  # noqa: A002
    raise NotImplementedError


def round_start_play(*, round: Round, user: Any = None) -> Round:  # noqa: A002
    raise NotImplementedError


def round_pair_rotation(round: Round) -> list[Board] | list[TeamMatch]:  # noqa: A002
    raise NotImplementedError
