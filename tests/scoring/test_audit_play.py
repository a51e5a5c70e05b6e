"""Audit: the play form, card by card (docs/hand-format.md "HAND, play form"; docs/rules.md 4, 5, 7, 9 `follow`,
`undertrump`, `renege`, `discard_to`, `low`).

Each deal below was laid out and played through by hand; the comments give each trick's winner and the
card points it takes. Every illegal card is its own penalty, scored as the offence it is, and the tally
form of the same hand scores the same events.
"""

from __future__ import annotations

from typing import Any

import pytest

from .audit import doc, expect, refuse, th

TWO = {"preset": "trinidad", "players": 2}


def play(dealer: int, kicks: list[str], deal: list[list[str]], tricks: list[list[str]], beg: str = "stand",
         **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "kicks": kicks, "beg": beg, "deal": deal, "tricks": tricks, **extra}


# Two players, dealer 0 (seat 1 leads), trump hearts. Seat 0 holds AH 2H, seat 1 JH 5H.
DEAL1 = [["AH", "2H", "KS", "QS", "3C", "4C"], ["JH", "5H", "AS", "10S", "2D", "3D"]]
TRICKS1 = [["AS", "KS"],   # seat 1 wins, 7
           ["10S", "QS"],  # seat 0 wins (Q over 10), 12
           ["3C", "2D"],   # seat 0
           ["4C", "3D"],   # seat 0
           ["2H", "5H"],   # seat 1 (captures the 2H)
           ["JH", "AH"]]   # seat 0 hangs the jack, 5: side 0 17, side 1 7
# Seat 0 renounces spades on the first trick (a revoke) and so wins the most card points.
TRICKS_REVOKE = [["AS", "3C"],   # seat 1, 4
                 ["10S", "KS"],  # seat 0, 13
                 ["QS", "2D"],   # seat 0, 2
                 ["4C", "3D"],   # seat 0
                 ["2H", "5H"],   # seat 1
                 ["JH", "AH"]]   # seat 0, 5: side 0 20, side 1 4
# Seat 1 leads a trump; seat 0 holds AH (a top-five trump) and plays a spade.
TRICKS_TRUMP_REVOKE = [["5H", "KS"],   # seat 1, 3
                       ["AS", "QS"],   # seat 1, 6
                       ["10S", "3C"],  # seat 1, 10
                       ["JH", "AH"],   # seat 0, 5
                       ["2H", "2D"],   # seat 0
                       ["4C", "3D"]]   # seat 0: side 0 5, side 1 19
# Seat 0 trumps a spade lead although it holds spades: allowed (follow suit or trump).
TRICKS_TRUMP_IN = [["AS", "2H"],   # seat 0, 4
                   ["KS", "10S"],  # seat 0, 13
                   ["QS", "2D"],   # seat 0, 2
                   ["3C", "3D"],   # seat 0
                   ["4C", "5H"],   # seat 1 trumps
                   ["JH", "AH"]]   # seat 0, 5: side 0 24, side 1 0

# Two players, seat 0 holds only the 2H as trump and does not play it to a trump lead: a tier-2 revoke.
DEAL4 = [["2H", "KS", "QS", "3C", "4C", "7D"], ["AH", "JH", "5H", "AS", "10S", "2D"]]
TRICKS4 = [["5H", "KS"], ["AH", "2H"], ["AS", "QS"], ["10S", "3C"], ["JH", "4C"], ["2D", "7D"]]
# seat 1 wins five tricks: 3 + 4 + 6 + 10 + 1 = 24; seat 0 the last (7D over 2D), 0.

# Two players, dealer 1 (seat 0 leads), trump clubs; seat 1 twice plays a heart to a diamond lead.
DEAL5 = [["AC", "KD", "QD", "JD", "3S", "4S"], ["2C", "10D", "4D", "AS", "KH", "QH"]]
TRICKS5 = [["KD", "KH"],   # seat 0, 6 (revoke)
           ["QD", "QH"],   # seat 0, 4 (revoke)
           ["JD", "4D"],   # seat 0, 1
           ["3S", "AS"],   # seat 1, 4
           ["10D", "AC"],  # seat 0 trumps, 14
           ["4S", "2C"]]   # seat 1 trumps: side 0 25, side 1 4

# Four players, dealer 3 (seat 0 leads), trump spades.
DEAL6 = [["AH", "2H", "3H", "4H", "5H", "6H"], ["KS", "2D", "3D", "4D", "5D", "6D"],
         ["7H", "8H", "9H", "10H", "JH", "QH"], ["2S", "7D", "8D", "9D", "10D", "JD"]]
