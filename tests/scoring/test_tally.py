"""The tally form: every refusal of docs/hand-format.md ("The tally form is refused ... when"), each with its
code and the path of the first fault, and the record that ends when the game ends during the deal."""

from __future__ import annotations

import pytest

from scoring import InvalidHand, RuleSet, read_hand
from scoring.tally import read_header

from .helpers import DROP, doc, events, hand, refused, scored

TRINIDAD = RuleSet.from_spec("trinidad")


def test_the_base_hand_is_valid():
    assert events(scored()) == [("high", 0, 1), ("low", 1, 1), ("jack", 0, 1), ("game", 0, 1)]


# ---- shapes and types ----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [[], "hand", 3, None, True])
def test_a_hand_must_be_an_object(value):
    refused({"hand": value}, "wrong_type", "hand")


def test_a_misspelt_field_is_an_error_not_a_silently_dropped_penalty():
    refused(doc(hand(penalty=[{"kind": "revoke", "side": 1}])), "unknown_field", "hand.penalty")


def test_unknown_fields_are_reported_before_anything_else():
    refused(doc(hand(dealer="x", colour="red")), "unknown_field", "hand.colour")


def test_the_dealer_is_required():
    refused(doc(hand(dealer=DROP)), "missing_field", "hand.dealer")


@pytest.mark.parametrize("dealer", ["0", True, False, 0.0, None, [0]])
def test_the_dealer_must_be_a_whole_number(dealer):
    refused(doc(hand(dealer=dealer)), "wrong_type", "hand.dealer")


@pytest.mark.parametrize("dealer", [4, -1, 10**30])
def test_the_dealer_must_be_a_seat_of_four(dealer):
    refused(doc(hand(dealer=dealer)), "bad_seat", "hand.dealer")


def test_with_two_players_seat_two_does_not_exist():
    refused(doc(hand(dealer=2), rules={"preset": "english", "players": 2}), "bad_seat", "hand.dealer")


def test_a_misdeal_flag_is_true_or_absent():
    refused(doc({"dealer": 0, "misdeal": False}), "bad_misdeal", "hand.misdeal")


def test_a_misdeal_is_the_whole_hand():
    refused(doc({"dealer": 0, "misdeal": True, "kicks": ["AS"]}), "misdeal_extra_field", "hand.kicks")


def test_a_misdeal_with_cards_is_refused_not_read_as_play():
    refused(doc({"dealer": 0, "misdeal": True, "tricks": []}), "misdeal_extra_field", "hand.tricks")


def test_kicks_are_required():
    refused(doc(hand(kicks=DROP)), "missing_field", "hand.kicks")


@pytest.mark.parametrize("kicks", ["9H", {"0": "9H"}, None, 9])
def test_kicks_must_be_a_list(kicks):
    refused(doc(hand(kicks=kicks)), "wrong_type", "hand.kicks")


def test_every_deal_has_a_kick():
    refused(doc(hand(kicks=[])), "no_kicks", "hand.kicks")


@pytest.mark.parametrize("card", ["9X", "1H", "", 9, None, ["9H"], "9 H"])
def test_a_kick_that_does_not_parse(card):
    refused(doc(hand(kicks=[card])), "bad_card", "hand.kicks[0]")


def test_a_card_kicked_twice_in_one_deal():
    refused(doc(hand(kicks=["9C", "9C", "AH"], beg="run")), "kicked_twice", "hand.kicks[1]")


def test_the_same_card_kicked_twice_in_one_deal_in_another_spelling():
    refused(doc(hand(kicks=["10C", "tc", "AH"], beg="run")), "kicked_twice", "hand.kicks[1]")


@pytest.mark.parametrize("beg", ["beg", "Stand", "", 1, None, ["run"], True])
def test_beg_is_one_of_three_words(beg):
    refused(doc(hand(beg=beg)), "bad_beg", "hand.beg")


def test_a_played_hand_needs_beg():
    refused(doc(hand(beg=DROP)), "missing_beg", "hand.beg")


# ---- abandoned deals -------------------------------------------------------------------------------------
def test_an_abandoned_deal_is_three_kicks_of_one_suit_with_four_players():
    result = scored(hand(abandoned=[["6C", "AC", "5C"]], kicks=["9H"]))
    assert events(result)[:2] == [("kick", 0, 2), ("kick", 0, 1)]


