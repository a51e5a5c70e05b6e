"""Audit: the gift (docs/rules.md 3, 6, 8, 9 `gift_points`, `gift_can_win`) and the misdeal (docs/rules.md 7,
9 `misdeal_points`, `misdeal_passes_deal`; docs/hand-format.md `hands`, `next_dealer`).

Expectations worked out by hand from the spec. With 2 or 3 players each seat is its own side and a
gift or a misdeal gives one event per side, in increasing side number; counting stops the moment a
side reaches the target, even between two such events.
"""

from __future__ import annotations

from typing import Any

import pytest

from .audit import doc, ended, expect, refuse, th

ENGLISH3 = {"preset": "english", "players": 3}
ENGLISH2 = {"preset": "english", "players": 2}
PLAYED = th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])
MISDEAL0 = {"dealer": 0, "misdeal": True}

SCORED: list[Any] = [
    ("gift: one point to the beggar's side",
     doc(th(2, ["9C"], beg="give", high=(0, "AC"), low=(1, "2C"), jack=(0, 0), game=[20, 10])),
     [3, 2], None, [("gift", 1, 1), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 3),
    ("gift, two players: to the non-dealer",
     doc(th(1, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"), game=[10, 0]), rules=ENGLISH2),
     [3, 1], None, [("gift", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 0),
    ("gift, three players, dealer 0: one event for side 1, then side 2",
     doc(th(0, ["9H"], beg="give", high=(0, "AH"), low=(2, "2H"), game=[0, 10, 0]), rules=ENGLISH3),
     [1, 2, 2], None, [("gift", 1, 1), ("gift", 2, 1), ("high", 0, 1), ("low", 2, 1), ("game", 1, 1)], 1),
    ("gift, three players, dealer 1: sides 0 and 2 in increasing order",
     doc(th(1, ["9H"], beg="give", high=(1, "AH"), low=(1, "2H"), game=[0, 0, 0]), rules=ENGLISH3),
     [1, 2, 1], None, [("gift", 0, 1), ("gift", 2, 1), ("high", 1, 1), ("low", 1, 1)], 2),
    ("gift, three players, dealer 2: sides 0 and 1",
     doc(th(2, ["9H"], beg="give", high=(2, "AH"), low=(2, "2H"), game=[0, 0, 0]), rules=ENGLISH3),
     [1, 1, 2], None, [("gift", 0, 1), ("gift", 1, 1), ("high", 2, 1), ("low", 2, 1)], 0),
    ("gift_points 2",
     doc(th(2, ["9C"], beg="give", high=(0, "AC"), low=(1, "2C"), jack=(0, 0), game=[20, 10]),
         rules={"preset": "trinidad", "gift_points": 2}),
     [3, 3], None, [("gift", 1, 2), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 3),
    ("gift_points 0: no gift event, the kick still scores",
     doc(th(2, ["AC"], beg="give", high=(0, "KC"), low=(1, "2C"), jack=(0, 0), game=[20, 10]),
         rules={"preset": "trinidad", "gift_points": 0}),
     [4, 1], None, [("kick", 0, 1), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], 3),
    ("a gift wins after the kick, nothing after it",
     doc(ended(0, ["AH"], "give"), score=[12, 13]), [13, 14], 1, [("kick", 0, 1), ("gift", 1, 1)], 1),
    ("a gift wins: later fields present but inconsistent are not cross-checked",
     doc(th(1, ["9H"], beg="give", high=(0, "AS"), low=(1, "KS"), jack=(0, 1), game=[70, 70]),
         score=[13, 0]),
     [14, 0], 0, [("gift", 0, 1)], 2),
    ("gift_can_win false: the kick wins before the gift, so the gift is not checked",
     doc(ended(1, ["JH"], "give"), rules="english", score=[3, 10]), [3, 11], 1, [("kick", 1, 1)], 2),
    ("gift_can_win false: a gift up to one below the target is fine",
     doc(th(1, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"), game=[10, 0]), rules="english",
         score=[9, 3]),
     [11, 3], 0, [("gift", 0, 1), ("high", 0, 1)], 2),
    ("gift_can_win false with gift_points 0 never refuses",
     doc(th(1, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"), game=[10, 0]),
         rules={"preset": "english", "gift_points": 0}, score=[10, 3]),
     [11, 3], 0, [("high", 0, 1)], 2),
    ("gift_can_win false, three players: the dealer near the target does not matter",
     doc(th(1, ["9H"], beg="give", high=(1, "AH"), low=(1, "2H"), game=[0, 0, 0]), rules=ENGLISH3,
         score=[5, 10, 5]),
     [6, 11, 6], 1, [("gift", 0, 1), ("gift", 2, 1), ("high", 1, 1)], 2),
    ("gift_can_win true, three players: the first recipient wins, the second gets no event",
     doc(ended(0, ["9H"], "give"), rules={"preset": "english", "players": 3, "gift_can_win": True},
         score=[5, 10, 10]),
     [5, 11, 10], 1, [("gift", 1, 1)], 1),
    ("gift_can_win true, three players: the second recipient wins",
     doc(ended(0, ["9H"], "give"), rules={"preset": "english", "players": 3, "gift_can_win": True},
         score=[5, 5, 10]),
     [5, 6, 11], 2, [("gift", 1, 1), ("gift", 2, 1)], 1),
    ("misdeal, three players: the second opponent wins",
     doc({"dealer": 0, "misdeal": True}, rules=ENGLISH3, score=[5, 5, 10]),
     [5, 6, 11], 2, [("misdeal", 1, 1), ("misdeal", 2, 1)], 0),
    # misdeals
    ("misdeal: the dealer's opponents score 1, the same dealer deals again",
     doc({"dealer": 1, "misdeal": True}), [1, 0], None, [("misdeal", 0, 1)], 1),
    ("misdeal, trinidad-tournament: the deal passes",
     doc({"dealer": 1, "misdeal": True}, rules="trinidad-tournament"), [1, 0], None, [("misdeal", 0, 1)], 2),
    ("misdeal_passes_deal true over trinidad",
     doc({"dealer": 3, "misdeal": True}, rules={"preset": "trinidad", "misdeal_passes_deal": True}),
     [1, 0], None, [("misdeal", 0, 1)], 0),
    ("misdeal_passes_deal false over trinidad-tournament",
     doc({"dealer": 3, "misdeal": True}, rules={"preset": "trinidad-tournament", "misdeal_passes_deal": False}),
     [1, 0], None, [("misdeal", 0, 1)], 3),
    ("misdeal then the same dealer deals",
     doc([MISDEAL0, PLAYED]), [3, 2], None,
     [[("misdeal", 1, 1)], [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]], [0, 1]),
    ("misdeal then the next dealer deals (trinidad-tournament)",
     doc([MISDEAL0, th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])],
         rules="trinidad-tournament"),
     [4, 2], None,
     [[("misdeal", 1, 1)], [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 2)]], [1, 2]),
    ("two misdeals in a row, then the same dealer plays",
     doc([{"dealer": 2, "misdeal": True}, {"dealer": 2, "misdeal": True},
          th(2, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])]),
     [3, 3], None,
     [[("misdeal", 1, 1)], [("misdeal", 1, 1)], [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1),
                                                   ("game", 0, 1)]], [2, 2, 3]),
    ("a misdeal between played hands",
     doc([PLAYED, {"dealer": 1, "misdeal": True},
          th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])]),
     [7, 2], None,
     [[("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)], [("misdeal", 0, 1)],
      [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]], [1, 1, 2]),
    ("misdeal, three players: one event per opponent, increasing",
     doc({"dealer": 1, "misdeal": True}, rules=ENGLISH3), [1, 0, 1], None,
     [("misdeal", 0, 1), ("misdeal", 2, 1)], 1),
    ("misdeal, two players",
     doc({"dealer": 0, "misdeal": True}, rules=ENGLISH2), [0, 1], None, [("misdeal", 1, 1)], 0),
    ("misdeal, seven-up",
     doc({"dealer": 1, "misdeal": True}, rules="seven-up"), [1, 0], None, [("misdeal", 0, 1)], 1),
    ("misdeal_points 0: no event",
     doc({"dealer": 0, "misdeal": True}, rules={"preset": "trinidad", "misdeal_points": 0}, score=[4, 4]),
     [4, 4], None, [], 0),
    ("misdeal_points 2, three players: the first side to the target wins, the other gets nothing",
     doc({"dealer": 1, "misdeal": True}, rules={"preset": "english", "players": 3, "misdeal_points": 2},
         score=[9, 5, 9]),
     [11, 5, 9], 0, [("misdeal", 0, 2)], 1),
    ("a misdeal point at 13 wins",
     doc({"dealer": 0, "misdeal": True}, score=[13, 13]), [13, 14], 1, [("misdeal", 1, 1)], None),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events", "next_dealer"), SCORED,
                         ids=[c[0] for c in SCORED])
def test_scored(name: str, document: dict[str, Any], score: list[int], winner: int | None,
                events: list[Any], next_dealer: int | list[int] | None) -> None:
    expect(document, score, winner, events, next_dealer)


REFUSED: list[Any] = [
    ("gift_can_win false: a gift that would win", doc(th(0, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"),
                                                         game=[0, 10]), rules="english", score=[3, 10])),
    ("gift_can_win false: a gift that would win, record ended at the gift",
     doc(ended(0, ["9H"], "give"), rules="english", score=[3, 10])),
    ("gift_can_win false, three players: one recipient would win",
     doc(th(2, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"), game=[0, 0, 0]), rules=ENGLISH3,
         score=[10, 5, 5])),
    ("gift_can_win false, seven-up at 6", doc(th(0, ["9H"], beg="give", high=(0, "AH"), low=(1, "2H"),
                                                 game=[0, 0]), rules="seven-up", score=[0, 6])),
    ("misdeal then another dealer (trinidad)",
     doc([MISDEAL0, th(1, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])])),
    ("misdeal then the same dealer (trinidad-tournament)", doc([MISDEAL0, PLAYED], rules="trinidad-tournament")),
    ("a misdeal with kicks", doc({"dealer": 0, "misdeal": True, "kicks": ["9H"]})),
    ("misdeal false", doc({"dealer": 0, "misdeal": False})),
    ("a misdeal without dealer", doc({"misdeal": True})),
    ("a misdeal after the game is won", doc([{"dealer": 0, "misdeal": True}, {"dealer": 0, "misdeal": True}],
                                            score=[13, 13])),
    ("a misdeal dealer out of range", doc({"dealer": 4, "misdeal": True})),
    ("a misdeal dealer out of range, three players", doc({"dealer": 3, "misdeal": True}, rules=ENGLISH3)),
]


@pytest.mark.parametrize(("name", "document"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name: str, document: dict[str, Any]) -> None:
    refuse(document)


def test_the_seat_after_a_misdeal_that_wins_deals_the_next_game() -> None:
    """After a misdeal "the same dealer deals again" (docs/rules.md 7); the next hand, here the first of
    the next game, is dealt by the seat that next_dealer names: the same seat, or the next one where
    misdeal_passes_deal."""
    same = expect(doc({"dealer": 0, "misdeal": True}, score=[13, 13]), [13, 14], 1, [("misdeal", 1, 1)])
    passes = expect(doc({"dealer": 0, "misdeal": True}, score=[13, 13], rules="trinidad-tournament"),
                    [13, 14], 1, [("misdeal", 1, 1)])
    assert (same["hands"][0]["next_dealer"], passes["hands"][0]["next_dealer"]) == (0, 1)
