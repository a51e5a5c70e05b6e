"""Card text for pages: ``"6D"`` shown as ``6♦``, with the suit's colour. No engine import needed."""

from __future__ import annotations

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = {"H", "D"}


def split_card(text: str | None) -> tuple[str, str] | None:
    """``"10H"`` -> ``("10", "H")``; accepts ``T`` for ten and suit symbols; None when unreadable."""
    if not text or not isinstance(text, str):
        return None
    text = text.strip()
    rank, suit = text[:-1].upper(), text[-1]
    for letter, symbol in SUIT_SYMBOL.items():
        if suit == symbol:
            suit = letter
    suit = suit.upper()
    if rank == "T":
        rank = "10"
    if suit not in SUIT_SYMBOL or rank not in {"A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"}:
        return None
    return rank, suit


def card_label(text: str | None) -> str:
    """Plain text: ``6♦``; an unreadable card is returned as it came."""
    parts = split_card(text)
    if parts is None:
        return text or ""
    return parts[0] + SUIT_SYMBOL[parts[1]]


def card_spoken(text: str | None) -> str:
    """For screen readers: ``6 of diamonds``."""
    parts = split_card(text)
    if parts is None:
        return text or ""
    names = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
    return f"{names.get(parts[0], parts[0])} of {SUIT_NAME[parts[1]]}"


def is_red(text: str | None) -> bool:
    parts = split_card(text)
    return parts is not None and parts[1] in RED_SUITS
