"""Hang Jack's All Fours rules engine: pure Python, standard library only.

The reference scorer for Trinidad All Fours and its variants (docs/rules.md). Start with
``score_game(doc)``, which reads a game document of docs/hand-format.md and returns its result document, or
raises ``InvalidHand`` with a stable ``code``, the ``path`` at fault and a sentence. A service that
records one hand at a time calls ``score_hand(rules, score, raw_hand, dealer=...)``; ``read_hand`` reads
and checks a hand without scoring it. docs/engine.md has the whole story.
"""

from .cards import DECK, Card, Rank, Suit
from .errors import InvalidHand
from .game import read_hand, score_document, score_game, score_hand
from .legal import legal_cards as legal_cards
from .model import Award, Event, GameResult, Hand, HandResult, JackOutcome, Penalty
from .rules import PRESETS, RuleSet

__all__ = [
    "DECK",
    "PRESETS",
    "Award",
    "Card",
    "Event",
    "GameResult",
    "Hand",
    "HandResult",
    "InvalidHand",
    "JackOutcome",
    "Penalty",
    "Rank",
    "RuleSet",
    "Suit",
    "read_hand",
    "score_document",
    "score_game",
    "score_hand",
]
