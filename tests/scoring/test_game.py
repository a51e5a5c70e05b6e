"""Game documents (docs/hand-format.md): rules, score, hand or hands, dealer rotation with misdeals and
abandoned deals, and the end of the game."""

from __future__ import annotations

import pytest

from scoring import GameResult, score_document, score_game

from .helpers import doc, hand, refused


def played(dealer: int, **changes):
    return hand(dealer=dealer, **changes)


def test_default_rules_are_trinidad_and_the_default_score_is_zero():
    result = score_game({"hand": hand()})
    assert result["score"] == [3, 1] and result["winner"] is None


def test_the_result_document_shape():
    result = score_game(doc(hands=[played(0), played(1)]))
    assert set(result) == {"score", "winner", "hands"}
    assert [set(h) for h in result["hands"]] == [{"trump", "events", "score", "winner", "next_dealer"}] * 2
    assert result["hands"][0]["score"] == [3, 1] and result["hands"][1]["score"] == [6, 2]
    assert result["score"] == [6, 2]


def test_score_document_is_the_typed_same_answer():
    document = doc(hands=[played(0), played(1)])
    typed = score_document(document)
    assert isinstance(typed, GameResult) and typed.to_dict() == score_game(document)


def test_the_deal_passes_to_the_right_each_hand():
    result = score_game(doc(hands=[played(2), played(3), played(0), played(1)]))
    assert [h["next_dealer"] for h in result["hands"]] == [3, 0, 1, 2]


def test_any_seat_may_deal_the_first_hand():
    assert score_game(doc(played(3)))["hands"][0]["next_dealer"] == 0


def test_a_hand_dealt_by_the_wrong_seat_is_refused():
    refused(doc(hands=[played(0), played(2)]), "wrong_dealer", "hands[1].dealer")


def test_after_a_misdeal_the_same_dealer_deals_again():
    result = score_game(doc(hands=[{"dealer": 1, "misdeal": True}, played(1), played(2)]))
    assert [h["next_dealer"] for h in result["hands"]] == [1, 2, 3]
    refused(doc(hands=[{"dealer": 1, "misdeal": True}, played(2)]), "wrong_dealer", "hands[1].dealer")


def test_after_a_misdeal_the_deal_passes_under_misdeal_passes_deal():
    result = score_game(doc(hands=[{"dealer": 1, "misdeal": True}, played(2)], rules="trinidad-tournament"))
    assert [h["next_dealer"] for h in result["hands"]] == [2, 3]
    refused(doc(hands=[{"dealer": 1, "misdeal": True}, played(1)], rules="trinidad-tournament"), "wrong_dealer",
            "hands[1].dealer")


def test_an_abandoned_deal_keeps_the_dealer_within_the_hand():
    result = score_game(doc(hands=[played(0, abandoned=[["3C", "4C", "5C"]]), played(1)]))
    assert [h["next_dealer"] for h in result["hands"]] == [1, 2]


def test_two_players_alternate_the_deal():
    two = {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": None, "low": None, "jack": None, "game": [0, 0]}
    result = score_game(doc(hands=[two, dict(two, dealer=1), two], rules={"preset": "english", "players": 2}))
    assert [h["next_dealer"] for h in result["hands"]] == [1, 0, 1]


def test_three_players_rotate_over_three_seats():
    three = {"dealer": 2, "kicks": ["9H"], "beg": "stand", "high": None, "low": None, "jack": None, "game": [0, 0, 0]}
    result = score_game(doc(hands=[three, dict(three, dealer=0)], rules={"preset": "english", "players": 3}))
    assert [h["next_dealer"] for h in result["hands"]] == [0, 1] and result["score"] == [0, 0, 0]


def test_the_game_ends_at_the_target_and_a_later_hand_is_an_error():
    result = score_game(doc(hands=[played(0)], score=[11, 0]))
    assert result["winner"] == 0 and result["hands"][0]["winner"] == 0 and result["score"] == [14, 1]
    refused(doc(hands=[played(0), played(1)], score=[11, 0]), "hand_after_win", "hands[1]")


def test_the_winning_hand_says_who_deals_first_in_the_next_game():
    result = score_game(doc(hands=[played(3)], score=[11, 0]))
    assert result["winner"] == 0 and result["hands"][0]["next_dealer"] == 0


def test_score_before_the_game():
    assert score_game(doc(hand(), score=[5, 6]))["score"] == [8, 7]


@pytest.mark.parametrize(
    ("score", "code", "path"),
    [([0, 0, 0], "bad_score", "score"), ([0], "bad_score", "score"), ("0-0", "bad_score", "score"),
     ({"0": 1}, "bad_score", "score"), (None, "bad_score", "score"), ([0, "1"], "bad_score", "score[1]"),
     ([0, -1], "bad_score", "score[1]"), ([1.0, 0], "bad_score", "score[0]"), ([False, 0], "bad_score", "score[0]"),
     ([14, 0], "score_at_target", "score[0]"), ([0, 20], "score_at_target", "score[1]")],
)
def test_the_score_is_one_whole_number_per_side_below_the_target(score, code, path):
    refused({"score": score, "hand": hand()}, code, path)


def test_the_score_below_a_custom_target():
    refused(doc(hand(), score=[11, 0], rules="english"), "score_at_target", "score[0]")


def test_three_sides_need_three_scores():
    three = {"dealer": 0, "misdeal": True}
    assert score_game(doc(three, rules={"preset": "english", "players": 3}))["score"] == [0, 1, 1]
    refused(doc(three, rules={"preset": "english", "players": 3}, score=[0, 0]), "bad_score", "score")


@pytest.mark.parametrize("value", [[], "doc", 1, None])
def test_a_document_is_an_object(value):
    refused(value, "wrong_type", "")


def test_an_unknown_document_field_is_an_error():
    refused({"hand": hand(), "player": "x"}, "unknown_field", "player")


def test_hand_and_hands_never_both():
    refused({"hand": hand(), "hands": [hand()]}, "hand_and_hands", "hands")


def test_a_document_needs_a_hand():
    refused({"rules": "trinidad"}, "no_hands", "")


def test_hands_is_a_non_empty_list():
    refused({"hands": []}, "no_hands", "hands")
    refused({"hands": hand()}, "wrong_type", "hands")


def test_a_rule_error_has_the_rules_path():
    refused(doc(hand(), rules={"preset": "trinidad", "game_point": 2}), "unknown_option", "rules.game_point")


def test_nothing_is_half_scored():
    refused(doc(hands=[played(0), played(1, game=[80, 1])]), "game_points_too_many", "hands[1].game")


def test_a_document_is_not_changed_by_scoring():
    import copy

    document = doc(hands=[played(0), played(1, kicks=["6h"])])
    before = copy.deepcopy(document)
    score_game(document)
    assert document == before
