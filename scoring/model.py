"""The engine's typed objects: a hand record read from either form, and what scoring it yields.

Both entry forms of HAND_FORMAT.md become one ``Hand``: ``tally.py`` reads the tally form (checking
every consistency rule), ``play.py`` derives the same facts from a card-by-card record. ``score.py``
scores a ``Hand`` into ``Event`` objects; one code path for both forms.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from .cards import Card, Suit

Beg = Literal["stand", "give", "run"]
PenaltyKind = Literal["revoke", "trump_revoke", "undertrump"]
EventKind = Literal[
    "kick", "gift", "misdeal", "revoke", "trump_revoke", "undertrump", "high", "low", "jack", "hang_jack", "game"
]


@dataclasses.dataclass(frozen=True, slots=True)
class Penalty:
    """A renege or an illegal undertrump, by ``side`` (the offender), in the order it happened."""

    kind: PenaltyKind
    side: int


@dataclasses.dataclass(frozen=True, slots=True)
class Award:
    """High or Low: the side that scores it and, when known, the card."""

    side: int
    card: Card | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class JackOutcome:
    """The jack of trumps in play: the side it was dealt to and the side that won the trick holding it."""

    held_by: int
    won_by: int


@dataclasses.dataclass(frozen=True, slots=True)
class Hand:
    """One hand, as either form describes it, normalised.

    ``counted`` is false when the record stops before the counted fields (a misdeal, or the game ended
    during the deal so ``high``/``low``/``jack``/``game`` were left out). ``trump`` is the suit of the
    last kick unless the record stopped before trump was fixed.
    """

    dealer: int
    misdeal: bool = False
    abandoned: tuple[tuple[Card, ...], ...] = ()
    kicks: tuple[Card, ...] = ()
    beg: Beg | None = None
    high: Award | None = None
    low: Award | None = None
    jack: JackOutcome | None = None
    game: tuple[int, ...] | None = None
    penalties: tuple[Penalty, ...] = ()
    counted: bool = False
    trump: Suit | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """One scoring event of the result document: ``kind``, the ``side`` that scores, ``points``.

    ``card`` is set for kicks, High and Low when known; ``offender`` for penalties.
    """

    kind: EventKind
    side: int
    points: int
    card: Card | None = None
    offender: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "side": self.side, "points": self.points}
        if self.card is not None:
            out["card"] = self.card.text
        if self.offender is not None:
            out["offender"] = self.offender
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand scored: its trump (``None`` if never fixed), events, the score after it, the
    winner (a side or ``None``) and the seat that deals next."""

    trump: Suit | None
    events: tuple[Event, ...]
    score: tuple[int, ...]
    winner: int | None
    next_dealer: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "trump": self.trump.value if self.trump is not None else None,
            "events": [e.to_dict() for e in self.events],
            "score": list(self.score),
            "winner": self.winner,
            "next_dealer": self.next_dealer,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """A whole game document scored: the final score, the winner and every hand's result."""

    score: tuple[int, ...]
    winner: int | None
    hands: tuple[HandResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"score": list(self.score), "winner": self.winner, "hands": [h.to_dict() for h in self.hands]}