def test_abandoned_must_be_a_list_of_lists():
    refused(doc(hand(abandoned="6C AC 5C")), "wrong_type", "hand.abandoned")
    refused(doc(hand(abandoned=["6C", "AC", "5C"])), "wrong_type", "hand.abandoned[0]")


def test_an_abandoned_deal_with_two_kicks_is_too_short():
    refused(doc(hand(abandoned=[["6C", "AC"]])), "abandoned_length", "hand.abandoned[0]")


def test_an_abandoned_deal_with_four_kicks_is_too_long():
    refused(doc(hand(abandoned=[["6C", "AC", "5C", "2C"]])), "abandoned_length", "hand.abandoned[0]")


def test_an_empty_abandoned_deal_is_too_short():
    refused(doc(hand(abandoned=[[]])), "abandoned_length", "hand.abandoned[0]")


def test_an_abandoned_deal_is_one_suit():
    refused(doc(hand(abandoned=[["6C", "AC", "5D"]])), "abandoned_suit", "hand.abandoned[0][2]")


def test_an_abandoned_deal_kicks_no_card_twice():
    refused(doc(hand(abandoned=[["6C", "6C", "5C"]])), "kicked_twice", "hand.abandoned[0][1]")


def test_an_abandoned_kick_that_does_not_parse():
    refused(doc(hand(abandoned=[["6C", "ZZ", "5C"]])), "bad_card", "hand.abandoned[0][1]")


def test_a_card_may_be_kicked_again_after_the_redeal():
    result = scored(hand(abandoned=[["9H", "4H", "5H"]], kicks=["9H"]))
    assert result["hands"][0]["trump"] == "H"


def test_with_three_players_an_abandoned_deal_has_four_kicks():
    rules = {"preset": "english", "players": 3}
    three = {"dealer": 0, "abandoned": [["2C", "3C", "4C", "5C"]], "kicks": ["9H"], "beg": "stand",
             "high": {"side": 0, "card": "AH"}, "low": {"side": 1, "card": "2H"}, "jack": None, "game": [10, 5, 3]}
    assert scored(three, rules=rules)["hands"][0]["trump"] == "H"
    three["abandoned"] = [["2C", "3C", "4C"]]
    refused(doc(three, rules=rules), "abandoned_length", "hand.abandoned[0]")


def test_with_two_players_an_abandoned_deal_has_six_kicks():
    rules = {"preset": "english", "players": 2}
    two = {"dealer": 0, "abandoned": [["2C", "3C", "4C", "5C", "6C", "7C"]], "kicks": ["9H"], "beg": "stand",
           "high": None, "low": None, "jack": None, "game": [0, 0]}
    assert scored(two, rules=rules)["hands"][0]["events"] == []


# ---- kicks against beg and the pack ---------------------------------------------------------------------
def test_stand_takes_exactly_one_kick():
    refused(doc(hand(kicks=["9H", "4C"])), "kicks_for_beg", "hand.kicks[1]")


def test_give_takes_exactly_one_kick():
    refused(doc(hand(kicks=["9H", "4C"], beg="give")), "kicks_for_beg", "hand.kicks[1]")


def test_a_run_turns_at_least_a_second_kick():
    refused(doc(hand(beg="run")), "kicks_for_beg", "hand.kicks")


def test_a_run_stops_at_the_first_kick_of_another_suit():
    refused(doc(hand(kicks=["9C", "4D", "AH"], beg="run")), "run_kick_suit", "hand.kicks[1]")


def test_a_runs_last_kick_has_another_suit():
    refused(doc(hand(kicks=["9C", "4C"], beg="run")), "run_last_same_suit", "hand.kicks[1]")


def test_the_pack_allows_two_runs_with_four_players():
    ok = hand(kicks=["9C", "4C", "8H"], beg="run")
    assert scored(ok)["hands"][0]["trump"] == "H"
    refused(doc(hand(kicks=["9C", "4C", "5C", "8H"], beg="run")), "too_many_kicks", "hand.kicks[3]")


def test_three_kicks_of_one_suit_are_an_abandoned_deal_not_a_run():
    refused(doc(hand(kicks=["9C", "4C", "5C"], beg="run")), "run_last_same_suit", "hand.kicks[2]")


