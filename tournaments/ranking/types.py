"""Plain value types of the standings: board results in, ranked rows out.

The service builds ``BoardResult``s from confirmed games only (docs/decisions.md: bullseyes, chalks and
hang jacks count per confirmed game; match points once the match is decided and all its games are
confirmed) and stores ``Standings.as_dict()`` as the snapshot of a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.formats import (
    DEFAULT_BYE_POLICY,
    DEFAULT_FORFEIT_POLICY,
    DEFAULT_TIE_BREAKS,
    TIE_BREAKS,
    AwardPolicy,
    FormatError,
)


class RankingError(ValueError):
    """Standings that cannot be computed from what was given: a stable ``code`` and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RankingError({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board's confirmed games: ``side0`` is pair A, ``side1`` pair B (or clubs, for a team match).

    ``bullseyes`` are games won, ``chalks`` the games' final scores, ``hang_jacks`` the jacks hanged,
    each as (side 0, side 1) over confirmed games. ``decided``: the match is decided and all its games
    are confirmed, so it gives match points: more bullseyes wins, level is a draw.

    ``forfeited``: who did not play a forfeited board (0, 1, or 2 for both; None when played). The side
    present wins whatever the figures; both absent is two losses. A forfeit is not a meeting (no
    head-to-head, no Buchholz opponent) and, when ``awarded`` (no game was kept), the winner's chalks and
    hang jacks come from the forfeit policy (``RankingConfig.forfeit``).
    """

    round_number: int
    side0: int
    side1: int
    bullseyes: tuple[int, int] = (0, 0)
    chalks: tuple[int, int] = (0, 0)
    hang_jacks: tuple[int, int] = (0, 0)
    decided: bool = False
    forfeited: int | None = None
    awarded: bool = False

    @property
    def winner(self) -> int | None:
        """The winning side (0 or 1) of a decided board; None for a draw, two forfeits or an undecided
        board."""
        if self.forfeited is not None:
            return None if self.forfeited not in (0, 1) else 1 - self.forfeited
        if not self.decided or self.bullseyes[0] == self.bullseyes[1]:
            return None
        return 0 if self.bullseyes[0] > self.bullseyes[1] else 1


@dataclass(frozen=True, slots=True)
class ByeRecord:
    """An entrant that sat out a round."""

    round_number: int
    entrant: int


def parse_tie_breaks(names: Sequence[str]) -> tuple[str, ...]:
    """Tie-break names checked against the registry; ``RankingError`` for an unknown or repeated name."""
    try:
        return TIE_BREAKS.parse(list(names))
    except FormatError as exc:
        raise RankingError(exc.code, exc.message) from None


@dataclass(frozen=True)
class RankingConfig:
    """Tie-break order (registry names), match points for (win, draw, loss), the bye's policy and the
    event's race target (for a policy that awards it; None when the event has none)."""

    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    points: tuple[int, int, int] = (2, 1, 0)
    bye: AwardPolicy = DEFAULT_BYE_POLICY
    race_target: int | None = None
    forfeit: AwardPolicy = DEFAULT_FORFEIT_POLICY

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie_breaks", parse_tie_breaks(self.tie_breaks))
        win, draw, loss = self.points
        if not win >= draw >= loss:
            raise RankingError("bad_points", "a win must be worth at least a draw, a draw at least a loss")
        if (self.bye.uses_race_target or self.forfeit.uses_race_target) and self.race_target is None:
            raise RankingError("no_race_target", "the bye policy awards the race target, but the event has none")


def _plain(value: Fraction | int) -> int | float:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the table. Figures that a bye can average are ``Fraction``s, exact for ties.

    ``tied`` says the rank is shared; ``head_to_head`` is the match points among the tied group when
    that tie-break applied to this entrant, else None.
    """

    entrant_id: int
    rank: int
    tied: bool
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_points: int
    bullseyes_won: Fraction
    bullseyes_lost: Fraction
    chalks_for: Fraction
    chalks_against: Fraction
    hang_jacks_for: Fraction
    hang_jacks_against: Fraction
    buchholz: int = 0
    head_to_head: int | None = None
    #: Boards won because the other side forfeited, and boards this entrant forfeited (in ``wins`` and
    #: ``losses`` too).
    forfeits_won: int = 0
    forfeits_lost: int = 0

    @property
    def bullseye_difference(self) -> Fraction:
        """Bullseyes won minus lost."""
        return self.bullseyes_won - self.bullseyes_lost

    @property
    def chalk_difference(self) -> Fraction:
        """Chalks for minus against."""
        return self.chalks_for - self.chalks_against

    @property
    def record(self) -> str:
        """Wins-losses, or wins-draws-losses once there is a draw (byes included as configured)."""
        if self.draws:
            return f"{self.wins}-{self.draws}-{self.losses}"
        return f"{self.wins}-{self.losses}"

    def as_dict(self) -> dict[str, int | float | str | bool | None]:
        """A JSON-ready row (averaged figures as floats)."""
        return {
            "entrant_id": self.entrant_id,
            "rank": self.rank,
            "tied": self.tied,
            "record": self.record,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "match_points": self.match_points,
            "bullseyes_won": _plain(self.bullseyes_won),
            "bullseyes_lost": _plain(self.bullseyes_lost),
            "chalks_for": _plain(self.chalks_for),
            "chalks_against": _plain(self.chalks_against),
            "chalk_difference": _plain(self.chalk_difference),
            "hang_jacks_for": _plain(self.hang_jacks_for),
            "hang_jacks_against": _plain(self.hang_jacks_against),
            "buchholz": self.buchholz,
            "head_to_head": self.head_to_head,
            "forfeits_won": self.forfeits_won,
            "forfeits_lost": self.forfeits_lost,
        }


@dataclass(frozen=True)
class Standings:
    """The ranked table: ``rows`` best first, ties in the order the entrants were given."""

    rows: tuple[StandingRow, ...]
    tie_breaks: tuple[str, ...]

    def row(self, entrant_id: int) -> StandingRow:
        """The row of one entrant."""
        for r in self.rows:
            if r.entrant_id == entrant_id:
                return r
        raise RankingError("unknown_entrant", f"{entrant_id} is not in these standings")

    def ranked_ids(self) -> tuple[int, ...]:
        """Entrant ids best first (the order a Swiss or a knockout seeding takes)."""
        return tuple(r.entrant_id for r in self.rows)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready snapshot: the tie-break order and the rows."""
        return {"tie_breaks": list(self.tie_breaks), "rows": [r.as_dict() for r in self.rows]}
