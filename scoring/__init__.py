"""Hang Jack's All Fours rules engine: pure Python, standard library only.

The reference scorer for Trinidad All Fours and its variants (RULES.md). Start with
``score_game(doc)``, which reads a game document of HAND_FORMAT.md and returns its result document, or
raises ``InvalidHand`` with a stable ``code``, the ``path`` at fault and a sentence.
"""

from .cards import DECK, Card, Rank, Suit
from .errors import InvalidHand
from .rules import PRESETS, RuleSet

__all__ = ["DECK", "PRESETS", "Card", "InvalidHand", "Rank", "RuleSet", "Suit"]
