"""The engine's typed objects: a hand record read from either form, and what scoring it yields.

Both entry forms of docs/hand-format.md become one ``Hand``: ``tally.py`` reads the tally form (checking
every consistency rule), ``play.py`` derives the same facts from a card-by-card record. ``score.py``
scores a ``Hand`` into ``Event`` objects; one code path for both forms.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Final, Literal, NamedTuple

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


class Hand(NamedTuple):
    """One hand, as either form describes it, normalised.

    ``counted`` is false when the record stops before the counted fields (a misdeal, or the game ended
    during the deal so ``high``/``low``/``jack``/``game`` were left out). ``trump`` is the suit of the
    last kick unless the record stopped before trump was fixed.

    An immutable named tuple rather than a dataclass: one is built per hand read, and a frozen
    dataclass of twelve fields costs several times as much to build.
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
    _json: dict[str, Any] = dataclasses.field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        out: dict[str, Any] = {"kind": self.kind, "side": self.side, "points": self.points}
        if self.card is not None:
            out["card"] = self.card.text
        if self.offender is not None:
            out["offender"] = self.offender
        object.__setattr__(self, "_json", out)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON data: ``{"kind", "side", "points", "card"?, "offender"?}`` (a new dict)."""
        return self._json.copy()


class HandResult(NamedTuple):
    """What one hand scored: its trump (``None`` if never fixed), events, the score after it, the
    winner (a side or ``None``) and the seat that deals next."""

    trump: Suit | None
    events: tuple[Event, ...]
    score: tuple[int, ...]
    winner: int | None
    next_dealer: int

    def to_dict(self) -> dict[str, Any]:
        """The hand's entry of the result document."""
        return {
            "trump": _SUIT_LETTER[self.trump],
            "events": list(map(_copy, map(_JSON_OF, self.events))),
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
        """The result document of docs/hand-format.md."""
        return {"score": list(self.score), "winner": self.winner, "hands": [h.to_dict() for h in self.hands]}


_JSON_OF: Final = operator.attrgetter("_json")
_copy: Final = dict.copy
_SUIT_LETTER: Final[dict[Suit | None, str | None]] = {None: None, **{suit: suit.value for suit in Suit}}


# ---- shared instances --------------------------------------------------------------------------------
# The values above are immutable, so equal values may be one object. The readers and the scorer build
# them through these look-ups instead of constructing a new object per hand (a measurable share of the
# engine's time); calling the classes directly is always fine too.
_AWARDS: Final[dict[tuple[int, Card | None], Award]] = {}
_JACKS: Final[dict[tuple[int, int], JackOutcome]] = {}
_PENALTIES: Final[dict[tuple[str, int], Penalty]] = {}
#: The shared events, by (kind, side, points, card, offender).
SHARED_EVENTS: Final[dict[tuple[str, int, int | None, Card | None, int | None], Event]] = {}
_EVENTS: Final = SHARED_EVENTS
_MAX_EVENTS: Final = 8192


def award(side: int, card: Card | None) -> Award:
    """The shared ``Award(side, card)``."""
    found = _AWARDS.get((side, card))
    if found is None:
        found = _AWARDS[(side, card)] = Award(side, card)
    return found


def jack_outcome(held_by: int, won_by: int) -> JackOutcome:
    """The shared ``JackOutcome(held_by, won_by)``."""
    found = _JACKS.get((held_by, won_by))
    if found is None:
        found = _JACKS[(held_by, won_by)] = JackOutcome(held_by, won_by)
    return found


def penalty(kind: PenaltyKind, side: int) -> Penalty:
    """The shared ``Penalty(kind, side)``."""
    found = _PENALTIES.get((kind, side))
    if found is None:
        found = _PENALTIES[(kind, side)] = Penalty(kind, side)
    return found


def event(kind: EventKind, side: int, points: int, card: Card | None = None, offender: int | None = None) -> Event:
    """The shared ``Event(kind, side, points, card, offender)``."""
    key = (kind, side, points, card, offender)
    found = _EVENTS.get(key)
    if found is None:
        if len(_EVENTS) >= _MAX_EVENTS:  # points are unbounded (lost games): keep the table small
            _EVENTS.clear()
        found = _EVENTS[key] = Event(kind, side, points, card, offender)
    return found