# ---- the counted fields: shape -------------------------------------------------------------------------------
@pytest.mark.parametrize("field", ["high", "low", "jack", "game"])
def test_the_counted_fields_are_required_once_the_hand_is_played(field):
    refused(doc(hand(**{field: DROP})), "missing_field", f"hand.{field}")


@pytest.mark.parametrize("field", ["high", "low"])
def test_high_and_low_are_null_or_an_object(field):
    refused(doc(hand(**{field: "AH"})), "wrong_type", f"hand.{field}")
    refused(doc(hand(**{field: [0, "AH"]})), "wrong_type", f"hand.{field}")


def test_high_has_only_side_and_card():
    refused(doc(hand(high={"side": 0, "card": "AH", "seat": 0})), "unknown_field", "hand.high.seat")


def test_high_needs_its_side():
    refused(doc(hand(high={"card": "AH"})), "missing_field", "hand.high.side")


@pytest.mark.parametrize("side", ["0", True, 0.0, None])
def test_a_side_is_a_whole_number(side):
    refused(doc(hand(low={"side": side, "card": "2H"})), "wrong_type", "hand.low.side")


@pytest.mark.parametrize("side", [2, 3, -1])
def test_a_side_out_of_range(side):
    refused(doc(hand(low={"side": side, "card": "2H"})), "bad_side", "hand.low.side")


@pytest.mark.parametrize("card", ["2X", "", None, 2, ["2H"]])
def test_a_high_or_low_card_that_does_not_parse(card):
    refused(doc(hand(low={"side": 1, "card": card})), "bad_card", "hand.low.card")


def test_the_high_and_low_cards_are_optional():
    result = scored(hand(high={"side": 0}, low={"side": 1}))
    assert events(result)[:2] == [("high", 0, 1), ("low", 1, 1)]
    assert "card" not in result["hands"][0]["events"][0]


@pytest.mark.parametrize("jack", ["JH", [0, 0], 1])
def test_jack_is_null_or_an_object(jack):
    refused(doc(hand(jack=jack)), "wrong_type", "hand.jack")


def test_jack_has_only_held_by_and_won_by():
    refused(doc(hand(jack={"held_by": 0, "won_by": 0, "card": "JH"})), "unknown_field", "hand.jack.card")


def test_jack_needs_both_sides():
    refused(doc(hand(jack={"held_by": 0})), "missing_field", "hand.jack.won_by")
    refused(doc(hand(jack={"won_by": 0})), "missing_field", "hand.jack.held_by")


def test_jack_sides_in_range():
    refused(doc(hand(jack={"held_by": 0, "won_by": 2})), "bad_side", "hand.jack.won_by")


@pytest.mark.parametrize(
    ("game", "path"),
    [("21,16", "hand.game"), ([21], "hand.game"), ([21, 16, 0], "hand.game"), (None, "hand.game"),
     ([21, -1], "hand.game[1]"), ([21, "16"], "hand.game[1]"), ([21.0, 16], "hand.game[0]"),
     ([True, 16], "hand.game[0]")],
)
def test_game_is_one_whole_number_of_at_least_zero_per_side(game, path):
    refused(doc(hand(game=game)), "bad_game", path)


@pytest.mark.parametrize("penalties", ["revoke", {"kind": "revoke", "side": 1}, None])
def test_penalties_are_a_list(penalties):
    refused(doc(hand(penalties=penalties)), "wrong_type", "hand.penalties")


def test_a_penalty_is_an_object():
    refused(doc(hand(penalties=["revoke"])), "wrong_type", "hand.penalties[0]")


def test_a_penalty_has_only_kind_and_side():
    refused(doc(hand(penalties=[{"kind": "revoke", "side": 1, "card": "2C"}])), "unknown_field",
            "hand.penalties[0].card")


def test_a_penalty_needs_kind_and_side():
    refused(doc(hand(penalties=[{"side": 1}])), "missing_field", "hand.penalties[0].kind")
    refused(doc(hand(penalties=[{"kind": "revoke"}])), "missing_field", "hand.penalties[0].side")


@pytest.mark.parametrize("kind", ["renege", "Revoke", "", None, 1])
def test_a_penalty_of_an_unknown_kind(kind):
    refused(doc(hand(penalties=[{"kind": kind, "side": 1}])), "unknown_penalty", "hand.penalties[0].kind")