TRICKS6 = [["2H", "KS", "7H", "2S"],   # seat 1 trumps with KS; seat 3 undertrumps with 2S holding diamonds
           ["2D", "8H", "7D", "3H"],   # seat 3 (7D)
           ["8D", "4H", "3D", "9H"],   # seat 3
           ["10D", "5H", "4D", "10H"],  # seat 3, 20
           ["JD", "6H", "5D", "JH"],   # seat 3, 2
           ["9D", "AH", "6D", "QH"]]   # seat 3, 6: side 0 0, side 1 31
# The same, but seat 3 holds nothing but trumps: its undertrump is allowed.
DEAL7 = [["AH", "2H", "3H", "4H", "5H", "6H"], ["KS", "2D", "3D", "4D", "5D", "6D"],
         ["7H", "8H", "9H", "10H", "JH", "QH"], ["2S", "3S", "4S", "5S", "6S", "7S"]]
TRICKS7 = [["2H", "KS", "7H", "2S"], ["2D", "8H", "3S", "3H"], ["4S", "4H", "3D", "9H"],
           ["5S", "5H", "4D", "10H"], ["6S", "6H", "5D", "JH"], ["7S", "AH", "6D", "QH"]]
# seat 1 takes the first trick (3), seat 3 the rest (10 + 1 + 6): side 1 20.
# Seat 0 leads the 2S; seat 1 holds KS (a top-five trump) and plays a diamond.
DEAL8 = [["2S", "AH", "3H", "4H", "5H", "6H"], ["KS", "2D", "3D", "4D", "5D", "6D"],
         ["7H", "8H", "9H", "10H", "JH", "QH"], ["2H", "7D", "8D", "9D", "10D", "JD"]]
TRICKS8 = [["2S", "2D", "7H", "2H"],   # seat 0, 0 (trump_revoke by seat 1)
           ["AH", "KS", "8H", "7D"],   # seat 1 trumps, 7
           ["3D", "9H", "8D", "3H"],   # seat 3
           ["10D", "4H", "4D", "10H"],  # seat 3, 20
           ["JD", "5H", "5D", "JH"],   # seat 3, 2
           ["9D", "6H", "6D", "QH"]]   # seat 3, 2: side 0 0, side 1 31

# English, two players, dealer 0: a run (5H, then 9S: trump spades) and discards down to six.
DEAL9 = [["AS", "3S", "KD", "QD", "3C", "4C"], ["JS", "5S", "AD", "10D", "2C", "6H"]]
RUNS9 = [[["7H", "8H", "KH"], ["2S", "9C", "10C"]]]
DISCARDS9 = [["7H", "8H", "KH"], ["2S", "9C", "6H"]]   # seat 1 lays away the 2S: not Low
TRICKS9 = [["AD", "KD"],   # seat 1, 7
           ["10D", "QD"],  # seat 0 (Q over 10), 12
           ["3C", "10C"],  # seat 1, 10
           ["2C", "4C"],   # seat 0
           ["3S", "5S"],   # seat 1
           ["JS", "AS"]]   # seat 0 hangs the jack, 5: 17 each, Game tied

# English, three players, dealer 2 (seat 0 leads), trump diamonds; seat 2 renounces spades on trick 1.
DEAL10 = [["AD", "KS", "QS", "JS", "2C", "3C"], ["2D", "AS", "10S", "4C", "5C", "6C"],
          ["JD", "3S", "4S", "7C", "8C", "9C"]]
TRICKS10 = [["KS", "AS", "7C"],   # seat 1, 7 (revoke by seat 2)
            ["10S", "4S", "QS"],  # seat 0, 12
            ["JS", "4C", "3S"],   # seat 0, 1
            ["2C", "5C", "8C"],   # seat 2
            ["JD", "AD", "2D"],   # seat 0, 5
            ["3C", "6C", "9C"]]   # seat 2: sides 18, 7, 0

# Two players, dealer 1 (seat 0 leads), trump hearts: seat 1 revokes (trick 1), then seat 0 withholds
# its AH from a trump lead (trick 4).
TRICKS_BOTH = [["KS", "2D"],   # seat 0, 3 (revoke by seat 1: it holds AS 10S)
               ["3C", "3D"],   # seat 0
               ["QS", "AS"],   # seat 1, 6
               ["5H", "4C"],   # seat 1 (trump_revoke by seat 0: it holds AH 2H)
               ["10S", "2H"],  # seat 0 trumps, 10
               ["AH", "JH"]]   # seat 0 hangs the jack, 5: side 0 18, side 1 6
