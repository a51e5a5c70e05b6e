"""Small builders for engine tests: a valid tally hand to vary, scoring it, and the events it gives."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring import InvalidHand, score_game

#: A plain, valid trinidad hand: dealer 0 kicks 9H and the beggar stands; side 0 has High (AH) and
#: the jack (kept), side 1 Low (2H); side 0 has more card points.
BASE_HAND: dict[str, Any] = {
    "dealer": 0,
    "kicks": ["9H"],
    "beg": "stand",
    "high": {"side": 0, "card": "AH"},
    "low": {"side": 1, "card": "2H"},
    "jack": {"held_by": 0, "won_by": 0},
    "game": [21, 16],
}

_DROP = object()


def hand(**changes: Any) -> dict[str, Any]:
    """``BASE_HAND`` with fields changed; a value of ``DROP`` removes the field."""
    out = copy.deepcopy(BASE_HAND)
    for key, value in changes.items():
        if value is _DROP:
            out.pop(key, None)
        else:
            out[key] = value
    return out


DROP: Any = _DROP


def doc(the_hand: Any = None, *, rules: Any = "trinidad", score: Any = None, hands: Any = None) -> dict[str, Any]:
    """A game document of one hand (or of ``hands``)."""
    out: dict[str, Any] = {"rules": rules}
    if score is not None:
        out["score"] = score
    if hands is not None:
        out["hands"] = hands
    else:
        out["hand"] = the_hand if the_hand is not None else hand()
    return out


def events(result: dict[str, Any], index: int = 0) -> list[tuple[str, int, int]]:
    """A result's events of one hand as (kind, side, points)."""
    return [(e["kind"], e["side"], e["points"]) for e in result["hands"][index]["events"]]


def scored(the_hand: Any = None, **kwargs: Any) -> dict[str, Any]:
    """The result document of a one-hand game."""
    return score_game(doc(the_hand, **kwargs))


def refused(document: dict[str, Any], code: str, path: str | None = None) -> InvalidHand:
    """Assert that scoring ``document`` is refused with ``code`` (and ``path``); return the error."""
    with pytest.raises(InvalidHand) as info:
        score_game(document)
    error = info.value
    assert error.code == code, f"{error.code} at {error.path}: {error.message}"
    if path is not None:
        assert error.path == path, f"{error.code} at {error.path}: {error.message}"
    assert error.message and len(error.message) < 400, error.message
    return error
