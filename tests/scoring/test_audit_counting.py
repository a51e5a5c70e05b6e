"""Audit: counting a hand and the order of scoring (docs/rules.md 5, 6, 8, 9 `low`, `jack_points`,
`hang_jack_points`, `game_points`, `game_tie`; docs/hand-format.md "The result").

Expectations worked out by hand: High, Low, Jack (1) or hang jack (3; 1 in English), Game, in that
order, and counting stops the moment a side reaches the target.
"""

from __future__ import annotations

from typing import Any

import pytest

from .audit import doc, expect, th

TIE3 = {"preset": "english", "players": 3, "game_tie": "non_dealer"}


def tie3(dealer: int, game: list[int]) -> dict[str, Any]:
    return doc(th(dealer, ["9H"], high=(1, "AH"), low=(2, "2H"), game=game), rules=TIE3)


SCORED: list[Any] = [
    ("english: a hang jack is 1 to the capturer",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(1, 0), game=[20, 10]), rules="english"),
     [3, 1], None, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 1), ("game", 0, 1)], 1),
    ("english: a jack kept is 1",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(1, 1), game=[20, 10]), rules="english"),
     [2, 2], None, [("high", 0, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 0, 1)], 1),
    ("jack_points 2",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]),
         rules={"preset": "trinidad", "jack_points": 2, "hang_jack_points": 5}),
     [4, 1], None, [("high", 0, 1), ("low", 1, 1), ("jack", 0, 2), ("game", 0, 1)], 1),
    ("hang_jack_points 5",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 1), game=[20, 10]),
         rules={"preset": "trinidad", "jack_points": 2, "hang_jack_points": 5}),
     [2, 6], None, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 5), ("game", 0, 1)], 1),
    ("hang_jack_points 0: no event",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 1), game=[20, 10]),
         rules={"preset": "trinidad", "hang_jack_points": 0}),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 1),
    ("jack_points 0: no event",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]),
         rules={"preset": "trinidad", "jack_points": 0}),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 1),
    ("two players: a hang jack",
     doc(th(1, ["9H"], high=(1, "AH"), low=(0, "2H"), jack=(0, 1), game=[0, 30]),
         rules={"preset": "trinidad", "players": 2}),
     [1, 5], None, [("high", 1, 1), ("low", 0, 1), ("hang_jack", 1, 3), ("game", 1, 1)], 0),
    ("three players: a hang jack to the capturer",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(2, 1), game=[0, 30, 0]),
         rules={"preset": "trinidad", "players": 3, "renege": "one_point"}),
     [1, 5, 0], None, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3), ("game", 1, 1)], 1),
    ("low captured: High and Low the same card on different sides",
     doc(th(0, ["9H"], high=(0, "KH"), low=(1, "KH"), game=[10, 20]),
         rules={"preset": "trinidad", "low": "captured"}),
     [1, 2], None, [("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 1),
    ("low captured: the jack as Low, captured from another side",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "JH"), jack=(0, 1), game=[20, 10]),
         rules={"preset": "trinidad", "low": "captured"}),
     [2, 4], None, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3), ("game", 0, 1)], 1),
    ("game_points 2", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]),
                          rules={"preset": "trinidad", "game_points": 2}),
     [4, 1], None, [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 2)], 1),
    ("game_points 0: no event", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]),
                                    rules={"preset": "trinidad", "game_points": 0}),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1)], 1),
    ("rules without preset apply over trinidad",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]), rules={"game_points": 3}),
     [5, 1], None, [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 3)], 1),
    ("a game document without rules is trinidad",
     {"hand": th(0, ["6H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10])},
     [5, 1], None, [("kick", 0, 2), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 1),
    ("game tie, none: nobody", doc(th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[20, 20])),
     [1, 1], None, [("high", 0, 1), ("low", 1, 1)], 2),
    ("game tie, non_dealer, dealer's side 1: side 0 scores",
     doc(th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[20, 20]),
         rules={"preset": "trinidad", "game_tie": "non_dealer"}),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 2),
    ("game tie, non_dealer, dealer's side 0: side 1 scores",
     doc(th(2, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[20, 20]),
         rules={"preset": "trinidad", "game_tie": "non_dealer"}),
     [1, 2], None, [("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 3),
    ("seven-up, two players: a tie goes to the non-dealer",
     doc(th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[10, 10]), rules="seven-up"),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 0),
    ("seven-up, no tie: the most card points",
     doc(th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[10, 11]), rules="seven-up"),
     [1, 2], None, [("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 0),
    ("three players, non_dealer: dealer and a non-dealer tie, the non-dealer scores",
     tie3(0, [20, 20, 10]), [0, 2, 1], None, [("high", 1, 1), ("low", 2, 1), ("game", 1, 1)], 1),
    ("three players, non_dealer: dealer 0 ties side 2",
     tie3(0, [20, 10, 20]), [0, 1, 2], None, [("high", 1, 1), ("low", 2, 1), ("game", 2, 1)], 1),
    ("three players, non_dealer: dealer 1 ties side 0",
     tie3(1, [20, 20, 10]), [1, 1, 1], None, [("high", 1, 1), ("low", 2, 1), ("game", 0, 1)], 2),
    ("three players, non_dealer: the two non-dealers tie, nobody",
     tie3(0, [10, 20, 20]), [0, 1, 1], None, [("high", 1, 1), ("low", 2, 1)], 1),
    ("three players, non_dealer: all three tie, nobody",
     tie3(2, [20, 20, 20]), [0, 1, 1], None, [("high", 1, 1), ("low", 2, 1)], 0),
    ("three players, non_dealer: a lower tie does not matter",
     tie3(0, [30, 20, 20]), [1, 1, 1], None, [("high", 1, 1), ("low", 2, 1), ("game", 0, 1)], 1),
    ("three players, none: a tie for most, nobody",
     doc(th(0, ["9H"], high=(1, "AH"), low=(2, "2H"), game=[20, 20, 10]), rules={"preset": "english", "players": 3}),
     [0, 1, 1], None, [("high", 1, 1), ("low", 2, 1)], 1),
    ("no trump dealt: only Game", doc(th(0, ["9H"], game=[30, 20])), [1, 0], None, [("game", 0, 1)], 1),
    ("one trump: High and Low to the same side", doc(th(3, ["4H"], high=(1, "9H"), low=(1, "9H"),
                                                        game=[22, 14])),
     [1, 2], None, [("high", 1, 1), ("low", 1, 1), ("game", 0, 1)], 0),
    ("the jack as the only trump: High, Low and Jack", doc(th(0, ["7S"], high=(0, "JS"), low=(0, "JS"),
                                                              jack=(0, 0), game=[15, 20])),
     [3, 1], None, [("high", 0, 1), ("low", 0, 1), ("jack", 0, 1), ("game", 1, 1)], 1),
    ("High and Low without cards", doc(th(0, ["9H"], high=(0,), low=(1,), jack=(0, 0), game=[21, 16])),
     [3, 1], None, [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 1),
    ("High a jack held by its own side, hanged", doc(th(0, ["9H"], high=(0, "JH"), low=(1, "2H"),
                                                        jack=(0, 1), game=[10, 20])),
     [1, 5], None, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3), ("game", 1, 1)], 1),
    ("Low the jack, kept by its side", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "JH"), jack=(1, 1),
                                              game=[20, 10])),
     [2, 2], None, [("high", 0, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 0, 1)], 1),
    ("a jack not in play with High below it", doc(th(0, ["9H"], high=(0, "10H"), low=(1, "2H"), game=[20, 10])),
     [2, 1], None, [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 1),
    ("an abandoned deal's kick may be this deal's High",
     doc(th(0, ["9H"], abandoned=[["AH", "2H", "3H"]], high=(0, "AH"), low=(1, "2H"), game=[20, 10])),
     [3, 1], None, [("kick", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 1),
    ("card spellings: T, lower case and suit symbols",
     doc(th(0, ["a♥"], high=(0, "k♥"), low=(1, "Th"), jack=None, game=[20, 10])),
     [3, 1], None, [("kick", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 1),
    # order of scoring and stopping at the target
    ("13-13: High decides", doc(th(3, ["8H"], high=(0, "AH"), low=(1, "2H"), jack=(1, 1), game=[10, 30]),
                                score=[13, 13]),
     [14, 13], 0, [("high", 0, 1)], 0),
    ("12-13: Low decides after High", doc(th(1, ["3C"], high=(0, "AC"), low=(1, "2C"), jack=(0, 1),
                                              game=[30, 10]), score=[12, 13]),
     [13, 14], 1, [("high", 0, 1), ("low", 1, 1)], 2),
    ("12-12: a hang jack decides (3 points, the true total)",
     doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 1), game=[10, 30]), score=[12, 12]),
     [13, 16], 1, [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3)], 1),
    ("13-11: High and Low to side 1, the kept jack wins for side 0",
     doc(th(0, ["9H"], high=(1, "AH"), low=(1, "2H"), jack=(0, 0), game=[10, 30]), score=[13, 11]),
     [14, 13], 0, [("high", 1, 1), ("low", 1, 1), ("jack", 0, 1)], 1),
    ("13-13 with no trump: Game decides", doc(th(0, ["9H"], game=[30, 20]), score=[13, 13]),
     [14, 13], 0, [("game", 0, 1)], 1),
    ("13-13 with no trump and a tie: nobody wins", doc(th(0, ["9H"], game=[20, 20]), score=[13, 13]),
     [13, 13], None, [], 1),
    ("Game 2 at 12 takes the side to 14", doc(th(0, ["9H"], game=[30, 20]), rules="trinidad-tournament",
                                              score=[12, 0]),
     [14, 0], 0, [("game", 0, 2)], 1),
    ("a kick to 13, then High for the other side at 13 wins",
     doc(th(0, ["AH"], high=(1, "KH"), low=(0, "2H"), game=[10, 30]), score=[12, 13]),
     [13, 14], 1, [("kick", 0, 1), ("high", 1, 1)], 1),
    ("the target overridden to 21", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[20, 10]),
                                        rules={"preset": "trinidad", "target": 21}, score=[20, 0]),
     [21, 0], 0, [("high", 0, 1)], 1),
    ("english wins at 11", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[20, 10]), rules="english",
                               score=[9, 10]),
     [10, 11], 1, [("high", 0, 1), ("low", 1, 1)], 1),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events", "next_dealer"), SCORED,
                         ids=[c[0] for c in SCORED])