def test_a_penalty_side_out_of_range():
    refused(doc(hand(penalties=[{"kind": "revoke", "side": 2}])), "bad_side", "hand.penalties[0].side")


def test_an_empty_penalty_list_is_fine():
    assert events(scored(hand(penalties=[]))) == events(scored())


# ---- cross-checks: High and Low ------------------------------------------------------------------------------
def test_high_given_without_low():
    refused(doc(hand(low=None)), "high_without_low", "hand.low")


def test_low_given_without_high():
    refused(doc(hand(high=None)), "high_without_low", "hand.high")


def test_high_card_not_a_trump():
    error = refused(doc(hand(high={"side": 0, "card": "AS"})), "not_trump", "hand.high.card")
    assert "AS" in error.message


def test_low_card_not_a_trump():
    refused(doc(hand(low={"side": 1, "card": "2S"})), "not_trump", "hand.low.card")


def test_the_high_card_cannot_be_the_kick():
    refused(doc(hand(kicks=["AH"], high={"side": 0, "card": "AH"})), "card_was_kicked", "hand.high.card")


def test_the_low_card_cannot_be_the_kick():
    refused(doc(hand(kicks=["2H"])), "card_was_kicked", "hand.low.card")


def test_a_kick_of_the_run_cannot_be_high_either():
    refused(doc(hand(kicks=["AD", "9H"], beg="run", high={"side": 0, "card": "AD"})), "card_was_kicked",
            "hand.high.card")


def test_low_above_high_is_refused_with_the_cards_named():
    error = refused(doc(hand(high={"side": 0, "card": "8H"}, low={"side": 1, "card": "10H"}, jack=None)),
                    "low_above_high", "hand.low.card")
    assert error.message == "10H cannot be Low: it is above the High card 8H"


def test_one_trump_in_play_is_high_and_low_for_one_side():
    result = scored(hand(kicks=["4H"], high={"side": 1, "card": "9H"}, low={"side": 1, "card": "9H"}, jack=None))
    assert events(result)[:2] == [("high", 1, 1), ("low", 1, 1)]


def test_high_and_low_the_same_card_but_different_sides():
    refused(doc(hand(high={"side": 0, "card": "8H"}, low={"side": 1, "card": "8H"}, jack=None)),
            "high_low_sides_differ", "hand.low.side")


def test_under_low_captured_one_trump_may_be_high_for_one_side_and_low_for_another():
    result = scored(hand(high={"side": 0, "card": "8H"}, low={"side": 1, "card": "8H"}, jack=None),
                    rules={"low": "captured"})
    assert events(result)[:2] == [("high", 0, 1), ("low", 1, 1)]


# ---- cross-checks: the jack -------------------------------------------------------------------------------------
def test_no_trump_dealt_means_no_jack():
    refused(doc(hand(high=None, low=None)), "jack_without_trump", "hand.jack")


def test_no_trump_dealt_scores_only_game():
    assert events(scored(hand(high=None, low=None, jack=None))) == [("game", 0, 1)]


def test_a_kicked_jack_is_not_in_play():
    refused(doc(hand(kicks=["JH"])), "jack_kicked", "hand.jack")


def test_a_kicked_jack_with_jack_null_scores_the_kick_only():
    result = scored(hand(kicks=["JH"], jack=None))
    assert events(result) == [("kick", 0, 3), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]


def test_a_jack_kicked_in_the_run_before_trump_was_fixed_says_nothing_about_the_jack_of_trumps():
    result = scored(hand(kicks=["JC", "9H"], beg="run"))
    assert events(result)[:2] == [("kick", 0, 3), ("high", 0, 1)]


def test_the_high_card_is_the_jack_but_jack_is_null():
    refused(doc(hand(high={"side": 0, "card": "JH"}, jack=None)), "jack_missing", "hand.jack")


def test_the_high_card_is_the_jack_but_jack_names_another_holder():
    refused(doc(hand(high={"side": 0, "card": "JH"}, jack={"held_by": 1, "won_by": 1})), "jack_holder_mismatch",
            "hand.jack.held_by")


def test_the_low_card_is_the_jack_but_jack_is_null():
    refused(doc(hand(high={"side": 0, "card": "AH"}, low={"side": 1, "card": "JH"}, jack=None)),
            "jack_missing", "hand.jack")