# Two players, dealer 0: AD kicked, a run, JS kicked: spades are trump and their jack is out of play.
DEAL11 = [["KS", "3S", "2C", "3C", "4C", "5C"], ["QS", "2S", "7H", "8H", "9H", "10H"]]
RUNS11 = [[["7C", "8C", "9C"], ["4S", "JH", "QH"]]]
TRICKS11 = [["10H", "2C"], ["QH", "3C"], ["JH", "4C"], ["9H", "5C"], ["8H", "7C"],  # seat 1: 10 + 2 + 1
            ["7H", "KS"],   # seat 0 trumps, 3
            ["8C", "2S"],   # seat 1 trumps
            ["QS", "3S"],   # seat 1, 2
            ["4S", "9C"]]   # seat 1: side 0 3, side 1 15
# DEAL9 again, but seat 1 lays away the jack of trumps: no Jack, and the 2S is Low for seat 1.
DISCARDS12 = [["7H", "8H", "KH"], ["JS", "9C", "6H"]]
TRICKS12 = [["AD", "KD"],   # seat 1, 7
            ["10D", "QD"],  # seat 0, 12
            ["3C", "10C"],  # seat 1, 10
            ["2C", "4C"],   # seat 0
            ["3S", "5S"],   # seat 1
            ["2S", "AS"]]   # seat 0, 4: side 0 16, side 1 17

