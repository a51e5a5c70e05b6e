"""Audit: penalties in the tally form (docs/rules.md 6.3, 7, 9 `renege`, `revoke_points`,
`revoke_bars_game`, `undertrump`; docs/hand-format.md `penalties` and the result's penalty events).

Expectations worked out by hand. A lost game raises the opponents to the target (the event's points
are the difference); otherwise each opponent gets revoke_points; the offender, with
revoke_bars_game, cannot score Game (if it has the most card points, nobody does).
"""

from __future__ import annotations

from typing import Any

import pytest

from .audit import doc, expect, refuse, th

ENGLISH3 = {"preset": "english", "players": 3}


def base(*penalties: tuple[str, int], **changes: Any) -> dict[str, Any]:
    """Dealer 0, kick 9H: side 0 High, the jack (kept) and more card points; side 1 Low."""
    out = th(0, ["9H"], high=(0, "AH"), low=(1, "2H"), jack=(0, 0), game=[21, 16],
             penalties=[{"kind": kind, "side": side} for kind, side in penalties])
    out.update(changes)
    return out


def three(*penalties: tuple[str, int]) -> dict[str, Any]:
    """Three players, dealer 0: side 0 High, side 2 Low, side 1 keeps its jack and has the most card
    points."""
    return th(0, ["9H"], high=(0, "AH"), low=(2, "2H"), jack=(1, 1), game=[10, 20, 5],
              penalties=[{"kind": kind, "side": side} for kind, side in penalties])


HLJG = [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]
HLJ = HLJG[:3]

SCORED: list[Any] = [
    ("no penalties: an empty list", doc(base()), [3, 1], None, HLJG, 1),
    ("revoke by the side with fewer card points: +1, Game still to the other side",
     doc(base(("revoke", 1))), [4, 1], None, [("revoke", 0, 1), *HLJG], 1),
    ("revoke by the side with the most card points: nobody scores Game",
     doc(base(("revoke", 0))), [2, 2], None, [("revoke", 1, 1), *HLJ], 1),
    ("revoke_bars_game false: the offender keeps Game",
     doc(base(("revoke", 0)), rules={"preset": "trinidad", "revoke_bars_game": False}),
     [3, 2], None, [("revoke", 1, 1), *HLJG], 1),
    ("trump_revoke, two_tier: the opponents are raised to the target",
     doc(base(("trump_revoke", 0)), score=[5, 7]), [5, 14], 1, [("trump_revoke", 1, 7)], 1),
    ("trump_revoke, two_tier, opponents at 0: 14 points",
     doc(base(("trump_revoke", 1))), [14, 0], 0, [("trump_revoke", 0, 14)], 1),
    ("trump_revoke, one_point: like a revoke, and no Game for the offender",
     doc(base(("trump_revoke", 0)), rules={"preset": "trinidad", "renege": "one_point"}),
     [2, 2], None, [("trump_revoke", 1, 1), *HLJ], 1),
    ("trump_revoke, lose_game",
     doc(base(("trump_revoke", 0)), rules={"preset": "trinidad", "renege": "lose_game"}, score=[5, 7]),
     [5, 14], 1, [("trump_revoke", 1, 7)], 1),
    ("revoke, lose_game: every renege loses the game",
     doc(base(("revoke", 1)), rules={"preset": "trinidad", "renege": "lose_game"}, score=[5, 7]),
     [14, 7], 0, [("revoke", 0, 9)], 1),
    ("english (one_point): a revoke is +1 and no Game",
     doc(base(("revoke", 0)), rules="english"), [2, 2], None, [("revoke", 1, 1), *HLJ], 1),
    ("english (one_point): a trump_revoke is +1 too",
     doc(base(("trump_revoke", 0)), rules="english"), [2, 2], None, [("trump_revoke", 1, 1), *HLJ], 1),
    ("english with lose_game: raised to 11",
     doc(base(("revoke", 1)), rules={"preset": "english", "renege": "lose_game"}, score=[3, 4]),
     [11, 4], 0, [("revoke", 0, 8)], 1),
    ("undertrump where forbidden loses the game",
     doc(base(("undertrump", 1)), rules={"preset": "trinidad", "undertrump": "forbidden"}, score=[3, 12]),
     [14, 12], 0, [("undertrump", 0, 11)], 1),
    ("undertrump loses the game even under one_point",
     doc(base(("undertrump", 0)), rules={"preset": "trinidad", "undertrump": "forbidden",
                                         "renege": "one_point"}),
     [0, 14], 1, [("undertrump", 1, 14)], 1),
    ("revoke_points 2", doc(base(("revoke", 1)), rules={"preset": "trinidad", "revoke_points": 2}),
     [5, 1], None, [("revoke", 0, 2), *HLJG], 1),
    ("revoke_points 0: no event, still no Game for the offender",
     doc(base(("revoke", 0)), rules={"preset": "trinidad", "revoke_points": 0}), [2, 1], None, HLJ, 1),
    ("a revoke by each side, in order: both barred from Game",
     doc(base(("revoke", 0), ("revoke", 1))), [3, 2], None, [("revoke", 1, 1), ("revoke", 0, 1), *HLJ], 1),
    ("a revoke that reaches the target wins: nothing after it",
     doc(base(("revoke", 1)), score=[13, 5]), [14, 5], 0, [("revoke", 0, 1)], 1),
    ("the first of two penalties wins",
     doc(base(("revoke", 1), ("trump_revoke", 0)), score=[13, 5]), [14, 5], 0, [("revoke", 0, 1)], 1),
    ("a revoke, then a trump_revoke by the other side",
     doc(base(("revoke", 1), ("trump_revoke", 0)), score=[5, 5]),
     [6, 14], 1, [("revoke", 0, 1), ("trump_revoke", 1, 9)], 1),
    ("penalties score after the kick and the gift, before High",
     doc(th(0, ["AH"], beg="give", high=(0, "KH"), low=(1, "2H"), jack=(0, 0), game=[21, 16],
            penalties=[{"kind": "revoke", "side": 0}])),
     [3, 3], None, [("kick", 0, 1), ("gift", 1, 1), ("revoke", 1, 1), *HLJ], 1),
    ("two players, two_tier: a trump_revoke loses the game",
     doc(base(("trump_revoke", 0)), rules={"preset": "trinidad", "players": 2}, score=[4, 6]),
     [4, 14], 1, [("trump_revoke", 1, 8)], 1),
    ("three players: a revoke gives each opponent 1, one event per side",
     doc(three(("revoke", 1)), rules=ENGLISH3), [2, 1, 2], None,
     [("revoke", 0, 1), ("revoke", 2, 1), ("high", 0, 1), ("low", 2, 1), ("jack", 1, 1)], 1),
    ("three players: a trump_revoke is one point to each opponent",
     doc(three(("trump_revoke", 1)), rules=ENGLISH3), [2, 1, 2], None,
     [("trump_revoke", 0, 1), ("trump_revoke", 2, 1), ("high", 0, 1), ("low", 2, 1), ("jack", 1, 1)], 1),
    ("three players: a revoke by side 0 gives sides 1 and 2",
     doc(three(("revoke", 0)), rules=ENGLISH3), [1, 3, 2], None,
     [("revoke", 1, 1), ("revoke", 2, 1), ("high", 0, 1), ("low", 2, 1), ("jack", 1, 1), ("game", 1, 1)], 1),
    ("three players: the first opponent to the target wins, the second gets no event",
     doc(three(("revoke", 0)), rules=ENGLISH3, score=[5, 10, 10]), [5, 11, 10], 1, [("revoke", 1, 1)], 1),
    ("three players over trinidad with one_point",
     doc(th(0, ["AH"], high=(1, "KH"), low=(2, "2H"), game=[0, 0, 0]),
         rules={"preset": "trinidad", "players": 3, "renege": "one_point"}),
     [1, 1, 1], None, [("kick", 0, 1), ("high", 1, 1), ("low", 2, 1)], 1),
    ("game_tie non_dealer: the non-dealer side barred, nobody scores Game",
     doc(base(("revoke", 1), game=[20, 20]), rules={"preset": "trinidad", "game_tie": "non_dealer"}),
     [3, 1], None, [("revoke", 0, 1), *HLJ], 1),
    ("game_tie non_dealer: the dealer's side barred, the non-dealer scores the tie",
     doc(base(("revoke", 0), game=[20, 20]), rules={"preset": "trinidad", "game_tie": "non_dealer"}),
     [2, 3], None, [("revoke", 1, 1), *HLJ, ("game", 1, 1)], 1),
    ("trinidad-tournament: a barred Game of 2 goes to nobody",
     doc(base(("revoke", 0)), rules="trinidad-tournament"), [2, 2], None, [("revoke", 1, 1), *HLJ], 1),
]