def test_the_low_card_is_the_jack_but_jack_names_another_holder():
    refused(doc(hand(low={"side": 1, "card": "JH"}, jack={"held_by": 0, "won_by": 0})), "jack_holder_mismatch",
            "hand.jack.held_by")


def test_under_low_captured_the_jack_checks_for_low_do_not_apply():
    """docs/hand-format.md: the Low card is the jack but jack is null or names another holder is refused
    "for Low, only where low is dealt"; nothing else of the jack is checked against Low."""
    rules = {"low": "captured"}
    ok = hand(low={"side": 1, "card": "JH"}, jack={"held_by": 0, "won_by": 1})
    assert events(scored(ok, rules=rules))[:3] == [("high", 0, 1), ("low", 1, 1), ("hang_jack", 1, 3)]
    other_winner = hand(low={"side": 1, "card": "JH"}, jack={"held_by": 1, "won_by": 0})
    assert events(scored(other_winner, rules=rules))[:3] == [("high", 0, 1), ("low", 1, 1), ("hang_jack", 0, 3)]
    no_jack = hand(low={"side": 1, "card": "JH"}, jack=None)
    assert events(scored(no_jack, rules=rules)) == [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]


def test_a_jack_in_play_ranks_below_the_high_card():
    refused(doc(hand(high={"side": 0, "card": "10H"})), "high_below_jack", "hand.high.card")


def test_a_jack_in_play_ranks_above_the_low_card():
    refused(doc(hand(low={"side": 1, "card": "QH"})), "low_above_jack", "hand.low.card")


# ---- cross-checks: game -----------------------------------------------------------------------------------------
def test_the_lifts_hold_at_most_80_card_points():
    assert events(scored(hand(game=[40, 40])))[-1] == ("jack", 0, 1)  # a tie: no Game
    refused(doc(hand(game=[41, 40])), "game_points_too_many", "hand.game")


def test_a_kicked_ten_takes_ten_card_points_out_of_play():
    assert scored(hand(kicks=["10H"], game=[40, 30]))["winner"] is None
    refused(doc(hand(kicks=["10H"], game=[40, 31])), "game_points_too_many", "hand.game")


def test_kicks_of_the_run_are_out_of_play_too():
    refused(doc(hand(kicks=["10C", "AC", "9H"], beg="run", game=[40, 27])), "game_points_too_many", "hand.game")


def test_the_side_that_won_the_jack_has_card_points():
    refused(doc(hand(jack={"held_by": 1, "won_by": 1}, game=[21, 0])), "jack_winner_no_points", "hand.game[1]")


