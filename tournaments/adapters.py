"""The one place where models meet the rules engine (Tabbycat's ``draw/manager.py`` idea).

Models -> engine: a tournament's or a game's rules as a ``scoring.RuleSet``, a game's stored hands as a
game document. Engine -> models: a ``HandResult`` as ``Hand`` fields. Engine refusals (``InvalidHand``)
become ``ValidationFailed`` with the engine's code and one field, prefixed with ``hand.``. Nothing else in
the project imports ``scoring`` to score hands for the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import scoring
from scoring import HandResult, InvalidHand, RuleSet
from tournaments.errors import ValidationFailed, from_invalid_hand

if TYPE_CHECKING:
    from tournaments.models import Game, Tournament

#: What ``Tournament.rules`` defaults to (docs/decisions.md: every new tournament plays ``trinidad-tournament``).
DEFAULT_TOURNAMENT_RULES = "trinidad-tournament"


# ---- rules ------------------------------------------------------------------------------------------
def rules_from_spec(spec: Any, *, path: str = "rules") -> RuleSet:
    """A rule set from a preset name or an object of options; a bad spec is a ``ValidationFailed``."""
    try:
        return RuleSet.from_spec(spec, path)
    except InvalidHand as exc:
        raise ValidationFailed(exc.code, exc.message, fields={exc.path or path: exc.message}) from exc


def rules_resolved(spec: Any) -> dict[str, Any]:
    """Every option of ``spec`` resolved (``RuleSet.to_dict()``): what tournaments and games store."""
    return rules_from_spec(spec).to_dict()


def rules_for_tournament(tournament: Tournament) -> RuleSet:
    """The tournament's rule set, from ``rules_resolved`` when stored, else from ``rules`` as given."""
    spec = tournament.rules_resolved or tournament.rules or DEFAULT_TOURNAMENT_RULES
    return rules_from_spec(spec)


def rules_for_game(game: Game) -> RuleSet:
    """A game's own, fully resolved rule options: the rules it is scored and rescored with."""
    return rules_from_spec(game.rules, path="rules")


def starting_score(rules: RuleSet) -> list[int]:
    """The score before a game's first hand: zero for every side."""
    return [0] * rules.sides


# ---- hands ------------------------------------------------------------------------------------------
PLAY_ONLY_FIELDS = ("deal", "runs", "discards", "tricks")


def record_form(record: Mapping[str, Any]) -> str:
    """``play`` for a card-by-card record (any of deal, runs, discards, tricks), otherwise ``tally``."""
    if isinstance(record, Mapping) and "misdeal" not in record and any(k in record for k in PLAY_ONLY_FIELDS):
        return "play"
    return "tally"


def hand_score(rules: RuleSet, score: Sequence[int], record: Any, *, dealer: int) -> HandResult:
    """Score one hand record with the engine from ``score``; ``dealer`` is the seat the rotation expects
    (the engine refuses another one with ``wrong_dealer``).

    Returns the engine's ``HandResult``; raises ``ValidationFailed`` (engine code, ``hand.<path>`` field).
    """
    if not isinstance(record, Mapping):
        raise ValidationFailed("wrong_type", "A hand must be an object.", fields={"hand": "must be an object"})
    try:
        return scoring.score_hand(rules, score, record, dealer=dealer, path="hand")
    except InvalidHand as exc:
        raise from_invalid_hand(exc) from exc


def hand_fields(result: HandResult) -> dict[str, Any]:
    """A ``HandResult`` as the ``Hand`` model's derived fields."""
    trump = result.trump
    return {
        "events": [event.to_dict() for event in result.events],
        "trump": getattr(trump, "value", trump) or "",
        "score_after": list(result.score),
        "winner": result.winner,
        "next_dealer": result.next_dealer,
    }


def result_dict(result: HandResult) -> dict[str, Any]:
    """A ``HandResult`` as the JSON of docs/hand-format.md's result (for previews)."""
    return dict(result.to_dict())


def game_document(game: Game, records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A game's stored hands as a game document for ``scoring.score_game`` (its own resolved rules)."""
    rules = dict(game.rules)
    return {"rules": rules, "score": starting_score(rules_from_spec(rules)), "hands": [dict(r) for r in records]}


def hang_jacks(events: Iterable[Mapping[str, Any]], sides: int = 2) -> list[int]:
    """Hang jacks won per side in a list of stored events (the side that scores captured the jack)."""
    out = [0] * sides
    for event in events:
        if event.get("kind") == "hang_jack":
            out[int(event["side"])] += 1
    return out