def test_scored(name: str, document: dict[str, Any], score: list[int], winner: int | None,
                events: list[Any], next_dealer: int) -> None:
    expect(document, score, winner, events, next_dealer)


def test_events_name_their_cards_canonically() -> None:
    result = expect(doc(th(0, ["a♥"], high=(0, "k♥"), low=(1, "Th"), game=[20, 10])), [3, 1], None,
                    [("kick", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)])
    cards = [e.get("card") for e in result["hands"][0]["events"]]
    assert cards[:3] == ["AH", "KH", "10H"]
    assert result["hands"][0]["trump"] == "H"


def test_a_whole_game_hand_by_hand() -> None:
    """Three hands, rotation 1 → 2 → 3, each hand's running score; the third ends the game on High."""
    hands = [
        th(1, ["6C"], high=(0, "AC"), low=(1, "2C"), jack=(1, 0), game=[30, 20]),  # 4-8 → 9-11
        th(2, ["JD"], beg="give", high=(1, "AD"), low=(0, "2D"), game=[10, 10]),  # → 13-13 (Game tied)
        th(3, ["9S"], high=(1, "AS"), low=(0, "2S"), game=[10, 30]),  # High: 13-14
    ]
    result = expect(doc(hands, score=[4, 8]), [13, 14], 1,
                    [[("kick", 1, 2), ("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 3), ("game", 0, 1)],
                     [("kick", 0, 3), ("gift", 1, 1), ("high", 1, 1), ("low", 0, 1)],
                     [("high", 1, 1)]],
                    [2, 3, 0])
    assert [h["score"] for h in result["hands"]] == [[9, 11], [13, 13], [13, 14]]
    assert [h["winner"] for h in result["hands"]] == [None, None, 1]
