"""Scoring (docs/rules.md sections 2 to 7 and 9): every event, the order of section 6, stopping at the target,
and every rule option."""

from __future__ import annotations

import pytest

from scoring import Event, InvalidHand, RuleSet, score_hand
from scoring.model import Hand
from scoring.score import evaluate

from .helpers import doc, events, hand, refused, scored

THREE = {"preset": "english", "players": 3}
TWO = {"preset": "english", "players": 2}


def three_hand(**changes):
    out = {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 1, "card": "AH"},
           "low": {"side": 2, "card": "2H"}, "jack": None, "game": [10, 20, 5]}
    out.update(changes)
    return out


# ---- kicks --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kick", "points"), [("AD", 1), ("6D", 2), ("JD", 3), ("KD", 0), ("2D", 0), ("10D", 0)])
def test_trinidad_kicks_ace_one_six_two_jack_three(kick, points):
    the_hand = hand(dealer=1, kicks=[kick], high={"side": 0, "card": "QD" if kick != "QD" else "KD"},
                    low={"side": 1, "card": "3D"}, jack=None if kick == "JD" else {"held_by": 0, "won_by": 0})
    got = [e for e in events(scored(the_hand)) if e[0] == "kick"]
    assert got == ([("kick", 1, points)] if points else [])


@pytest.mark.parametrize(("kick", "points"), [("AD", 1), ("2D", 2), ("JD", 3), ("6D", 0)])
def test_tobago_kicks_two_for_the_two_and_nothing_for_the_six(kick, points):
    the_hand = hand(dealer=1, kicks=[kick], high={"side": 0, "card": "QD"}, low={"side": 1, "card": "3D"},
                    jack=None if kick == "JD" else {"held_by": 0, "won_by": 0})
    got = [e for e in events(scored(the_hand, rules="tobago")) if e[0] == "kick"]
    assert got == ([("kick", 1, points)] if points else [])


def test_english_rules_score_only_a_kicked_jack():
    assert events(scored(hand(kicks=["AH"], high={"side": 0, "card": "KH"}), rules="english"))[0] == ("high", 0, 1)
    assert events(scored(hand(kicks=["JH"], jack=None), rules="english"))[0] == ("kick", 0, 1)


def test_kick_points_option():
    result = scored(hand(kicks=["9H"]), rules={"kick_points": {"9": 4}})
    assert events(result)[0] == ("kick", 0, 4)


def test_the_dealers_side_scores_the_kick_with_partners():
    assert events(scored(hand(dealer=3, kicks=["6H"])))[0] == ("kick", 1, 2)


def test_a_jack_kicked_at_12_keeps_the_true_total_15():
    result = scored({"dealer": 1, "kicks": ["JS"]}, score=[9, 12])
    assert result["score"] == [9, 15] and result["winner"] == 1
    assert result["hands"][0]["events"] == [{"kind": "kick", "side": 1, "points": 3, "card": "JS"}]


def test_every_kick_of_a_run_scores_as_it_is_turned():
    the_hand = hand(dealer=1, kicks=["JH", "6H", "QC"], beg="run", high={"side": 0, "card": "AC"},
                    low={"side": 1, "card": "2C"}, jack={"held_by": 0, "won_by": 1}, game=[35, 30])
    assert events(scored(the_hand, score=[4, 4]))[:2] == [("kick", 1, 3), ("kick", 1, 2)]


def test_kicks_of_an_abandoned_deal_score_first_and_are_kept():
    the_hand = hand(dealer=2, abandoned=[["6C", "AC", "5C"]], kicks=["JD"], high={"side": 1, "card": "AD"},
                    low={"side": 0, "card": "2D"}, jack=None, game=[10, 10])
    result = scored(the_hand, score=[7, 3])
    assert events(result) == [("kick", 0, 2), ("kick", 0, 1), ("kick", 0, 3), ("high", 1, 1), ("low", 0, 1)]
    assert result["winner"] == 0 and result["score"] == [14, 4]


def test_a_kick_card_of_no_points_makes_no_event():
    assert [e for e in events(scored()) if e[0] == "kick"] == []


