"""Audit: the tally form's refusals, bullet by bullet (docs/hand-format.md "The tally form is refused ...
when:"), and what must NOT be refused.

Every document in REFUSED breaks exactly one sentence of that list (or of the field descriptions above
it); every document in ACCEPTED sits just on the allowed side of one.
"""

from __future__ import annotations

from typing import Any

import pytest

from .audit import doc, expect, refuse, th

ENGLISH3 = {"preset": "english", "players": 3}
CAPTURED = {"preset": "trinidad", "low": "captured"}


def h(**changes: Any) -> dict[str, Any]:
    """Dealer 0, kick 9H: side 0 High AH and its jack kept, side 1 Low 2H, 21-16 card points."""
    out = th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16])
    for key, value in changes.items():
        if value is DROP:
            del out[key]
        else:
            out[key] = value
    return out


DROP = object()

REFUSED: list[Any] = [
    # a card does not parse, a side or seat is out of range, or beg is not one of the three words
    ("high card '1H'", doc(h(high={"side": 0, "card": "1H"}))),
    ("high card 'AX'", doc(h(high={"side": 0, "card": "AX"}))),
    ("high card empty", doc(h(high={"side": 0, "card": ""}))),
    ("high card '11H'", doc(h(high={"side": 0, "card": "11H"}))),
    ("high card 'AHH'", doc(h(high={"side": 0, "card": "AHH"}))),
    ("high card a number", doc(h(high={"side": 0, "card": 14}))),
    ("low card null", doc(h(low={"side": 1, "card": None}))),
    ("a kick ' 9H'", doc(h(kicks=[" 9H"]))),
    ("high side 2 with four players", doc(h(high={"side": 2, "card": "AH"}))),
    ("low side -1", doc(h(low={"side": -1, "card": "2H"}))),
    ("high side true", doc(h(high={"side": True, "card": "AH"}))),
    ("high side 1.0", doc(h(high={"side": 1.0, "card": "AH"}))),
    ("jack held_by 2", doc(h(jack={"held_by": 2, "won_by": 0}))),
    ("jack won_by 2", doc(h(jack={"held_by": 0, "won_by": 2}))),
    ("three players: high side 3", doc(th(0, ["9H"], high=(3, "AH"), low=(1, "2H"), game=[0, 0, 0]),
                                       rules=ENGLISH3)),
    ("two players: low side 2", doc(th(0, ["9H"], high=(0, "AH"), low=(2, "2H"), game=[0, 0]),
                                    rules={"preset": "english", "players": 2})),
    ("dealer 4 with four players", doc(h(dealer=4))),
    ("dealer -1", doc(h(dealer=-1))),
    ("dealer 2 with two players", doc(h(dealer=2), rules={"preset": "english", "players": 2})),
    ("dealer a string", doc(h(dealer="0"))),
    ("dealer true", doc(h(dealer=True))),
    ("beg 'Stand'", doc(h(beg="Stand"))),
    ("beg null", doc(h(beg=None))),
    # high or low given without the other; High or Low card not a trump, or a kick; Low above High;
    # High and Low the same card on different sides where low is dealt
    ("high given, low null", doc(h(low=None))),
    ("low given, high null", doc(h(high=None))),
    ("high given, low absent", doc(h(low=DROP))),
    ("high card not a trump", doc(h(high={"side": 0, "card": "AS"}))),
    ("low card not a trump", doc(h(low={"side": 1, "card": "2S"}))),
    ("high card is the kick", doc(h(kicks=["AH"], high={"side": 0, "card": "AH"}, low={"side": 1, "card": "2H"}))),
    ("low card is the kick", doc(h(kicks=["2H"], low={"side": 1, "card": "2H"}))),
    ("low card is the run's last kick", doc(th(0, ["AD", "2S"], beg="run", high=(0, "AS"), low=(1, "2S"),
                                              game=[10, 10]))),
    ("Low above High", doc(h(high={"side": 0, "card": "5H"}, low={"side": 1, "card": "7H"}, jack=None))),
    ("High and Low the same card on different sides", doc(h(high={"side": 0, "card": "5H"},
                                                             low={"side": 1, "card": "5H"}, jack=None))),
    # jack given although no trump dealt or the jack was kicked; High or Low is the jack but jack is
    # null or names another holder; a jack in play with High below it or Low above it
    ("jack given although no trump was dealt", doc(h(high=None, low=None))),
    ("jack given although the jack was kicked", doc(h(kicks=["JH"], jack={"held_by": 0, "won_by": 0}))),
    ("jack given although the jack of trumps was a run's last kick",
     doc(th(0, ["9D", "JH"], beg="run", high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10]))),
    ("High is the jack but jack is null", doc(h(high={"side": 0, "card": "JH"}, jack=None))),
    ("High is the jack but jack names the other holder", doc(h(high={"side": 0, "card": "JH"},
                                                               jack={"held_by": 1, "won_by": 1}))),
    ("Low is the jack but jack is null (low dealt)", doc(h(low={"side": 1, "card": "JH"}, jack=None))),
    ("Low is the jack but jack names the other holder (low dealt)",
     doc(h(low={"side": 1, "card": "JH"}, jack={"held_by": 0, "won_by": 0}))),
    ("jack in play, High below it", doc(h(high={"side": 0, "card": "10H"}))),
    ("jack in play, Low above it", doc(h(low={"side": 1, "card": "QH"}))),
    ("low captured: High is the jack but jack is null",
     doc(h(high={"side": 0, "card": "JH"}, jack=None), rules=CAPTURED)),
    # game
    ("game of three numbers with four players", doc(h(game=[21, 16, 0]))),
    ("game of one number", doc(h(game=[21]))),
    ("game of two numbers with three players", doc(th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[1, 1]),
                                                   rules=ENGLISH3)),
    ("game negative", doc(h(game=[21, -1]))),
    ("game with a fraction", doc(h(game=[20.5, 16]))),
    ("game with a boolean", doc(h(game=[21, True]))),
    ("game with a string", doc(h(game=["21", 16]))),
    ("game null in a played hand", doc(h(game=None))),
    ("game sum above 80", doc(h(game=[41, 40]))),
    ("game sum above 80 less a kicked ten", doc(h(kicks=["10H"], game=[40, 31]))),
    ("game sum above 80 less a run's kicks", doc(th(0, ["AD", "6S"], beg="run", high=(1, "AS"), low=(0, "2S"),
                                                    jack=(0, 0), game=[40, 37]))),
    ("the side that won the jack has 0 card points", doc(h(jack={"held_by": 1, "won_by": 1}, game=[21, 0]))),
    ("a hang jack to a side with 0 card points", doc(h(jack={"held_by": 0, "won_by": 1}, game=[21, 0]))),
    # required fields of a played hand
    ("a played hand without high", doc(h(high=DROP))),
    ("a played hand without jack", doc(h(jack=DROP))),
    ("a played hand without game", doc(h(game=DROP))),
    ("a played hand without beg", doc(h(beg=DROP))),
    ("a hand without kicks", doc(h(kicks=DROP))),
    ("a hand without dealer", doc(h(dealer=DROP))),
    # shapes of the fields
    ("high without side", doc(h(high={"card": "AH"}))),
    ("high with an unknown field", doc(h(high={"side": 0, "card": "AH", "points": 1}))),
    ("high a string", doc(h(high="AH"))),
    ("jack without won_by", doc(h(jack={"held_by": 0}))),
    ("jack with an unknown field", doc(h(jack={"held_by": 0, "won_by": 0, "points": 1}))),
    ("jack won_by a boolean", doc(h(jack={"held_by": 0, "won_by": False}))),
    ("an unknown hand field (a misspelt penalties)", doc(h(penalty=[{"kind": "revoke", "side": 1}]))),
    ("kicks a string", doc(h(kicks="9H"))),
    ("abandoned not a list of lists", doc(h(abandoned=["2S", "3S", "4S"]))),
    ("a tally hand with play-form fields", doc(h(tricks=[]))),
]


