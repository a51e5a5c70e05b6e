"""Whole game documents and single hands: the engine's entry points.

- ``score_game(doc)``: a game document of docs/hand-format.md in, its result document out (plain JSON data).
- ``score_document(doc)``: the same, typed: a ``GameResult``.
- ``score_hand(rules, score, raw_hand, dealer=...)``: one hand against the current score, for a service
  that records a game one hand at a time.
- ``read_hand(rules, raw, path)``: read and check one hand record without scoring it (a dry run).

All of them raise ``InvalidHand`` for anything the format or the rules refuse; nothing is half-scored.
A document is read hand by hand: each hand is dealt by the seat after the previous dealer (after a
misdeal, by the same seat unless ``misdeal_passes_deal``); a hand after the game is won is an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .errors import InvalidHand, describe, short_key
from .model import GameResult, Hand, HandResult
from .rules import RuleSet
from .score import evaluate
from .tally import TALLY_FIELDS, read_known_tally, read_tally

_DOCUMENT_FIELDS: Final = frozenset({"rules", "score", "hand", "hands"})
_DEFAULT_RULES: Final = "trinidad"
_HAND_PATHS: Final = tuple(f"hands[{i}]" for i in range(64))
_TALLY_OR_MISDEAL: Final = TALLY_FIELDS | {"misdeal"}


def score_game(doc: Any) -> dict[str, Any]:
    """Score a game document; return the result document of docs/hand-format.md.

    >>> score_game({"score": [13, 10], "hand": {"dealer": 2, "kicks": ["AH"]}})["winner"]
    0
    """
    return score_document(doc).to_dict()


def score_document(doc: Any) -> GameResult:
    """Score a game document: ``{"rules", "score", "hand" | "hands"}``. Raise ``InvalidHand``."""
    if type(doc) is not dict and not isinstance(doc, Mapping):
        raise InvalidHand("wrong_type", "", f"A game document must be an object, not {describe(doc)}")
    for key in doc:
        if key not in _DOCUMENT_FIELDS:
            raise InvalidHand("unknown_field", short_key(key),
                              f"{describe(key)} is not a field of a game document (rules, score, hand or hands)")
    rules = RuleSet.from_spec(doc.get("rules", _DEFAULT_RULES), "rules")
    score = check_score(rules, doc["score"], "score") if "score" in doc else (0,) * rules.sides
    if "hand" in doc:
        if "hands" in doc:
            raise InvalidHand("hand_and_hands", "hands",
                              "A game document has either hand (one hand) or hands (a list), never both")
        records: Sequence[Any] = (doc["hand"],)
        paths: Sequence[str] | None = ("hand",)
    elif "hands" in doc:
        records = doc["hands"]
        if type(records) is not list:
            raise InvalidHand("wrong_type", "hands", f"hands must be a list of hand records, not {describe(records)}")
        if not records:
            raise InvalidHand("no_hands", "hands", "hands must list at least one hand")
        paths = None
    else:
        raise InvalidHand("no_hands", "", "A game document needs hand (one hand) or hands (a list of hands)")

    results: list[HandResult] = []
    dealer: int | None = None
    winner: int | None = None
    for i, raw in enumerate(records):
        path = paths[i] if paths is not None else _HAND_PATHS[i] if i < 64 else f"hands[{i}]"
        if winner is not None:
            raise InvalidHand("hand_after_win", path,
                              f"Side {winner} already won the game in the hand before: a game ends there, "
                              "so this hand belongs to the next game")
        if type(raw) is dict and _TALLY_OR_MISDEAL.issuperset(raw):
            hand = read_known_tally(raw, rules, path, score, dealer)  # the tally form: as read_hand would
        else:
            hand = read_hand(rules, raw, path, score=score, dealer=dealer)
        result = evaluate(rules, hand, score, path)
        results.append(result)
        _, _, score, winner, dealer = result
    return GameResult(score, winner, tuple(results))


def score_hand(
    rules: RuleSet, score: Sequence[int], raw_hand: Mapping[str, Any], *, dealer: int | None = None,
    path: str = "hand",
) -> HandResult:
    """Score one hand record against the score before it.

    ``dealer`` is the seat expected to deal (a different seat is ``wrong_dealer``); ``score`` must be
    one whole number per side, each below the target. Returns the hand's events, the new score, the
    winner (or ``None``) and the seat that deals next.
    """
    return _score_hand(rules, check_score(rules, score, "score"), raw_hand, dealer, path)


def _score_hand(rules: RuleSet, score: tuple[int, ...], raw: Any, dealer: int | None, path: str) -> HandResult:
    hand = read_hand(rules, raw, path, score=score, dealer=dealer)
    return evaluate(rules, hand, score, path)


def read_hand(
    rules: RuleSet, raw: Any, path: str = "hand", *, score: Sequence[int] | None = None,
    dealer: int | None = None,
) -> Hand:
    """Read and check one hand record of either form (or a misdeal record) into a ``Hand``.

    A record with any of ``deal``, ``runs``, ``discards``, ``tricks`` is the play form
    (``scoring.play``); any other is the tally form. ``score`` (the score before the hand) lets the
    reader accept a record that stops when a kick or the gift won the game; without it every played
    hand must be complete. ``dealer`` is the seat expected to deal, if known.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise InvalidHand("wrong_type", path, f"A hand must be an object, not {describe(raw)}")
    if ("tricks" in raw or "deal" in raw or "runs" in raw or "discards" in raw) and "misdeal" not in raw:
        return _read_play(rules, raw, path, score, dealer)  # any of PLAY_ONLY_FIELDS: the play form
    return read_tally(raw, rules, path, score=score, dealer=dealer)


def _read_play(
    rules: RuleSet, raw: Mapping[str, Any], path: str, score: Sequence[int] | None, dealer: int | None
) -> Hand:
    """The play form is ``scoring.play``'s (imported here, on first use): it reads the header with
    ``tally.read_header`` (given ``score`` and ``dealer``) and derives the counted facts from the cards."""
    from .play import read_play_hand

    return read_play_hand(raw, rules, path, score=score, dealer=dealer)


def check_score(rules: RuleSet, value: Any, path: str) -> tuple[int, ...]:
    """A score: one whole number per side, each at least 0 and below the target."""
    sides = rules.sides
    if type(value) is not list and type(value) is not tuple:
        raise InvalidHand("bad_score", path,
                          f"The score must be a list of {sides} whole numbers, one per side, not {describe(value)}")
    if len(value) != sides:
        raise InvalidHand("bad_score", path,
                          f"The score must have one number per side: {sides}, not {len(value)}")
    for i, points in enumerate(value):
        if type(points) is not int or points < 0:
            raise InvalidHand("bad_score", f"{path}[{i}]",
                              f"A score is a whole number of at least 0, not {describe(points)}")
        if points >= rules.target:
            raise InvalidHand("score_at_target", f"{path}[{i}]",
                              f"Side {i} has {describe(points)}, already at the target {rules.target}: that game is over")
    return tuple(value)