# ---- only the kick that fixes trump (Seven Up) ----------------------------------------------------------------
def seven_up_hand(**changes):
    out = {"dealer": 0, "kicks": ["JH"], "beg": "stand", "high": {"side": 1, "card": "AH"},
           "low": {"side": 0, "card": "2H"}, "jack": None, "game": [10, 12]}
    out.update(changes)
    return out


def test_seven_up_the_first_kick_scores_when_the_beggar_stands():
    assert events(scored(seven_up_hand(), rules="seven-up"))[0] == ("kick", 0, 1)


def test_seven_up_the_first_kick_scores_then_the_gift_when_the_dealer_gives():
    assert events(scored(seven_up_hand(beg="give"), rules="seven-up"))[:2] == [("kick", 0, 1), ("gift", 1, 1)]


def test_seven_up_a_kick_replaced_by_the_run_does_not_score():
    result = scored(seven_up_hand(kicks=["JC", "9H"], beg="run"), rules="seven-up")
    assert [e for e in events(result) if e[0] == "kick"] == []


def test_seven_up_the_last_kick_of_a_run_scores():
    result = scored(seven_up_hand(kicks=["9C", "JH"], beg="run"), rules="seven-up")
    assert events(result)[0] == ("kick", 0, 1)


def test_seven_up_kicks_of_abandoned_deals_never_score():
    the_hand = seven_up_hand(abandoned=[["JC", "2C", "3C", "4C", "5C", "6C"]], kicks=["9H"])
    assert [e for e in events(scored(the_hand, rules="seven-up")) if e[0] == "kick"] == []


# ---- the gift ----------------------------------------------------------------------------------------------------
def test_giving_one_scores_one_for_the_beggars_side():
    assert events(scored(hand(dealer=3, beg="give")))[0] == ("gift", 0, 1)


def test_a_gift_goes_to_every_player_but_the_dealer_with_three_players():
    result = scored(three_hand(dealer=1, beg="give"), rules=THREE)
    assert events(result)[:2] == [("gift", 0, 1), ("gift", 2, 1)]


def test_a_gift_goes_to_the_other_player_with_two_players():
    two = {"dealer": 1, "kicks": ["9H"], "beg": "give", "high": None, "low": None, "jack": None, "game": [0, 0]}
    assert events(scored(two, rules=TWO)) == [("gift", 0, 1)]


def test_gift_points_option():
    assert events(scored(hand(dealer=1, beg="give"), rules={"gift_points": 2}))[0] == ("gift", 0, 2)
    assert events(scored(hand(dealer=1, beg="give"), rules={"gift_points": 0}))[0] == ("high", 0, 1)


def test_a_gift_may_win_the_game_in_trinidad():
    result = scored({"dealer": 1, "kicks": ["6D"], "beg": "give"}, score=[13, 9])
    assert result["winner"] == 0 and events(result) == [("kick", 1, 2), ("gift", 0, 1)]


def test_the_first_side_a_gift_takes_to_the_target_wins_with_three_players():
    result = scored({"dealer": 0, "kicks": ["9H"], "beg": "give"},
                    rules={"preset": "english", "players": 3, "gift_can_win": True}, score=[0, 10, 10])
    assert events(result) == [("gift", 1, 1)] and result["winner"] == 1 and result["score"] == [0, 11, 10]


def test_gift_can_win_false_refuses_a_gift_that_would_win_for_either_opponent():
    refused(doc({"dealer": 0, "kicks": ["9H"], "beg": "give"}, rules=THREE, score=[0, 3, 10]), "gift_would_win",
            "hand.beg")


# ---- penalties ---------------------------------------------------------------------------------------------------
def test_penalties_score_after_the_kicks_and_gift_and_before_high():
    the_hand = hand(dealer=1, kicks=["6H"], beg="give", penalties=[{"kind": "revoke", "side": 0}])
    assert events(scored(the_hand)) == [("kick", 1, 2), ("gift", 0, 1), ("revoke", 1, 1), ("high", 0, 1),
                                        ("low", 1, 1), ("jack", 0, 1)]


def test_penalties_score_in_the_order_they_happened():
    the_hand = hand(penalties=[{"kind": "revoke", "side": 0}, {"kind": "revoke", "side": 1}])
    assert events(scored(the_hand))[:2] == [("revoke", 1, 1), ("revoke", 0, 1)]


