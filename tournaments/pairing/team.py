"""Club team matches: line-ups, the boards of a team match, and who takes it.

Each club fields K pairs in board order; slot i of one club meets slot i of the other. Without a
line-up a club plays its first K pairs by seed. Sides alternate down the boards (the home club's pair
on side 0 at boards 1, 3, 5, ...). Who takes a team match is the registry's
``tournaments.formats.team_match_decision`` (one copy, used by the services).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .types import PairingError


def default_lineup(roster_by_seed: Sequence[int], k: int) -> tuple[int, ...]:
    """The club's first ``k`` pairs by seed."""
    if k < 1:
        raise PairingError("bad_lineup_size", "a line-up has at least one pair")
    if len(roster_by_seed) < k:
        raise PairingError("short_roster", f"the club has {len(roster_by_seed)} pairs and needs {k}")
    return tuple(roster_by_seed[:k])


def check_lineup(lineup: Sequence[int], roster: Sequence[int], k: int) -> tuple[int, ...]:
    """``lineup`` as a tuple if it is K different pairs of the club's roster; else ``PairingError``."""
    if len(lineup) != k:
        raise PairingError("bad_lineup_size", f"a line-up has {k} pairs, not {len(lineup)}")
    members = set(roster)
    seen: set[int] = set()
    for pair in lineup:
        if pair not in members:
            raise PairingError("not_on_roster", f"pair {pair} is not on the club's roster")
        if pair in seen:
            raise PairingError("duplicate_in_lineup", f"pair {pair} appears twice in the line-up")
        seen.add(pair)
    return tuple(lineup)


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a team match: ``slot`` counts from 1 down the line-ups."""

    slot: int
    side0: int
    side1: int
    side0_club: int
    side1_club: int


def team_match_boards(
    home_club: int, home_lineup: Sequence[int], away_club: int, away_lineup: Sequence[int]
) -> tuple[TeamBoard, ...]:
    """The boards of a team match: slot i against slot i, sides alternating from the home club."""
    if len(home_lineup) != len(away_lineup):
        raise PairingError("lineup_mismatch", "both clubs field the same number of pairs")
    if home_club == away_club:
        raise PairingError("same_club", "a club cannot play a team match against itself")
    boards = []
    for slot, (home, away) in enumerate(zip(home_lineup, away_lineup, strict=True), start=1):
        if slot % 2:
            boards.append(TeamBoard(slot, home, away, home_club, away_club))
        else:
            boards.append(TeamBoard(slot, away, home, away_club, home_club))
    return tuple(boards)
