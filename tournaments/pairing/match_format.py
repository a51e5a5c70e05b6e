"""A board's match format and what its games add up to (DECISIONS.md, "Events, entrants and formats").

``first_to`` N: the first pair to win N games (bullseyes) takes the match. ``games`` N: a fixed number
of games; more bullseyes wins and level is a draw, except in a knockout, where a level match is
decided by one more game. When time is called on an undecided board, the side with more bullseyes
wins and level is a draw (Swiss and round robin), or needs the extra game (knockout).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .types import PairingError


class MatchKind(StrEnum):
    """``first_to`` N games, or a fixed number of ``games``."""

    FIRST_TO = "first_to"
    GAMES = "games"


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How many games a board plays, e.g. ``MatchFormat.first_to(2)`` (the knockout default)."""

    kind: MatchKind
    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise PairingError("bad_format", "a match format needs at least one game")

    @classmethod
    def first_to(cls, n: int) -> MatchFormat:
        """First to ``n`` games (best of 2n - 1)."""
        return cls(MatchKind.FIRST_TO, n)

    @classmethod
    def games(cls, n: int) -> MatchFormat:
        """Exactly ``n`` games."""
        return cls(MatchKind.GAMES, n)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.n}"


class BoardStatus(StrEnum):
    """Where a board's match stands."""

    IN_PLAY = "in_play"
    DECIDED = "decided"
    NEEDS_DECIDER = "needs_decider"


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """``winner`` is the winning side (0 or 1), None for a draw or an undecided match;
    ``match_points`` is set once decided."""

    status: BoardStatus
    winner: int | None = None
    match_points: tuple[int, int] | None = None


def board_outcome(
    fmt: MatchFormat,
    bullseyes: tuple[int, int],
    *,
    knockout: bool = False,
    time_called: bool = False,
    points: tuple[int, int, int] = (2, 1, 0),
) -> BoardOutcome:
    """The state of a board from its confirmed games won by side 0 and side 1.

    ``points`` are the match points for a win, a draw and a loss.
    """
    a, b = bullseyes
    if a < 0 or b < 0:
        raise PairingError("bad_score", "games won cannot be negative")
    win, draw, loss = points
    if fmt.kind is MatchKind.FIRST_TO:
        if a > fmt.n or b > fmt.n or (a == fmt.n and b == fmt.n):
            raise PairingError("bad_score", f"{a}-{b} is not a score of {fmt}")
        finished = a == fmt.n or b == fmt.n
    else:
        finished = a + b >= fmt.n
        if knockout and a + b > fmt.n + 1 or not knockout and a + b > fmt.n:
            raise PairingError("bad_score", f"{a}-{b} is more games than {fmt} plays")
    if not finished and not time_called:
        return BoardOutcome(BoardStatus.IN_PLAY)
    if a == b:
        if knockout:
            return BoardOutcome(BoardStatus.NEEDS_DECIDER)
        return BoardOutcome(BoardStatus.DECIDED, None, (draw, draw))
    side = 0 if a > b else 1
    return BoardOutcome(BoardStatus.DECIDED, side, (win, loss) if side == 0 else (loss, win))