def test_a_revoke_gives_the_opponents_one_and_bars_the_offender_from_game():
    result = scored(hand(penalties=[{"kind": "revoke", "side": 0}]))
    assert events(result) == [("revoke", 1, 1), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1)]
    assert result["hands"][0]["events"][0]["offender"] == 0


def test_a_revoke_by_the_side_with_fewer_card_points_leaves_game_to_the_other():
    result = scored(hand(penalties=[{"kind": "revoke", "side": 1}]))
    assert events(result)[-1] == ("game", 0, 1)


def test_revoke_bars_game_false():
    result = scored(hand(penalties=[{"kind": "revoke", "side": 0}]), rules={"revoke_bars_game": False})
    assert events(result)[-1] == ("game", 0, 1)


def test_revoke_points_option():
    assert events(scored(hand(penalties=[{"kind": "revoke", "side": 0}]), rules={"revoke_points": 2}))[0] == (
        "revoke", 1, 2)


def test_a_revoke_of_no_points_still_bars_game():
    result = scored(hand(penalties=[{"kind": "revoke", "side": 0}]), rules={"revoke_points": 0})
    assert events(result) == [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1)]


def test_a_revoke_with_three_players_scores_each_opponent_in_side_order():
    result = scored(three_hand(penalties=[{"kind": "revoke", "side": 1}]), rules=THREE)
    assert events(result)[:2] == [("revoke", 0, 1), ("revoke", 2, 1)]
    assert all(e["offender"] == 1 for e in result["hands"][0]["events"][:2])
    assert events(result)[-1] == ("low", 2, 1)  # side 1 had most card points but is barred: no Game


def test_a_trump_renege_loses_the_game_under_two_tier():
    result = scored(hand(penalties=[{"kind": "trump_revoke", "side": 1}]), score=[3, 12])
    assert events(result) == [("trump_revoke", 0, 11)]
    assert result["score"] == [14, 12] and result["winner"] == 0
    assert result["hands"][0]["events"][0]["offender"] == 1


def test_a_lost_game_raises_the_opponents_score_to_the_target_whatever_it_was():
    result = scored(hand(penalties=[{"kind": "trump_revoke", "side": 0}]), score=[13, 0])
    assert events(result) == [("trump_revoke", 1, 14)] and result["score"] == [13, 14]


def test_a_trump_renege_is_one_point_under_one_point():
    result = scored(hand(penalties=[{"kind": "trump_revoke", "side": 0}]), rules={"renege": "one_point"})
    assert events(result) == [("trump_revoke", 1, 1), ("high", 0, 1), ("low", 1, 1), ("jack", 0, 1)]


def test_every_renege_loses_the_game_under_lose_game():
    result = scored(hand(penalties=[{"kind": "revoke", "side": 0}]), rules={"renege": "lose_game"}, score=[5, 5])
    assert events(result) == [("revoke", 1, 9)] and result["winner"] == 1


def test_an_illegal_undertrump_always_loses_the_game():
    for renege in ("two_tier", "one_point", "lose_game"):
        result = scored(hand(penalties=[{"kind": "undertrump", "side": 0}]),
                        rules={"undertrump": "forbidden", "renege": renege}, score=[2, 4])
        assert events(result) == [("undertrump", 1, 10)], renege


def test_nothing_scores_after_a_lost_game():
    the_hand = hand(penalties=[{"kind": "trump_revoke", "side": 1}, {"kind": "revoke", "side": 0}])
    assert events(scored(the_hand)) == [("trump_revoke", 0, 14)]


# ---- High, Low, Jack, Game ---------------------------------------------------------------------------------------
def test_hang_jack_at_13_13_decides_on_high():
    the_hand = hand(dealer=3, kicks=["8H"], high={"side": 0, "card": "AH"}, low={"side": 1, "card": "2H"},
                    jack={"held_by": 1, "won_by": 1}, game=[10, 30])
    result = scored(the_hand, score=[13, 13])
    assert events(result) == [("high", 0, 1)] and result["winner"] == 0 and result["score"] == [14, 13]


def test_low_decides_before_hang_jack_and_game():
    the_hand = hand(high={"side": 0, "card": "AH"}, low={"side": 1, "card": "2H"}, jack={"held_by": 0, "won_by": 1})
    result = scored(the_hand, score=[12, 13])
    assert events(result) == [("high", 0, 1), ("low", 1, 1)] and result["winner"] == 1


