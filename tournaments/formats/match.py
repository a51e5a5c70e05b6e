"""Match formats: how many games a board plays, and how a club-team match is decided.

A board (docs/decisions.md, "Events, entrants and formats"):

* ``first_to`` N: the first pair to N bullseyes (games) wins (best of 2N - 1);
* ``games`` N: a fixed number of games; more bullseyes wins, level is a draw, except in a knockout where
  one more game decides (the board's format then carries ``extra``);
* ``race``: a board of a ``first_to_total`` team match; it plays until the team match is decided.

A team match (``TeamFormat``): K boards, decided by total bullseyes either after each board's fixed
``games`` or as a race, ``first_to_total`` N, that ends as soon as one club's boards have won N games.
When time is called an undecided match goes to the side ahead; level is a draw (a knockout waits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import FormatError, whole

MAX_GAMES = 99  # a board's N
MAX_BOARDS = 99  # a team match's K
MAX_TEAM_TARGET = 999  # a team race's N


class MatchKind(StrEnum):
    """What a board plays: ``first_to`` N, ``games`` N, or a ``race`` board of a team match."""

    FIRST_TO = "first_to"
    GAMES = "games"
    RACE = "race"

    @property
    def label(self) -> str:
        return {"first_to": "First to N games", "games": "A fixed number of games",
                "race": "Plays on until the team race is won"}[self.value]


#: What an organiser may choose for a board (``race`` comes from a team format).
CHOSEN_MATCH_KINDS = (MatchKind.FIRST_TO, MatchKind.GAMES)


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """A board's format, e.g. ``MatchFormat(MatchKind.FIRST_TO, 2)``; ``extra`` marks a knockout board
    given one more game to break a level score."""

    kind: MatchKind
    n: int
    extra: bool = False

    @classmethod
    def from_dict(cls, data: object, path: str = "match_format", *, chosen: bool = True) -> MatchFormat:
        """``{"kind": "first_to", "n": 2}``; ``chosen`` refuses the kinds an organiser cannot pick."""
        if not isinstance(data, dict):
            raise FormatError("bad_format", 'A match format such as {"kind": "first_to", "n": 2}.', path)
        allowed = {"kind", "n"} if chosen else {"kind", "n", "extra"}
        extra_keys = set(data) - allowed
        if extra_keys:
            key = sorted(extra_keys)[0]
            raise FormatError("unknown_field", f"Unknown field {key!r}.", f"{path}.{key}")
        kinds = CHOSEN_MATCH_KINDS if chosen else tuple(MatchKind)
        try:
            kind = MatchKind(str(data.get("kind")))
            if kind not in kinds:
                raise ValueError
        except ValueError:
            raise FormatError("bad_kind", f"One of {', '.join(k.value for k in kinds)}.", f"{path}.kind") from None
        if "n" not in data:
            raise FormatError("required", "How many games.", f"{path}.n")
        n = whole(data["n"], 1, MAX_GAMES if kind is not MatchKind.RACE else MAX_TEAM_TARGET, f"{path}.n",
                  "The number of games")
        return cls(kind, n, bool(data.get("extra", False)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "n": self.n}
        if self.extra:
            out["extra"] = True
        return out

    @property
    def label(self) -> str:
        """``First to 2 games``, ``3 games``, ``Race``."""
        if self.kind is MatchKind.FIRST_TO:
            return f"First to {self.n} {_games(self.n)}"
        if self.kind is MatchKind.GAMES:
            return f"{self.n} {_games(self.n)}"
        return f"Played on until one club's boards reach {self.n} bullseyes"

    @property
    def explanation(self) -> str:
        if self.kind is MatchKind.FIRST_TO:
            return f"The first pair to win {self.n} {_games(self.n)} takes the board (best of {2 * self.n - 1})."
        if self.kind is MatchKind.GAMES:
            return (f"Each board plays {self.n} {_games(self.n)}: more games won takes it, level is a draw "
                    "(a knockout plays one more game).")
        return "The board plays on until one club's boards have won the team race."


DEFAULT_MATCH_FORMAT = MatchFormat(MatchKind.FIRST_TO, 2)


def _games(n: int) -> str:
    return "game" if n == 1 else "games"


class TeamKind(StrEnum):
    """How a club-team match is decided over its boards."""

    GAMES = "games"
    FIRST_TO_TOTAL = "first_to_total"

    @property
    def label(self) -> str:
        return {"games": "Every board plays N games; total bullseyes decide",
                "first_to_total": "A race: the first club to N bullseyes over all boards"}[self.value]


@dataclass(frozen=True, slots=True)
class TeamFormat:
    """A club-team match: ``boards`` K, decided by ``kind`` with ``n``."""

    boards: int
    kind: TeamKind
    n: int

    @classmethod
    def from_dict(cls, data: object, path: str = "team_format") -> TeamFormat:
        """``{"boards": 12, "kind": "first_to_total", "n": 17}``."""
        if not isinstance(data, dict):
            raise FormatError("bad_format", 'A team format such as {"boards": 4, "kind": "games", "n": 1}.', path)
        extra_keys = set(data) - {"boards", "kind", "n"}
        if extra_keys:
            key = sorted(extra_keys)[0]
            raise FormatError("unknown_field", f"Unknown field {key!r}.", f"{path}.{key}")
        boards = whole(data.get("boards"), 1, MAX_BOARDS, f"{path}.boards", "The number of boards")
        try:
            kind = TeamKind(str(data.get("kind")))
        except ValueError:
            raise FormatError("bad_kind", f"One of {', '.join(k.value for k in TeamKind)}.", f"{path}.kind") from None
        high = MAX_GAMES if kind is TeamKind.GAMES else MAX_TEAM_TARGET
        n = whole(data.get("n"), 1, high, f"{path}.n", "N")
        return cls(boards, kind, n)

    def to_dict(self) -> dict[str, Any]:
        return {"boards": self.boards, "kind": self.kind.value, "n": self.n}

    @property
    def board_format(self) -> MatchFormat:
        """What each board of such a team match plays."""
        if self.kind is TeamKind.FIRST_TO_TOTAL:
            return MatchFormat(MatchKind.RACE, self.n)
        return MatchFormat(MatchKind.GAMES, self.n)

    @property
    def label(self) -> str:
        if self.kind is TeamKind.FIRST_TO_TOTAL:
            return f"{self.boards} boards, first club to {self.n} bullseyes"
        return f"{self.boards} boards of {self.n} {_games(self.n)}, total bullseyes decide"

    @property
    def explanation(self) -> str:
        if self.kind is TeamKind.FIRST_TO_TOTAL:
            return (f"Each club fields {self.boards} pairs; the first club whose boards win {self.n} games "
                    "together takes the match, and the boards still playing stop.")
        return (f"Each club fields {self.boards} pairs; every board plays {self.n} {_games(self.n)} and the "
                "club with more bullseyes in all takes the match.")


#: An event without a team format plays one board of one game per team match (the model's old default).
DEFAULT_TEAM_FORMAT = TeamFormat(1, TeamKind.GAMES, 1)


def race_target(match_format: MatchFormat, team_format: TeamFormat | None) -> int | None:
    """The event's race target (games that win a match), when it has one: a team race's N, else a board's
    ``first_to`` N; None for fixed numbers of games."""
    if team_format is not None:
        return team_format.n if team_format.kind is TeamKind.FIRST_TO_TOTAL else None
    return match_format.n if match_format.kind is MatchKind.FIRST_TO else None


# ---- where a match stands ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Where a board's match stands after its finished games (in order).

    ``counted`` finished games count for the match (those after the deciding game do not);
    ``needs_game``: another game must be played.
    """

    decided: bool
    winner: int | None
    is_draw: bool
    counted: int
    needs_game: bool


