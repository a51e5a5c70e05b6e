"""Builders for the independent audit (tests/scoring/test_audit_*.py).

Every expectation in the audit files is worked out by hand from docs/rules.md and docs/hand-format.md, in the
shape of the hidden conformance cases: a game document in, and either the final score, the winner,
each hand's events as (kind, side, points) and each hand's next_dealer, or a refusal (an
``InvalidHand``, which the command line turns into exit 2 with an error object).
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import InvalidHand, score_game

Events = list[tuple[str, int, int]]


def th(
    dealer: int,
    kicks: list[str],
    beg: str | None = "stand",
    high: tuple[int, str] | tuple[int] | None = None,
    low: tuple[int, str] | tuple[int] | None = None,
    jack: tuple[int, int] | None = None,
    game: list[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A played tally hand. ``high``/``low`` are (side, card) or (side,); ``jack`` is (held_by, won_by)."""
    out: dict[str, Any] = {"dealer": dealer, "kicks": kicks}
    if beg is not None:
        out["beg"] = beg
    out["high"] = None if high is None else _sidecard(high)
    out["low"] = None if low is None else _sidecard(low)
    out["jack"] = None if jack is None else {"held_by": jack[0], "won_by": jack[1]}
    out["game"] = game if game is not None else [0, 0]
    out.update(extra)
    return out


def ended(dealer: int, kicks: list[str], beg: str | None = None, **extra: Any) -> dict[str, Any]:
    """A hand whose record ends during the deal (a kick or the gift won the game)."""
    out: dict[str, Any] = {"dealer": dealer, "kicks": kicks}
    if beg is not None:
        out["beg"] = beg
    out.update(extra)
    return out


def _sidecard(value: tuple[int, str] | tuple[int]) -> dict[str, Any]:
    if len(value) == 1:
        return {"side": value[0]}
    return {"side": value[0], "card": value[1]}


def doc(hands: dict[str, Any] | list[dict[str, Any]], rules: Any = "trinidad",
        score: list[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"rules": rules}
    if score is not None:
        out["score"] = score
    if isinstance(hands, list):
        out["hands"] = hands
    else:
        out["hand"] = hands
    return out


def expect(
    document: dict[str, Any],
    score: list[int],
    winner: int | None,
    events: Events | list[Events],
    next_dealer: int | list[int] | None = None,
) -> dict[str, Any]:
    """Score ``document`` and compare it as the conformance runner does."""
    result = score_game(document)
    per_hand = events if events and isinstance(events[0], list) else [events]
    got = [[(e["kind"], e["side"], e["points"]) for e in h["events"]] for h in result["hands"]]
    assert got == [list(map(tuple, h)) for h in per_hand]
    assert (result["score"], result["winner"]) == (score, winner)
    if next_dealer is not None:
        dealers = next_dealer if isinstance(next_dealer, list) else [next_dealer]
        assert [h["next_dealer"] for h in result["hands"]] == dealers
    return result


def refuse(document: dict[str, Any]) -> InvalidHand:
    """``document`` must be refused as a whole, with a code, a path and a sentence."""
    with pytest.raises(InvalidHand) as info:
        score_game(document)
    error = info.value
    assert error.code and isinstance(error.path, str) and error.message
    return error
