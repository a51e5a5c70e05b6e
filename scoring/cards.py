"""Cards, suits and ranks: small immutable values with a canonical text form.

``Card.parse("10H")``, ``Card.parse("T♥")`` and ``Card.parse("th")`` are the same card, and
``str(card)`` is always the canonical form (``"10H"``). Parsing is a dictionary look-up: every card is a
singleton made once at import.
"""

from __future__ import annotations

import enum
from typing import Final


class Suit(enum.Enum):
    """The four suits, written ``S H D C``."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons compared by identity, so the identity hash is consistent with ``==`` and,
    # unlike Enum's own ``__hash__`` (a Python function), costs nothing in the scorer's look-ups.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``, ``s`` or ``♠`` (and so on); raise ``ValueError`` otherwise."""
        try:
            return _SUIT_TEXT[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a suit (S, H, D or C)") from None


_SUIT_TEXT: Final[dict[str, Suit]] = {}
for _suit, _symbol in zip(Suit, "♠♥♦♣", strict=True):
    _SUIT_TEXT[_suit.value] = _suit
    _SUIT_TEXT[_suit.value.lower()] = _suit
    _SUIT_TEXT[_symbol] = _suit


class Rank(enum.IntEnum):
    """Ranks in playing order: the value is the rank's strength (2 lowest, ace highest)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The canonical text: ``A K Q J 10 9 … 2``."""
        return _RANK_SYMBOL[self]

    @property
    def card_points(self) -> int:
        """Points toward Game: 10 = 10, A = 4, K = 3, Q = 2, J = 1, the rest 0."""
        return _CARD_POINTS.get(self, 0)

    def __str__(self) -> str:
        return self.symbol

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``A``, ``a``, ``10``, ``T``, ``t``, ``2`` … ; raise ``ValueError`` otherwise."""
        try:
            return _RANK_TEXT[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a rank (A K Q J 10 9 8 7 6 5 4 3 2)") from None


_RANK_SYMBOL: Final[dict[Rank, str]] = {
    Rank.ACE: "A",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.JACK: "J",
    Rank.TEN: "10",
    **{r: str(r.value) for r in Rank if r.value <= 9},
}
_CARD_POINTS: Final[dict[Rank, int]] = {Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
_RANK_TEXT: Final[dict[str, Rank]] = {}
for _rank, _sym in _RANK_SYMBOL.items():
    _RANK_TEXT[_sym] = _rank
    _RANK_TEXT[_sym.lower()] = _rank
_RANK_TEXT["T"] = Rank.TEN
_RANK_TEXT["t"] = Rank.TEN

#: Canonical rank symbols, highest first.
RANK_SYMBOLS: Final[tuple[str, ...]] = tuple(_RANK_SYMBOL[r] for r in sorted(Rank, reverse=True))


class Card:
    """One playing card. Cards are singletons: compare with ``is`` or ``==``, hash freely."""

    __slots__ = ("rank", "suit", "text", "points", "index")

    rank: Rank
    suit: Suit
    text: str
    points: int
    index: int

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return _DECK_BY_KEY[(rank, suit)]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "text", rank.symbol + suit.value)
        object.__setattr__(card, "points", rank.card_points)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card such as ``10H``, ``TH``, ``th`` or ``10♥``; raise ``ValueError`` otherwise."""
        card = CARD_TEXT.get(text) if isinstance(text, str) else None
        if card is None:
            raise ValueError(f"{text!r} is not a card: write the rank then the suit, like 10H or AS")
        return card

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.text,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_DECK_BY_KEY: Final[dict[tuple[Rank, Suit], Card]] = {}
#: The 52 cards, spades first, each suit from the ace down.
DECK: Final[tuple[Card, ...]] = tuple(
    _DECK_BY_KEY.setdefault((rank, suit), Card._make(rank, suit, i * 13 + j))
    for i, suit in enumerate(Suit)
    for j, rank in enumerate(sorted(Rank, reverse=True))
)
#: Every accepted spelling of every card, to its card.
CARD_TEXT: Final[dict[str, Card]] = {
    rank_text + suit_text: _DECK_BY_KEY[(rank, suit)]
    for rank_text, rank in _RANK_TEXT.items()
    for suit_text, suit in _SUIT_TEXT.items()
}

#: Card points in the whole pack (80).
PACK_POINTS: Final[int] = sum(card.points for card in DECK)