@pytest.mark.parametrize(("name", "document", "score", "winner", "events", "next_dealer"), SCORED,
                         ids=[c[0] for c in SCORED])
def test_scored(name: str, document: dict[str, Any], score: list[int], winner: int | None,
                events: list[Any], next_dealer: int) -> None:
    expect(document, score, winner, events, next_dealer)


def test_penalty_events_carry_the_offender() -> None:
    result = expect(doc(base(("revoke", 1), ("trump_revoke", 0)), score=[5, 5]), [6, 14], 1,
                    [("revoke", 0, 1), ("trump_revoke", 1, 9)])
    assert [e["offender"] for e in result["hands"][0]["events"]] == [1, 0]
    three_players = expect(doc(three(("revoke", 1)), rules=ENGLISH3), [2, 1, 2], None,
                           [("revoke", 0, 1), ("revoke", 2, 1), ("high", 0, 1), ("low", 2, 1), ("jack", 1, 1)])
    assert [e.get("offender") for e in three_players["hands"][0]["events"][:2]] == [1, 1]


REFUSED: list[Any] = [
    ("undertrump where undertrumping is allowed", doc(base(("undertrump", 1)))),
    ("an unknown penalty kind", doc(base(("renege", 1)))),
    ("a penalty side out of range", doc(base(("revoke", 2)))),
    ("a penalty side out of range, three players", doc(three(("revoke", 3)), rules=ENGLISH3)),
    ("a penalty with an unknown field", doc(base(penalties=[{"kind": "revoke", "side": 1, "seat": 3}]))),
    ("a penalty without side", doc(base(penalties=[{"kind": "revoke"}]))),
    ("penalties not a list", doc(base(penalties={"kind": "revoke", "side": 1}))),
    ("a penalty side that is a boolean", doc(base(penalties=[{"kind": "revoke", "side": True}]))),
    ("three players with two_tier", doc(three(), rules={"preset": "trinidad", "players": 3})),
    ("three players with lose_game", doc(three(), rules={"preset": "english", "players": 3,
                                                         "renege": "lose_game"})),
    ("three players with undertrump forbidden", doc(three(), rules={"preset": "english", "players": 3,
                                                                    "undertrump": "forbidden"})),
]


@pytest.mark.parametrize(("name", "document"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name: str, document: dict[str, Any]) -> None:
    refuse(document)