SCORED: list[Any] = [
    ("a revoke, then a top-five trump renege by the other side: the game is lost after the +1",
     doc(play(1, ["9H"], DEAL1, TRICKS_BOTH), rules=TWO), [1, 14], 1, [("revoke", 0, 1), ("trump_revoke", 1, 14)], 0),
    ("both reneges under one_point: both sides barred from Game",
     doc(play(1, ["9H"], DEAL1, TRICKS_BOTH), rules={**TWO, "renege": "one_point"}), [6, 1], None,
     [("revoke", 0, 1), ("trump_revoke", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3)], 0),
    ("both reneges under one_point, tally form",
     doc(th(1, ["9H"], high=(0, "AH"), low=(0, "2H"), jack=(1, 0), game=[18, 6],
            penalties=[{"kind": "revoke", "side": 1}, {"kind": "trump_revoke", "side": 0}]),
         rules={**TWO, "renege": "one_point"}), [6, 1], None,
     [("revoke", 0, 1), ("trump_revoke", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3)], 0),
    ("a run whose last kick is the jack of trumps: kicks 1 and 3, the jack out of play, nine tricks",
     doc(play(0, ["AD", "JS"], DEAL11, TRICKS11, beg="run", runs=RUNS11), rules=TWO), [5, 2], None,
     [("kick", 0, 1), ("kick", 0, 3), ("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 1),
    ("the jack of trumps laid away is not in play",
     doc(play(0, ["5H", "9S"], DEAL9, TRICKS12, beg="run", runs=RUNS9, discards=DISCARDS12),
         rules={"preset": "english", "players": 2}), [1, 2], None,
     [("high", 0, 1), ("low", 1, 1), ("game", 1, 1)], 1),
    ("low captured by the side it was dealt to",
     doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_IN), rules={**TWO, "low": "captured"}), [6, 0], None,
     [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("a game of a tally hand, then a card-by-card hand",
     doc([th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), game=[10, 5]), play(1, ["9C"], DEAL5, TRICKS5)], rules=TWO),
     [6, 2], None,
     [[("high", 0, 1), ("low", 1, 1), ("game", 0, 1)],
      [("revoke", 0, 1), ("revoke", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]], [1, 0]),
    ("two players: High, Low and a hang jack by the cards",
     doc(play(0, ["9H"], DEAL1, TRICKS1), rules=TWO), [6, 0], None,
     [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("the same hand in the tally form",
     doc(th(0, ["9H"], high=(0, "AH"), low=(0, "2H"), jack=(1, 0), game=[17, 7]), rules=TWO), [6, 0], None,
     [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("low captured: Low to the side that captured the 2H",
     doc(play(0, ["9H"], DEAL1, TRICKS1), rules={**TWO, "low": "captured"}), [5, 1], None,
     [("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("the gift comes first",
     doc(play(0, ["9H"], DEAL1, TRICKS1, beg="give"), rules=TWO), [6, 1], None,
     [("gift", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("a revoke: +1 to the opponent, and the offender's most card points give nobody Game",
     doc(play(0, ["9H"], DEAL1, TRICKS_REVOKE), rules=TWO), [5, 1], None,
     [("revoke", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3)], 1),
    ("a revoke with revoke_bars_game false",
     doc(play(0, ["9H"], DEAL1, TRICKS_REVOKE), rules={**TWO, "revoke_bars_game": False}), [6, 1], None,
     [("revoke", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("trump_only: renouncing a plain suit is no revoke",
     doc(play(0, ["9H"], DEAL1, TRICKS_REVOKE), rules={**TWO, "follow": "trump_only"}), [6, 0], None,
     [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("trumping a plain lead while able to follow is allowed",
     doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_IN), rules=TWO), [6, 0], None,
     [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
    ("a top-five trump renege, two_tier: the game is lost",
     doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_REVOKE), rules=TWO), [0, 14], 1, [("trump_revoke", 1, 14)], 1),
    ("a top-five trump renege, lose_game", doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_REVOKE),
                                               rules={**TWO, "renege": "lose_game"}, score=[3, 9]),
     [3, 14], 1, [("trump_revoke", 1, 5)], 1),
    ("a top-five trump renege, one_point: +1 and no Game for the offender",
     doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_REVOKE), rules={**TWO, "renege": "one_point"}), [5, 2], None,
     [("trump_revoke", 1, 1), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 1, 1)], 1),
    ("trump_only still requires a trump to a trump lead",
     doc(play(0, ["9H"], DEAL1, TRICKS_TRUMP_REVOKE), rules={**TWO, "follow": "trump_only"}), [0, 14], 1,
     [("trump_revoke", 1, 14)], 1),
    ("a small trump withheld from a trump lead is a tier-2 revoke",
     doc(play(0, ["9H"], DEAL4, TRICKS4), rules=TWO), [1, 4], None,
     [("revoke", 1, 1), ("high", 1, 1), ("low", 0, 1), ("jack", 1, 1), ("game", 1, 1)], 1),
    ("two illegal cards are two penalties",
     doc(play(1, ["9C"], DEAL5, TRICKS5), rules=TWO), [4, 1], None,
     [("revoke", 0, 1), ("revoke", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 0),
    ("two revokes in the tally form score the same",
     doc(th(1, ["9C"], high=(0, "AC"), low=(1, "2C"), game=[25, 4],
            penalties=[{"kind": "revoke", "side": 1}, {"kind": "revoke", "side": 1}]), rules=TWO), [4, 1], None,
     [("revoke", 0, 1), ("revoke", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)], 0),
    ("undertrumping allowed: no penalty",
     doc(play(3, ["9S"], DEAL6, TRICKS6)), [0, 3], None, [("high", 1, 1), ("low", 1, 1), ("game", 1, 1)], 0),
    ("undertrumping forbidden: holding a diamond, the undertrump loses the game",
     doc(play(3, ["9S"], DEAL6, TRICKS6), rules={"preset": "trinidad", "undertrump": "forbidden"}),
     [14, 0], 0, [("undertrump", 0, 14)], 0),
    ("undertrumping forbidden, one_point: still loses the game",
     doc(play(3, ["9S"], DEAL6, TRICKS6), rules={"preset": "trinidad", "undertrump": "forbidden",
                                                 "renege": "one_point"}, score=[5, 5]),
     [14, 5], 0, [("undertrump", 0, 9)], 0),
    ("undertrumping forbidden: a player down to trumps may",
     doc(play(3, ["9S"], DEAL7, TRICKS7), rules={"preset": "trinidad", "undertrump": "forbidden"}),
     [0, 3], None, [("high", 1, 1), ("low", 1, 1), ("game", 1, 1)], 0),
    ("four players: a top-five trump renege, two_tier",
     doc(play(3, ["9S"], DEAL8, TRICKS8)), [14, 0], 0, [("trump_revoke", 0, 14)], 0),
    ("four players: a top-five trump renege, one_point",
     doc(play(3, ["9S"], DEAL8, TRICKS8), rules={"preset": "trinidad", "renege": "one_point"}),
     [2, 1], None, [("trump_revoke", 0, 1), ("high", 1, 1), ("low", 0, 1)], 0),
    ("four players: one_point without the Game bar",
     doc(play(3, ["9S"], DEAL8, TRICKS8), rules={"preset": "trinidad", "renege": "one_point",
                                                 "revoke_bars_game": False}),
     [2, 2], None, [("trump_revoke", 0, 1), ("high", 1, 1), ("low", 0, 1), ("game", 1, 1)], 0),
    ("english, two players: a run, discards, a discarded trump is not Low",
     doc(play(0, ["5H", "9S"], DEAL9, TRICKS9, beg="run", runs=RUNS9, discards=DISCARDS9),
         rules={"preset": "english", "players": 2}),
     [3, 0], None, [("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 1)], 1),
    ("english, three players: a revoke gives both opponents a point",
     doc(play(2, ["9D"], DEAL10, TRICKS10), rules={"preset": "english", "players": 3}),
     [4, 2, 0], None,
     [("revoke", 0, 1), ("revoke", 1, 1), ("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 1), ("game", 0, 1)], 0),
    ("abandoned kicks may be dealt again in the play form",
     doc(play(0, ["9H"], DEAL1, TRICKS1, abandoned=[["AS", "10S", "JS", "2S", "3S", "4S"]]), rules=TWO), [10, 0], None,
     [("kick", 0, 1), ("kick", 0, 3), ("high", 0, 1), ("low", 0, 1), ("hang_jack", 0, 3), ("game", 0, 1)], 1),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events", "next_dealer"), SCORED,
                         ids=[c[0] for c in SCORED])
def test_scored(name: str, document: dict[str, Any], score: list[int], winner: int | None,
                events: list[Any], next_dealer: int) -> None:
    expect(document, score, winner, events, next_dealer)


def _swap(tricks: list[list[str]], i: int, j: int, card: str) -> list[list[str]]:
    out = [list(t) for t in tricks]
    out[i][j] = card
    return out


REFUSED: list[Any] = [
    ("a card not held", doc(play(0, ["9H"], DEAL1, _swap(TRICKS1, 0, 1, "KH")), rules=TWO)),
    ("a card played twice", doc(play(0, ["9H"], DEAL1, _swap(TRICKS1, 3, 0, "3C")), rules=TWO)),
    ("the wrong seat leads the first trick", doc(play(0, ["9H"], DEAL1, [list(reversed(TRICKS1[0])),
                                                                         *TRICKS1[1:]]), rules=TWO)),
    ("the loser of a trick leads the next", doc(play(0, ["9H"], DEAL1, [TRICKS1[0], ["QS", "10S"],
                                                                         *TRICKS1[2:]]), rules=TWO)),
    ("the kick is also dealt", doc(play(0, ["9H"], [["9H", *DEAL1[0][1:]], DEAL1[1]],
                                        [["AS", "KS"], *TRICKS1[1:]]), rules=TWO)),
    ("a card dealt to two seats", doc(play(0, ["9H"], [DEAL1[0], ["AH", *DEAL1[1][1:]]], TRICKS1), rules=TWO)),
    ("five tricks", doc(play(0, ["9H"], DEAL1, TRICKS1[:5]), rules=TWO)),
    ("seven tricks", doc(play(0, ["9H"], DEAL1, [*TRICKS1, ["AS", "KS"]]), rules=TWO)),
    ("a seat dealt five cards", doc(play(0, ["9H"], [DEAL1[0][:5], DEAL1[1]], TRICKS1), rules=TWO)),
    ("three seats dealt with two players", doc(play(0, ["9H"], [*DEAL1, ["2S", "3S", "4S", "5S", "6S", "7S"]],
                                                    TRICKS1), rules=TWO)),
    ("a trick of three cards with two players", doc(play(0, ["9H"], DEAL1, [["AS", "KS", "2S"], *TRICKS1[1:]]),
                                                    rules=TWO)),
    ("a run without runs", doc(play(0, ["5H", "9S"], DEAL9, TRICKS9, beg="run", discards=DISCARDS9),
                               rules={"preset": "english", "players": 2})),
    ("discard_to set and the pack run, but no discards",
     doc(play(0, ["5H", "9S"], DEAL9, TRICKS9, beg="run", runs=RUNS9), rules={"preset": "english", "players": 2})),
    ("discards without a run", doc(play(0, ["9H"], DEAL1, TRICKS1, discards=[["KS"], ["AS"]]),
                                   rules={"preset": "english", "players": 2})),
    ("a discard not held", doc(play(0, ["5H", "9S"], DEAL9, TRICKS9, beg="run", runs=RUNS9,
                                    discards=[["7H", "8H", "QH"], DISCARDS9[1]]),
                               rules={"preset": "english", "players": 2})),
    ("a play-form hand with a tally field", doc({**play(0, ["9H"], DEAL1, TRICKS1), "game": [17, 7]}, rules=TWO)),
    ("a play-form hand with an unknown field", doc({**play(0, ["9H"], DEAL1, TRICKS1), "note": "x"}, rules=TWO)),
    ("a card that does not parse in a trick", doc(play(0, ["9H"], DEAL1, _swap(TRICKS1, 0, 0, "1S")), rules=TWO)),
]


@pytest.mark.parametrize(("name", "document"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name: str, document: dict[str, Any]) -> None:
    refuse(document)