def test_under_low_captured_the_card_points_of_lows_side_are_not_checked():
    """Only the jack's winner is checked against its card points (docs/hand-format.md's list)."""
    one = hand(high={"side": 0, "card": "10H"}, low={"side": 1, "card": "10H"}, jack=None, game=[21, 9])
    assert events(scored(one, rules={"low": "captured"})) == [("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]


# ---- cross-checks: penalties --------------------------------------------------------------------------------------
def test_undertrump_is_no_penalty_where_undertrumping_is_allowed():
    refused(doc(hand(penalties=[{"kind": "undertrump", "side": 1}])), "undertrump_allowed", "hand.penalties[0].kind")


def test_a_trump_renege_is_not_cross_checked_against_the_trumps():
    """docs/hand-format.md refuses a penalty only for an unknown kind or an undertrump where allowed: a
    trump_revoke in a hand where no trump was dealt is scored as recorded."""
    result = scored(hand(high=None, low=None, jack=None, penalties=[{"kind": "trump_revoke", "side": 1}]))
    assert events(result) == [("trump_revoke", 0, 14)]


def test_a_plain_revoke_needs_no_trump():
    result = scored(hand(high=None, low=None, jack=None, penalties=[{"kind": "revoke", "side": 1}]))
    assert events(result) == [("revoke", 0, 1), ("game", 0, 1)]


def test_a_trump_revoke_below_a_ten_high_is_scored_as_recorded():
    result = scored(hand(high={"side": 0, "card": "8H"}, jack=None, penalties=[{"kind": "trump_revoke", "side": 1}]),
                    rules={"renege": "one_point"})
    assert events(result) == [("trump_revoke", 0, 1), ("high", 0, 1), ("low", 1, 1), ("game", 0, 1)]


# ---- the gift -------------------------------------------------------------------------------------------------------
def test_a_gift_that_would_win_where_the_rules_forbid_it():
    refused(doc(hand(dealer=1, beg="give"), rules="english", score=[10, 3]), "gift_would_win", "hand.beg")


def test_a_gift_that_does_not_win_is_fine_under_english_rules():
    assert events(scored(hand(dealer=1, beg="give"), rules="english", score=[9, 3]))[0] == ("gift", 0, 1)


# ---- the record ends when the game ends during the deal ------------------------------------------------------------
def test_a_winning_kick_ends_the_record():
    result = scored({"dealer": 2, "kicks": ["AH"]}, score=[13, 10])
    assert events(result) == [("kick", 0, 1)] and result["winner"] == 0
    assert result["hands"][0]["trump"] is None  # the game ended before the beggar's choice


def test_after_a_winning_kick_the_counted_fields_are_shape_checked_only():
    inconsistent = hand(dealer=2, kicks=["AH"], high={"side": 0, "card": "AS"}, game=[80, 80])
    assert events(scored(inconsistent, score=[13, 10])) == [("kick", 0, 1)]


def test_after_a_winning_kick_a_malformed_field_is_still_refused():
    refused(doc(hand(dealer=2, kicks=["AH"], high={"side": 0, "card": "XX"}), score=[13, 10]), "bad_card",
            "hand.high.card")
    refused(doc(hand(dealer=2, kicks=["AH"], game="lots"), score=[13, 10]), "bad_game", "hand.game")
    refused(doc(hand(dealer=2, kicks=["AH"], beg="maybe"), score=[13, 10]), "bad_beg", "hand.beg")
    refused(doc(hand(dealer=2, kicks=["AH"], extra=1), score=[13, 10]), "unknown_field", "hand.extra")


def test_nothing_may_follow_the_winning_kick():
    refused(doc({"dealer": 2, "kicks": ["AH", "6S"], "beg": "run"}, score=[13, 10]), "kick_after_win", "hand.kicks[1]")


def test_a_winning_run_kick_of_the_first_suit_ends_the_record():
    result = scored({"dealer": 0, "kicks": ["9D", "6D"], "beg": "run"}, score=[12, 13])
    assert events(result) == [("kick", 0, 2)] and result["winner"] == 0
    assert result["hands"][0]["trump"] is None


def test_a_winning_run_kick_of_another_suit_fixes_trump():
    result = scored({"dealer": 0, "kicks": ["9D", "6H"]}, score=[12, 13])
    assert result["hands"][0]["trump"] == "H"


def test_beg_may_be_left_out_after_a_winning_run_kick_but_if_given_must_fit():
    assert scored({"dealer": 0, "kicks": ["9D", "6D"]}, score=[12, 13])["winner"] == 0
    refused(doc({"dealer": 0, "kicks": ["9D", "6D"], "beg": "stand"}, score=[12, 13]), "kicks_for_beg", "hand.beg")


def test_the_kick_that_would_exhaust_the_pack_goes_in_kicks_when_it_wins():
    result = scored({"dealer": 0, "kicks": ["9D", "4D", "JD"], "beg": "run"}, score=[11, 0])
    assert events(result) == [("kick", 0, 3)] and result["score"] == [14, 0]


def test_kicks_before_the_winning_kick_follow_the_run_rules():
    refused(doc({"dealer": 0, "kicks": ["9D", "4H", "JD"], "beg": "run"}, score=[11, 0]), "run_kick_suit",
            "hand.kicks[1]")
    refused(doc({"dealer": 0, "kicks": ["9D", "4D", "5D", "JD"], "beg": "run"}, score=[11, 0]), "too_many_kicks",
            "hand.kicks[3]")


def test_a_winning_kick_belongs_in_kicks_not_in_an_abandoned_deal():
    refused(doc({"dealer": 0, "abandoned": [["9D", "JD", "4D"]], "kicks": ["5S"], "beg": "stand"}, score=[11, 0]),
            "kick_after_win", "hand.abandoned[0][1]")


def test_abandoned_kicks_count_toward_the_winning_kick():
    result = scored({"dealer": 0, "abandoned": [["9D", "AD", "4D"]], "kicks": ["AS"]}, score=[12, 0])
    assert events(result) == [("kick", 0, 1), ("kick", 0, 1)] and result["winner"] == 0


def test_a_winning_gift_ends_the_record():
    result = scored({"dealer": 1, "kicks": ["6D"], "beg": "give"}, score=[13, 9])
    assert events(result) == [("kick", 1, 2), ("gift", 0, 1)] and result["winner"] == 0
    assert result["hands"][0]["trump"] == "D"


def test_a_record_that_stops_early_although_the_game_went_on_is_refused():
    refused(doc({"dealer": 1, "kicks": ["6D"], "beg": "give"}, score=[12, 9]), "missing_field", "hand.high")


def test_where_only_the_fixing_kick_scores_beg_is_always_required():
    refused(doc({"dealer": 0, "kicks": ["JD"]}, rules="seven-up", score=[6, 0]), "missing_beg", "hand.beg")
    result = scored({"dealer": 0, "kicks": ["JD"], "beg": "stand"}, rules="seven-up", score=[6, 0])
    assert events(result) == [("kick", 0, 1)] and result["winner"] == 0


# ---- reading without scoring -----------------------------------------------------------------------------------------
def test_read_hand_is_a_dry_run_of_the_same_checks():
    the_hand = read_hand(TRINIDAD, hand(), "hand")
    assert the_hand.counted and the_hand.trump.value == "H" and the_hand.high.card.text == "AH"
    with pytest.raises(InvalidHand) as info:
        read_hand(TRINIDAD, hand(low={"side": 1, "card": "QH"}), "hands[3]")
    assert (info.value.code, info.value.path) == ("low_above_jack", "hands[3].low.card")


def test_read_hand_without_the_score_wants_a_complete_record():
    with pytest.raises(InvalidHand) as info:
        read_hand(TRINIDAD, {"dealer": 2, "kicks": ["AH"]}, "hand")
    assert info.value.code == "missing_beg"
    the_hand = read_hand(TRINIDAD, {"dealer": 2, "kicks": ["AH"]}, "hand", score=[13, 10])
    assert not the_hand.counted


def test_read_header_for_the_play_form():
    header = read_header({"dealer": 3, "kicks": ["9D", "6H"], "beg": "run", "deal": []}, TRINIDAD, "hand")
    assert header.dealer == 3 and header.trump.value == "H" and not header.ends_game and not header.misdeal
    assert read_header({"dealer": 3, "kicks": ["9D", "6H"], "beg": "run"}, TRINIDAD, "hand",
                       score=[13, 0]).ends_game is False
    assert read_header({"dealer": 0, "kicks": ["9D", "6H"], "beg": "run"}, TRINIDAD, "hand",
                       score=[12, 13]).ends_game is True
    with pytest.raises(InvalidHand) as info:
        read_header({"dealer": 1, "kicks": ["9D"]}, TRINIDAD, "hand", dealer=2)
    assert (info.value.code, info.value.path) == ("wrong_dealer", "hand.dealer")


def test_paths_name_the_hand_in_a_list():
    refused(doc(hands=[hand(), hand(dealer=1, low={"side": 1, "card": "2S"})]), "not_trump", "hands[1].low.card")


def test_output_cards_are_canonical():
    result = scored(hand(kicks=["6h"], high={"side": 0, "card": "a♥"}, low={"side": 1, "card": "Th"}, jack=None))
    kinds = {e["kind"]: e.get("card") for e in result["hands"][0]["events"]}
    assert kinds["kick"] == "6H" and kinds["high"] == "AH" and kinds["low"] == "10H"


def test_run_cards_changes_how_many_runs_the_pack_allows():
    rules = {"run_cards": 2}  # four players: R = (52 - 24 - 1) // (4 * 2 + 1) = 3
    assert scored(hand(abandoned=[["2C", "3C", "4C", "5C"]]), rules=rules)["winner"] is None
    assert scored(hand(kicks=["2C", "3C", "4C", "9H"], beg="run"), rules=rules)["hands"][0]["trump"] == "H"
    refused(doc(hand(abandoned=[["2C", "3C", "4C"]]), rules=rules), "abandoned_length", "hand.abandoned[0]")


def test_discard_to_does_not_change_the_tally_form():
    assert events(scored(hand(), rules={"discard_to": 6})) == events(scored())