@pytest.mark.parametrize(("name", "document"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name: str, document: dict[str, Any]) -> None:
    refuse(document)


HLJG = [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]

ACCEPTED: list[Any] = [
    ("High and Low the same card on the same side",
     doc(h(high={"side": 1, "card": "5H"}, low={"side": 1, "card": "5H"}, jack=None)),
     [1, 2], [("high", 1, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("low captured: High and Low the same card on different sides",
     doc(h(high={"side": 0, "card": "5H"}, low={"side": 1, "card": "5H"}, jack=None), rules=CAPTURED),
     [2, 1], [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("low captured: Low is the jack, held by the other side, which lost it",
     doc(h(low={"side": 1, "card": "JH"}, jack={"held_by": 0, "won_by": 1}), rules=CAPTURED),
     [2, 4], [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3), ("game", 0, 1)]),
    ("jack null (not dealt) with High below the jack", doc(h(high={"side": 0, "card": "10H"}, jack=None)),
     [2, 1], [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("jack in play with High the jack itself", doc(h(high={"side": 0, "card": "JH"})), [3, 1], HLJG),
    ("jack in play with Low the jack itself", doc(h(low={"side": 1, "card": "JH"}, jack={"held_by": 1, "won_by": 1})),
     [2, 2], [("high", 0, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 0, 1)]),
    ("Low card omitted, High card given", doc(h(low={"side": 1})), [3, 1], HLJG),
    ("a jack in play with no High card given, only a Low card", doc(h(high={"side": 0})), [3, 1], HLJG),
    ("game sum exactly 80", doc(h(game=[40, 40])), [2, 1], HLJG[:3]),
    ("game sum exactly 80 less a kicked ten", doc(h(kicks=["10H"], game=[40, 30])), [3, 1], HLJG),
    ("game sum exactly 80 less a run's kicks",
     doc(th(0, ["AD", "6S"], beg="run", high=(1, "AS"), low=(0, "2S"), jack=(0, 0), game=[40, 36])),
     [6, 1], [("kick", 0, 1), ("kick", 0, 2), ("high", 1, 1), ("low", 0, 1), ("jack", 0, 1), ("game", 0, 1)]),
    ("abandoned kicks do not lower the game limit",
     doc(h(abandoned=[["10S", "2S", "3S"]], game=[40, 40])), [2, 1], HLJG[:3]),
    ("the side that lost the jack may have 0 card points", doc(h(game=[21, 0])), [3, 1], HLJG),
    ("no trump dealt: high, low and jack null", doc(h(high=None, low=None, jack=None)), [1, 0], [("game", 0, 1)]),
    ("no trump dealt, game all zero", doc(h(high=None, low=None, jack=None, game=[0, 0])), [0, 0], []),
    ("the high card's rank with T", doc(h(high={"side": 0, "card": "TH"}, jack=None)),
     [2, 1], [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    # docs/hand-format.md's list is the whole contract: impossibilities it does not list are scored as recorded
    ("low captured: Low is the jack and jack is null (the jack checks for Low are only where low is dealt)",
     doc(h(low={"side": 1, "card": "JH"}, jack=None), rules=CAPTURED),
     [2, 1], [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("low captured: Low is the jack and jack names another winner than Low's side",
     doc(h(low={"side": 1, "card": "JH"}, jack={"held_by": 0, "won_by": 0}), rules=CAPTURED), [3, 1], HLJG),
    ("low captured: Low's side has fewer card points than the Low card",
     doc(h(high={"side": 0, "card": "KH"}, low={"side": 1, "card": "10H"}, jack=None, game=[21, 5]),
         rules=CAPTURED),
     [2, 1], [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("a trump_revoke although the highest trump is below the ten (one_point)",
     doc(h(high={"side": 0, "card": "8H"}, jack=None, penalties=[{"kind": "trump_revoke", "side": 1}]),
         rules={"preset": "trinidad", "renege": "one_point"}),
     [3, 1], [("trump_revoke", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]),
    ("a jack of another suit kicked in a run does not take the jack out",
     doc(th(0, ["JS", "9H"], beg="run", high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[20, 10])),
     [6, 1], [("kick", 0, 3), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]),
]


@pytest.mark.parametrize(("name", "document", "score", "events"), ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_accepted(name: str, document: dict[str, Any], score: list[int], events: list[Any]) -> None:
    expect(document, score, None, events, 1)


def test_the_error_names_the_first_offending_field() -> None:
    error = refuse(doc([h(), h(dealer=1, low={"side": 1, "card": "QH"})]))
    assert error.path.startswith("hands[1].low"), error.path
    error = refuse(doc(h(game=[41, 40])))
    assert error.path.startswith("hand.game"), error.path


LOST_GAMES: list[Any] = [
    ("a trump_revoke although the highest trump is below the ten (two_tier)",
     doc(h(high={"side": 0, "card": "8H"}, jack=None, penalties=[{"kind": "trump_revoke", "side": 1}])),
     [14, 0], 0, [("trump_revoke", 0, 14)]),
    ("a trump_revoke in a hand where no trump was dealt",
     doc(h(high=None, low=None, jack=None, penalties=[{"kind": "trump_revoke", "side": 0}])),
     [0, 14], 1, [("trump_revoke", 1, 14)]),
    ("an undertrump in a hand where no trump was dealt",
     doc(h(high=None, low=None, jack=None, penalties=[{"kind": "undertrump", "side": 1}]),
         rules={"preset": "trinidad", "undertrump": "forbidden"}),
     [14, 0], 0, [("undertrump", 0, 14)]),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events"), LOST_GAMES,
                         ids=[c[0] for c in LOST_GAMES])
def test_accepted_penalties_the_list_does_not_refuse(name: str, document: dict[str, Any], score: list[int],
                                                     winner: int, events: list[Any]) -> None:
    expect(document, score, winner, events, 1)