def leader(wins: Sequence[int]) -> int | None:
    """The side with more (0 or 1), None when level."""
    return None if wins[0] == wins[1] else (0 if wins[0] > wins[1] else 1)


def forfeit_games(fmt: MatchFormat, won: int, played: int) -> int:
    """Games awarded to the side present when a board is forfeited (docs/decisions.md, "Where a result
    comes from"): what it still needs to win the match (first to N: N less the games it won; N games:
    the games not yet played). A board of a team race adds none: the clubs race on their other boards."""
    if fmt.kind is MatchKind.FIRST_TO:
        return max(fmt.n - won, 0)
    if fmt.kind is MatchKind.GAMES:
        return max(fmt.n - played, 0)
    return 0


def match_outcome(
    fmt: MatchFormat, winners: Sequence[int | None], *, knockout: bool = False,
    time_called: bool = False, race_decided: bool = False,
) -> MatchOutcome:
    """The board's state from the winners of its finished games, in order (None: a game without a winner)."""
    wins = [0, 0]

    def called(counted: int) -> MatchOutcome:
        if knockout:  # a knockout match is decided by play only: its round waits for it
            return MatchOutcome(False, None, False, counted, False)
        side = leader(wins)
        return MatchOutcome(True, side, side is None, counted, False)

    if fmt.kind is MatchKind.RACE:
        for w in winners:
            if w is not None:
                wins[w] += 1
        if race_decided or time_called:
            side = leader(wins)
            return MatchOutcome(True, side, side is None, len(winners), False)
        return MatchOutcome(False, None, False, len(winners), True)
    if fmt.kind is MatchKind.GAMES:
        for i, w in enumerate(winners):
            if w is not None:
                wins[w] += 1
            if i + 1 >= fmt.n:
                side = leader(wins)
                if side is not None:
                    return MatchOutcome(True, side, False, i + 1, False)
                if not knockout:
                    return MatchOutcome(True, None, True, i + 1, False)
        if time_called:
            return called(len(winners))
        return MatchOutcome(False, None, False, len(winners), True)
    for i, w in enumerate(winners):  # first_to
        if w is None:
            continue
        wins[w] += 1
        if wins[w] >= fmt.n:
            return MatchOutcome(True, w, False, i + 1, False)
    if time_called:
        return called(len(winners))
    return MatchOutcome(False, None, False, len(winners), True)


@dataclass(frozen=True, slots=True)
class TeamDecision:
    """Where a team match stands: ``decided``, ``winner`` (0 club A, 1 club B, None level) and
    ``needs_extra`` (a level knockout match: one more game on its first board)."""

    decided: bool
    winner: int | None
    needs_extra: bool = False


def team_match_decision(
    fmt: TeamFormat, totals: Sequence[int], *, boards_decided: bool, knockout: bool = False,
    time_called: bool = False, has_opponent: bool = True,
) -> TeamDecision:
    """A team match's state from the clubs' bullseye ``totals`` (club A, club B)."""
    if not has_opponent:
        return TeamDecision(True, 0)
    if fmt.kind is TeamKind.FIRST_TO_TOTAL:
        reached = [side for side in (0, 1) if totals[side] >= fmt.n]
        if reached:
            return TeamDecision(True, reached[0] if len(reached) == 1 else leader(totals))
        if time_called:
            return TeamDecision(True, leader(totals))
        return TeamDecision(False, None)
    if boards_decided or time_called:
        side = leader(totals)
        if side is None and knockout:
            return TeamDecision(False, None, needs_extra=not time_called)
        return TeamDecision(True, side)
    return TeamDecision(False, None)
