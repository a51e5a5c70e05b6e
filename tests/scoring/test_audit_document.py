"""Audit: the game document and the rule set (docs/hand-format.md "A game document", "The result";
docs/rules.md 9).

`score` has one whole number per side, each at least 0 and below the target; `hands` or `hand`, never
both; unknown fields are errors at every level; an unknown preset, option or value is an error; a
hand after the game is won is an error; each hand is dealt by the seat after the previous dealer.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import score_game

from .audit import doc, expect, refuse, th

PLAYED = th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])
ENGLISH3 = {"preset": "english", "players": 3}


def played(dealer: int, sides: int = 2) -> dict[str, Any]:
    return th(dealer, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[0] * sides)


REFUSED: list[Any] = [
    ("score of three numbers with four players", doc(PLAYED, score=[0, 0, 0])),
    ("score of one number", doc(PLAYED, score=[0])),
    ("score of two numbers with three players", doc(played(0, 3), rules=ENGLISH3, score=[0, 0])),
    ("score of three numbers with two players", doc(played(0), rules={"preset": "english", "players": 2},
                                                    score=[0, 0, 0])),
    ("score at the target", doc(PLAYED, score=[14, 0])),
    ("score above the target", doc(PLAYED, score=[0, 15])),
    ("english score at 11", doc(PLAYED, rules="english", score=[11, 0])),
    ("seven-up score at 7", doc(played(0), rules="seven-up", score=[0, 7])),
    ("a target of 20 and a score of 20", doc(PLAYED, rules={"preset": "trinidad", "target": 20}, score=[20, 0])),
    ("score negative", doc(PLAYED, score=[-1, 0])),
    ("score with a fraction", doc(PLAYED, score=[1.5, 0])),
    ("score with a boolean", doc(PLAYED, score=[True, 0])),
    ("score a string", doc(PLAYED, score="0-0")),
    ("score null", {"rules": "trinidad", "score": None, "hand": PLAYED}),
    ("both hand and hands", {"rules": "trinidad", "hand": PLAYED, "hands": [PLAYED]}),
    ("neither hand nor hands", {"rules": "trinidad", "score": [0, 0]}),
    ("hands empty", {"rules": "trinidad", "hands": []}),
    ("hands not a list", {"rules": "trinidad", "hands": PLAYED}),
    ("hand a list", {"rules": "trinidad", "hand": [PLAYED]}),
    ("hand null", {"rules": "trinidad", "hand": None}),
    ("an unknown top-level field", {"rules": "trinidad", "hand": PLAYED, "version": 1}),
    ("the document is a list", [PLAYED]),
    ("the document is a string", "trinidad"),
    ("the document is null", None),
    ("a hand after the game is won on High", doc([PLAYED, th(1, ["9H"], high=(0, "AH"), low=(1, "2H"),
                                                             game=[0, 0])], score=[13, 0])),
    ("the second hand dealt by the wrong seat", doc([PLAYED, th(2, ["9H"], high=(0, "AH"), low=(1, "2H"))])),
    ("the second hand dealt by the same seat", doc([PLAYED, PLAYED])),
    ("three players: the rotation skips a seat", doc([played(0, 3), played(2, 3)], rules=ENGLISH3)),
    ("two players: the same seat twice", doc([played(1), played(1)], rules={"preset": "english", "players": 2})),
    # rules
    ("an unknown preset", doc(PLAYED, rules="trinidad-classic")),
    ("an unknown preset in an object", doc(PLAYED, rules={"preset": "Trinidad"})),
    ("an unknown option", doc(PLAYED, rules={"preset": "trinidad", "jokers": True})),
    ("rules a number", doc(PLAYED, rules=4)),
    ("rules null", doc(PLAYED, rules=None)),
    ("rules a list", doc(PLAYED, rules=["trinidad"])),
    ("players 1", doc(PLAYED, rules={"players": 1})),
    ("players 5", doc(PLAYED, rules={"players": 5})),
    ("players '4'", doc(PLAYED, rules={"players": "4"})),
    ("target 0", doc(PLAYED, rules={"target": 0})),
    ("target -14", doc(PLAYED, rules={"target": -14})),
    ("target true", doc(PLAYED, rules={"target": True})),
    ("target 14.5", doc(PLAYED, rules={"target": 14.5})),
    ("kick_points with rank T", doc(PLAYED, rules={"kick_points": {"T": 1}})),
    ("kick_points with an unknown rank", doc(PLAYED, rules={"kick_points": {"X": 1}})),
    ("kick_points negative", doc(PLAYED, rules={"kick_points": {"A": -1}})),
    ("kick_points a fraction", doc(PLAYED, rules={"kick_points": {"A": 0.5}})),
    ("kick_points a list", doc(PLAYED, rules={"kick_points": [["A", 1]]})),
    ("every_kick_scores a string", doc(PLAYED, rules={"every_kick_scores": "yes"})),
    ("every_kick_scores 1", doc(PLAYED, rules={"every_kick_scores": 1})),
    ("gift_points negative", doc(PLAYED, rules={"gift_points": -1})),
    ("gift_can_win null", doc(PLAYED, rules={"gift_can_win": None})),
    ("run_cards 0", doc(PLAYED, rules={"run_cards": 0})),
    ("follow unknown", doc(PLAYED, rules={"follow": "follow_suit"})),
    ("undertrump unknown", doc(PLAYED, rules={"undertrump": "yes"})),
    ("low unknown", doc(PLAYED, rules={"low": "held"})),
    ("jack_points negative", doc(PLAYED, rules={"jack_points": -1})),
    ("hang_jack_points a string", doc(PLAYED, rules={"hang_jack_points": "3"})),
    ("game_points null", doc(PLAYED, rules={"game_points": None})),
    ("game_tie unknown", doc(PLAYED, rules={"game_tie": "dealer"})),
    ("renege unknown", doc(PLAYED, rules={"renege": "two-tier"})),
    ("revoke_points negative", doc(PLAYED, rules={"revoke_points": -1})),
    ("revoke_bars_game a number", doc(PLAYED, rules={"revoke_bars_game": 0})),
    ("misdeal_points negative", doc(PLAYED, rules={"misdeal_points": -1})),
    ("misdeal_passes_deal a string", doc(PLAYED, rules={"misdeal_passes_deal": "true"})),
    ("discard_to 0", doc(PLAYED, rules={"discard_to": 0})),
    ("discard_to a string", doc(PLAYED, rules={"discard_to": "6"})),
]


@pytest.mark.parametrize(("name", "document"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name: str, document: Any) -> None:
    refuse(document)


SCORED: list[Any] = [
    ("score absent: zeros", {"rules": "trinidad", "hand": PLAYED}, [3, 1], None,
     [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 1),
    ("three players, score absent: three zeros", doc(played(0, 3), rules=ENGLISH3), [1, 1, 0], None,
     [("high", 0, 1), ("low", 1, 1)], 1),
    ("three players rotate 0 → 1 → 2 → 0",
     doc([played(0, 3), played(1, 3), played(2, 3), played(0, 3)], rules=ENGLISH3), [4, 4, 0], None,
     [[("high", 0, 1), ("low", 1, 1)]] * 4, [1, 2, 0, 1]),
    ("two players rotate 1 → 0 → 1",
     doc([played(1), played(0), played(1)], rules={"preset": "english", "players": 2}), [3, 3], None,
     [[("high", 0, 1), ("low", 1, 1)]] * 3, [0, 1, 0]),
    ("four players rotate 3 → 0 → 1",
     doc([played(3), played(0), played(1)]), [3, 3], None, [[("high", 0, 1), ("low", 1, 1)]] * 3, [0, 1, 2]),
    ("discard_to null over english", doc(played(0), rules={"preset": "english", "discard_to": None}),
     [1, 1], None, [("high", 0, 1), ("low", 1, 1)], 1),
    ("seven-up with four players: a Game tie to the non-dealer",
     doc(played(0), rules={"preset": "seven-up", "players": 4}),
     [1, 2], None, [("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 1),
    ("a score just below the target", doc(PLAYED, score=[13, 12]), [14, 12], 0, [("high", 0, 1)], 1),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events", "next_dealer"), SCORED,
                         ids=[c[0] for c in SCORED])
def test_scored(name: str, document: dict[str, Any], score: list[int], winner: int | None,
                events: list[Any], next_dealer: Any) -> None:
    expect(document, score, winner, events, next_dealer)


def test_the_result_document_has_the_documented_shape() -> None:
    result = score_game(doc([PLAYED, {"dealer": 1, "misdeal": True}], score=[2, 6]))
    assert set(result) == {"score", "winner", "hands"}
    assert result["score"] == [6, 7] and result["winner"] is None
    first, second = result["hands"]
    assert {"trump", "events", "score", "winner", "next_dealer"} <= set(first)
    assert first["trump"] == "H" and first["score"] == [5, 7] and first["next_dealer"] == 1
    assert second["score"] == [6, 7] and second["next_dealer"] == 1
    for event in first["events"]:
        assert event["points"] >= 1