def test_hang_jack_decides_before_game():
    the_hand = hand(jack={"held_by": 1, "won_by": 0})
    result = scored(the_hand, score=[0, 13])
    assert events(result) == [("high", 0, 1), ("low", 1, 1)]
    result = scored(the_hand, score=[11, 12])
    assert events(result) == [("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 3)] and result["score"] == [15, 13]


def test_jack_kept_by_its_holders_side_scores_one():
    assert ("jack", 0, 1) in events(scored(hand(jack={"held_by": 0, "won_by": 0})))


def test_jack_captured_by_the_opponents_is_hang_jack_for_three():
    assert ("hang_jack", 1, 3) in events(scored(hand(jack={"held_by": 0, "won_by": 1}, game=[21, 16])))


def test_hang_jack_is_hang_jack_even_for_one_point():
    assert ("hang_jack", 1, 1) in events(scored(hand(jack={"held_by": 0, "won_by": 1}), rules="english"))


def test_jack_points_options():
    rules = {"jack_points": 2, "hang_jack_points": 5}
    assert ("jack", 0, 2) in events(scored(hand(), rules=rules))
    assert ("hang_jack", 1, 5) in events(scored(hand(jack={"held_by": 0, "won_by": 1}), rules=rules))
    assert all(e[0] != "jack" for e in events(scored(hand(), rules={"jack_points": 0})))


def test_game_goes_to_the_most_card_points():
    assert events(scored(hand(game=[16, 21])))[-1] == ("game", 1, 1)


def test_game_points_two_in_the_tournament_preset():
    assert events(scored(hand(), rules="trinidad-tournament"))[-1] == ("game", 0, 2)


def test_a_game_tie_scores_nobody():
    assert events(scored(hand(game=[18, 18])))[-1] == ("jack", 0, 1)


def test_a_game_tie_goes_to_the_non_dealer_under_non_dealer():
    assert events(scored(hand(dealer=0, game=[18, 18]), rules={"game_tie": "non_dealer"}))[-1] == ("game", 1, 1)
    assert events(scored(hand(dealer=1, game=[18, 18]), rules={"game_tie": "non_dealer"}))[-1] == ("game", 0, 1)


def test_a_tie_to_the_non_dealer_is_lost_if_the_non_dealer_is_barred():
    the_hand = hand(dealer=0, game=[18, 18], penalties=[{"kind": "revoke", "side": 1}])
    assert events(scored(the_hand, rules={"game_tie": "non_dealer"}))[-1] == ("jack", 0, 1)


@pytest.mark.parametrize(
    ("game", "expected"),
    [([10, 10, 5], ("game", 1, 1)),  # dealer 0 tied with non-dealer 1: the non-dealer
     ([5, 10, 10], None),  # the two non-dealers tie: nobody
     ([10, 10, 10], None),  # all three: nobody
     ([12, 10, 10], ("game", 0, 1))],
)
def test_three_player_game_ties_under_non_dealer(game, expected):
    rules = dict(THREE, game_tie="non_dealer")
    got = [e for e in events(scored(three_hand(game=game), rules=rules)) if e[0] == "game"]
    assert got == ([expected] if expected else [])


def test_game_points_zero_makes_no_event():
    assert all(e[0] != "game" for e in events(scored(hand(), rules={"game_points": 0})))


def test_one_trump_both_high_and_low_with_jack_only_trump():
    the_hand = hand(kicks=["7S"], high={"side": 0, "card": "JS"}, low={"side": 0, "card": "JS"},
                    jack={"held_by": 0, "won_by": 0}, game=[15, 20])
    assert events(scored(the_hand)) == [("high", 0, 1), ("low", 0, 1), ("jack", 0, 1), ("game", 1, 1)]


def test_low_captured_goes_to_the_side_that_won_it():
    the_hand = hand(low={"side": 0, "card": "2H"})
    assert events(scored(the_hand, rules={"low": "captured"}))[:2] == [("high", 0, 1), ("low", 0, 1)]


# ---- misdeals ----------------------------------------------------------------------------------------------------
def test_a_misdeal_scores_the_dealers_opponents_and_the_same_dealer_deals_again():
    result = scored({"dealer": 0, "misdeal": True}, score=[4, 4])
    assert events(result) == [("misdeal", 1, 1)] and result["hands"][0]["next_dealer"] == 0
    assert result["hands"][0]["trump"] is None


def test_misdeal_passes_deal_in_the_tournament_preset():
    result = scored({"dealer": 3, "misdeal": True}, rules="trinidad-tournament")
    assert events(result) == [("misdeal", 0, 1)] and result["hands"][0]["next_dealer"] == 0


def test_a_misdeal_with_three_players_scores_each_opponent():
    result = scored({"dealer": 2, "misdeal": True}, rules=THREE)
    assert events(result) == [("misdeal", 0, 1), ("misdeal", 1, 1)]


def test_misdeal_points_option():
    assert events(scored({"dealer": 1, "misdeal": True}, rules={"misdeal_points": 2})) == [("misdeal", 0, 2)]
    assert events(scored({"dealer": 1, "misdeal": True}, rules={"misdeal_points": 0})) == []


def test_a_misdeal_may_win_the_game():
    result = scored({"dealer": 1, "misdeal": True}, score=[13, 2])
    assert result["winner"] == 0 and result["score"] == [14, 2]


# ---- the typed API -----------------------------------------------------------------------------------------------
TRINIDAD = RuleSet.from_spec("trinidad")


def test_score_hand_returns_events_new_score_winner_and_next_dealer():
    result = score_hand(TRINIDAD, [13, 13], hand(dealer=3, kicks=["8H"]), dealer=3)
    assert result.winner == 0 and result.score == (14, 13) and result.next_dealer == 0
    assert result.events == (Event("high", 0, 1, result.events[0].card),)
    assert result.events[0].card.text == "AH"


def test_score_hand_refuses_the_wrong_dealer():
    with pytest.raises(InvalidHand) as info:
        score_hand(TRINIDAD, [0, 0], hand(dealer=1), dealer=2, path="hand")
    assert (info.value.code, info.value.path) == ("wrong_dealer", "hand.dealer")


@pytest.mark.parametrize(("score", "code", "path"), [([14, 0], "score_at_target", "score[0]"),
                                                     ([0], "bad_score", "score"), ([0, -1], "bad_score", "score[1]"),
                                                     ("0-0", "bad_score", "score"), ([0, True], "bad_score", "score[1]")])
def test_score_hand_checks_the_score(score, code, path):
    with pytest.raises(InvalidHand) as info:
        score_hand(TRINIDAD, score, hand())
    assert (info.value.code, info.value.path) == (code, path)


def test_evaluate_a_hand_built_in_code():
    the_hand = Hand(0, misdeal=True)
    assert evaluate(TRINIDAD, the_hand, (0, 0)).events == (Event("misdeal", 1, 1),)


def test_the_result_document_of_a_hand():
    result = score_hand(TRINIDAD, (0, 0), hand(kicks=["6H"], penalties=[{"kind": "revoke", "side": 1}]))
    assert result.to_dict() == {
        "trump": "H",
        "events": [
            {"kind": "kick", "side": 0, "points": 2, "card": "6H"},
            {"kind": "revoke", "side": 0, "points": 1, "offender": 1},
            {"kind": "high", "side": 0, "points": 1, "card": "AH"},
            {"kind": "low", "side": 1, "points": 1, "card": "2H"},
            {"kind": "jack", "side": 0, "points": 1},
            {"kind": "game", "side": 0, "points": 1},
        ],
        "score": [6, 1],
        "winner": None,
        "next_dealer": 1,
    }


def test_result_dicts_are_fresh_copies():
    result = score_hand(TRINIDAD, (0, 0), hand())
    first = result.to_dict()
    first["events"][0]["points"] = 99
    assert result.to_dict()["events"][0]["points"] == 1


def test_the_target_option_decides_when_the_game_is_won():
    assert scored(hand(), score=[8, 0], rules={"target": 11})["winner"] == 0
    assert scored(hand(), score=[8, 0], rules={"target": 12})["winner"] is None
    result = scored(hand(), score=[9, 0], rules="english")
    assert result["winner"] == 0 and events(result) == [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1)]


def test_follow_and_undertrump_options_change_nothing_in_a_tally():
    for rules in ({"follow": "trump_only"}, {"undertrump": "forbidden"}):
        assert events(scored(hand(), rules=rules)) == events(scored())
