"""The rules of play (docs/rules.md section 4): which cards may be played, which offence an illegal card
is, and who wins a trick.

``legal_cards(rules, trump, holding, trick)`` lists the cards of ``holding`` that may go on ``trick``
(its cards so far, leader first); ``renege_of`` names the offence of a card that may not
(``trump_revoke``, ``revoke`` or ``undertrump``, or ``None`` for a legal card); ``trick_winner``
gives the position in a complete trick of the card that wins it.

Under ``renege: one_point`` or ``lose_game`` the offence is still named ``trump_revoke`` or
``revoke``: the scorer applies the option.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Card, Rank, Suit
from .model import PenaltyKind
from .rules import RuleSet

#: The top five trumps: failing to play a trump to a trump lead while holding one of these is a
#: tier-1 renege (``trump_revoke``).
TOP_FIVE: Final[frozenset[Rank]] = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN})


def legal_cards(rules: RuleSet, trump: Suit, holding: Sequence[Card], trick: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``holding`` that may be played to ``trick`` (its cards so far, leader first).

    The order of ``holding`` is kept. Some card is always legal while ``holding`` is not empty.
    """
    if not trick:
        return tuple(holding)
    return tuple(card for card in holding if renege_of(rules, trump, holding, trick, card) is None)


def renege_of(
    rules: RuleSet, trump: Suit, holding: Sequence[Card], trick: Sequence[Card], card: Card
) -> PenaltyKind | None:
    """The offence of playing ``card`` from ``holding`` (which includes it) to ``trick``, or ``None``.

    - ``trump_revoke``: no trump played to a trump lead while holding one of the top five trumps;
    - ``revoke``: any other renege: a small trump withheld on a trump lead, or (under
      ``follow_or_trump``) neither following a plain suit led nor trumping while holding that suit;
    - ``undertrump`` (only under ``undertrump: forbidden``): on a plain-suit lead, a trump below the
      highest trump already in the trick while still holding a card that is not a trump.
    """
    if not trick:
        return None
    lead = trick[0].suit
    suit = card.suit
    if lead is trump:
        if suit is trump:
            return None
        trumps = [c.rank for c in holding if c.suit is trump]
        if not trumps:
            return None
        return "trump_revoke" if any(rank in TOP_FIVE for rank in trumps) else "revoke"
    if suit is lead:
        return None
    if suit is trump:
        if rules.undertrump == "forbidden":
            best = max((c.rank for c in trick if c.suit is trump), default=None)
            if best is not None and card.rank < best and any(c.suit is not trump for c in holding):
                return "undertrump"
        return None
    if rules.follow == "follow_or_trump" and any(c.suit is lead for c in holding):
        return "revoke"
    return None


def trick_winner(trump: Suit, trick: Sequence[Card]) -> int:
    """The position in ``trick`` (leader first) of the card that wins it: the highest trump, or if
    there is none the highest card of the suit led."""
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best, top = i, card
        elif card.suit is trump:
            best, top = i, card
    return best
