"""The play form: card-by-card records read into the facts a scorer tallies (docs/hand-format.md)."""

import copy

import pytest

from scoring import Card, InvalidHand, RuleSet, score_game
from scoring.model import Award, JackOutcome, Penalty
from scoring.play import read_play_hand, to_tally

TRINIDAD = RuleSet.from_spec("trinidad")
ENGLISH_2 = RuleSet.from_spec({"preset": "english", "players": 2})


def c(text: str) -> Card:
    return Card.parse(text)


# Dealer 3, so seat 0 begs and leads; 9H kicked, stand: hearts are trump.
# Trumps in play: AH 3H (seat 0), 2H JH (seat 1), 4H (seat 2), QH (seat 3).
HAND_A = {
    "dealer": 3, "kicks": ["9H"], "beg": "stand",
    "deal": [
        ["AH", "3H", "KC", "2D", "7S", "QS"],
        ["2H", "10C", "4D", "8S", "5C", "JH"],
        ["4H", "KD", "3C", "6S", "9D", "10S"],
        ["QH", "5D", "6C", "7D", "KS", "2S"],
    ],
    "tricks": [
        ["AH", "2H", "4H", "QH"],   # seat 0 leads, wins with the ace
        ["KC", "10C", "3C", "6C"],  # seat 0 wins
        ["3H", "JH", "KD", "5D"],   # seat 1 wins with the jack of trumps
        ["4D", "9D", "7D", "2D"],   # seat 1 leads; seat 2 wins
        ["6S", "KS", "QS", "8S"],   # seat 2 leads; seat 3 wins
        ["2S", "7S", "5C", "10S"],  # seat 3 leads; seat 2 wins
    ],
}


def hand_a(**changes):
    hand = copy.deepcopy(HAND_A)
    hand.update(changes)
    return hand


def read(raw, rules=TRINIDAD, **kw):
    return read_play_hand(raw, rules, "hand", **kw)


def refusal(raw, rules=TRINIDAD, **kw) -> InvalidHand:
    with pytest.raises(InvalidHand) as caught:
        read(raw, rules, **kw)
    return caught.value


# ---- what a played hand yields -------------------------------------------------------------------
def test_high_low_jack_and_game_come_from_the_cards():
    hand = read(HAND_A)
    assert hand.counted and hand.trump is c("9H").suit
    assert hand.high == Award(0, c("AH"))
    assert hand.low == Award(1, c("2H"))
    assert hand.jack == JackOutcome(held_by=1, won_by=1)
    assert hand.game == (29, 9)
    assert hand.penalties == ()


def test_each_trick_is_led_by_the_winner_of_the_one_before():
    # trick 3 is won by seat 1 (JH), so trick 4 starts with seat 1's 4D; a record that has seat 0
    # lead it is refused
    tricks = copy.deepcopy(HAND_A["tricks"])
    tricks[3] = ["2D", "4D", "9D", "7D"]
    error = refusal(hand_a(tricks=tricks))
    assert (error.code, error.path) == ("wrong_leader", "hand.tricks[3][0]")
    assert "winner of trick 3" in error.message


def test_the_beggar_leads_the_first_trick():
    tricks = copy.deepcopy(HAND_A["tricks"])
    tricks[0] = ["2H", "4H", "QH", "AH"]
    error = refusal(hand_a(tricks=tricks))
    assert (error.code, error.path) == ("wrong_leader", "hand.tricks[0][0]")
    assert "the beggar" in error.message


def test_low_is_the_dealt_sides_even_when_captured():
    assert read(HAND_A).low == Award(1, c("2H"))  # 2H fell in seat 0's trick


def test_low_captured_goes_to_the_side_that_won_its_trick():
    rules = RuleSet.from_spec({"low": "captured"})
    assert read(HAND_A, rules).low == Award(0, c("2H"))


def test_hang_jack_when_the_opponents_win_the_trick_holding_the_jack():
    tricks = [
        ["AH", "JH", "4H", "QH"],   # seat 1 drops the jack under the ace
        ["KC", "10C", "3C", "6C"],
        ["3H", "2H", "KD", "5D"],
        ["2D", "4D", "9D", "7D"],
        ["6S", "KS", "QS", "8S"],
        ["2S", "7S", "5C", "10S"],
    ]
    hand = read(hand_a(tricks=tricks))
    assert hand.jack == JackOutcome(held_by=1, won_by=0)
    assert hand.game == (33, 5)


def test_a_revoke_is_scored_not_refused():
    tricks = copy.deepcopy(HAND_A["tricks"])
    tricks[4] = ["6S", "KS", "QS", "5C"]   # seat 1 still holds 8S
    tricks[5] = ["2S", "7S", "8S", "10S"]
    hand = read(hand_a(tricks=tricks))
    assert hand.penalties == (Penalty("revoke", 1),)


def test_trump_revoke_when_a_top_five_trump_is_withheld_on_a_trump_lead():
    tricks = [
        ["AH", "2H", "4H", "QH"],
        ["KC", "10C", "3C", "6C"],
        ["3H", "4D", "KD", "5D"],   # seat 1 holds JH and plays a diamond
        ["2D", "JH", "9D", "7D"],   # seat 0 still leads: its 3H won trick 3
        ["8S", "6S", "KS", "QS"],
        ["2S", "7S", "5C", "10S"],
    ]
    hand = read(hand_a(tricks=tricks))
    assert hand.penalties == (Penalty("trump_revoke", 1),)
    assert hand.jack == JackOutcome(held_by=1, won_by=1)


def test_penalties_come_in_the_order_the_cards_were_played():
    rules = RuleSet.from_spec({"undertrump": "forbidden"})
    raw = {
        "dealer": 3, "kicks": ["9H"], "beg": "stand",
        "deal": [
            ["KC", "3H", "AS", "5D", "4S", "JD"],
            ["5C", "JH", "8S", "10C", "3D", "7C"],
            ["3C", "4H", "10S", "6S", "QD", "9C"],
            ["6C", "QH", "KS", "2D", "9S", "8C"],
        ],
        "tricks": [
            ["KC", "5C", "3C", "6C"],   # seat 0 wins
            ["4S", "3D", "10S", "KS"],  # seat 1 holds 8S but plays 3D: revoke by side 1; seat 3 wins
            ["2D", "5D", "10C", "QD"],  # seat 2 wins
            ["9C", "8C", "3H", "7C"],   # seat 0 trumps and wins
            ["JD", "JH", "4H", "QH"],   # seat 2 undertrumps JH holding 6S: undertrump by side 0
            ["9S", "AS", "8S", "6S"],
        ],
    }
    assert read(raw, rules).penalties == (Penalty("revoke", 1), Penalty("undertrump", 0))
    assert read(raw, TRINIDAD).penalties == (Penalty("revoke", 1),)  # undertrumping allowed


# ---- discards -------------------------------------------------------------------------------------
# Two-player English rules: dealer 0, seat 1 begs, the pack is run once (9H then 10D: diamonds are
# trump), and each seat lays away three cards to keep six.
HAND_D = {
    "dealer": 0, "kicks": ["9H", "10D"], "beg": "run",
    "deal": [["AS", "KS", "2H", "3D", "4C", "5C"], ["QS", "JS", "3H", "4D", "6C", "7C"]],
    "runs": [[["8D", "9D", "2D"], ["5D", "6D", "JD"]]],
    "discards": [["2D", "4C", "5C"], ["3H", "6C", "7C"]],
    "tricks": [
        ["JD", "3D"],  # seat 1 (the beggar) leads the jack of trumps
        ["QS", "AS"],
        ["KS", "JS"],
        ["2H", "4D"],  # no heart: seat 1 trumps
        ["5D", "8D"],
        ["9D", "6D"],
    ],
}


def hand_d(**changes):
    hand = copy.deepcopy(HAND_D)
    hand.update(changes)
    return hand


def test_discarded_cards_are_out_of_play():
    hand = read(HAND_D, ENGLISH_2)
    assert hand.high == Award(1, c("JD"))
    assert hand.low == Award(0, c("3D"))  # 2D was laid away: never Low
    assert hand.jack == JackOutcome(1, 1)
    assert hand.game == (10, 1)


def test_a_seat_lays_away_exactly_down_to_discard_to():
    error = refusal(hand_d(discards=[["2D", "4C"], ["3H", "6C", "7C"]]), ENGLISH_2)
    assert (error.code, error.path) == ("wrong_discard_count", "hand.discards[0]")


def test_discards_are_required_after_a_run_where_discard_to_is_set():
    raw = hand_d()
    del raw["discards"]
    error = refusal(raw, ENGLISH_2)
    assert (error.code, error.path) == ("wrong_discard_count", "hand.discards")


def test_discards_without_a_run_are_refused():
    raw = {
        "dealer": 0, "kicks": ["9H"], "beg": "stand",
        "deal": HAND_D["deal"], "discards": [["2D"], ["3H"]],
        "tricks": [["QS", "AS"]] * 6,
    }
    error = refusal(raw, ENGLISH_2)
    assert (error.code, error.path) == ("unexpected_discards", "hand.discards")


def test_discards_where_the_rules_keep_every_card_are_refused():
    raw = hand_a(discards=[["AH"], [], [], []])
    assert refusal(raw).code == "unexpected_discards"


def test_empty_discards_are_the_same_as_none():
    assert read(hand_a(discards=[]), TRINIDAD) == read(HAND_A)


def test_a_laid_away_card_cannot_be_played():
    tricks = copy.deepcopy(HAND_D["tricks"])
    tricks[0] = ["JD", "2D"]
    error = refusal(hand_d(tricks=tricks), ENGLISH_2)
    assert (error.code, error.path) == ("card_not_held", "hand.tricks[0][1]")
    assert "laid away" in error.message


# ---- one test per refusal -------------------------------------------------------------------------
def test_unknown_field():
    error = refusal(hand_a(penalty=[]))
    assert (error.code, error.path) == ("unknown_field", "hand.penalty")


def test_missing_field():
    raw = hand_a()
    del raw["tricks"]
    assert (refusal(raw).code, refusal(raw).path) == ("missing_field", "hand.tricks")


def test_wrong_type():
    error = refusal(hand_a(deal="AH 3H"))
    assert (error.code, error.path) == ("wrong_type", "hand.deal")


def test_bad_card():
    raw = hand_a()
    raw["tricks"][2][1] = "1H"
    error = refusal(raw)
    assert (error.code, error.path) == ("bad_card", "hand.tricks[2][1]")
    assert "'1H' is not a card" in error.message


def test_bad_card_in_the_deal():
    raw = hand_a()
    raw["deal"][1][3] = "ZZ"
    assert (refusal(raw).code, refusal(raw).path) == ("bad_card", "hand.deal[1][3]")


def test_duplicate_card_in_the_deal():
    raw = hand_a()
    raw["deal"][2][5] = "KC"
    error = refusal(raw)
    assert (error.code, error.path) == ("duplicate_card", "hand.deal[2][5]")
    assert "seat 0" in error.message


def test_duplicate_card_a_kick_dealt():
    raw = hand_a()
    raw["deal"][3][0] = "9h"
    error = refusal(raw)
    assert (error.code, error.path) == ("duplicate_card", "hand.deal[3][0]")
    assert "kick" in error.message


def test_duplicate_card_in_a_run():
    raw = hand_d()
    raw["runs"][0][1][2] = "AS"
    assert (refusal(raw, ENGLISH_2).code, refusal(raw, ENGLISH_2).path) == ("duplicate_card", "hand.runs[0][1][2]")


def test_abandoned_deals_are_another_pack():
    raw = hand_a(abandoned=[["KH", "8H", "2H"]])  # 2H is dealt again after the redeal: fine
    assert read(raw).low == Award(1, c("2H"))


def test_wrong_seat_count():
    raw = hand_a()
    raw["deal"].pop()
    assert (refusal(raw).code, refusal(raw).path) == ("wrong_seat_count", "hand.deal")


def test_wrong_card_count():
    raw = hand_a()
    raw["deal"][1].append("9C")
    error = refusal(raw)
    assert (error.code, error.path) == ("wrong_card_count", "hand.deal[1]")


def test_wrong_run_count():
    raw = hand_d()
    raw["runs"].append(raw["runs"][0])
    error = refusal(raw, ENGLISH_2)
    assert (error.code, error.path) == ("wrong_run_count", "hand.runs")


def test_runs_after_stand_are_refused():
    raw = hand_a(runs=[[["2C", "3S", "4S"]] * 4])
    assert refusal(raw).code == "wrong_run_count"


def test_discard_not_held():
    raw = hand_d()
    raw["discards"][0][0] = "JD"
    error = refusal(raw, ENGLISH_2)
    assert (error.code, error.path) == ("discard_not_held", "hand.discards[0][0]")
    assert "seat 1" in error.message


def test_wrong_trick_count():
    raw = hand_a()
    raw["tricks"].pop()
    error = refusal(raw)
    assert (error.code, error.path) == ("wrong_trick_count", "hand.tricks")


def test_wrong_trick_size():
    raw = hand_a()
    raw["tricks"][1].pop()
    assert (refusal(raw).code, refusal(raw).path) == ("wrong_trick_size", "hand.tricks[1]")


def test_card_not_held():
    raw = hand_a()
    raw["tricks"][1][2] = "AC"  # never dealt
    error = refusal(raw)
    assert (error.code, error.path) == ("card_not_held", "hand.tricks[1][2]")
    assert "not dealt" in error.message


def test_card_of_another_seat():
    raw = hand_a()
    raw["tricks"][1][2] = "5C"
    error = refusal(raw)
    assert (error.code, error.message) == ("card_not_held", "Seat 2 cannot play 5C in trick 2: it was dealt to seat 1")


def test_card_already_played():
    raw = hand_a()
    raw["tricks"][1][0] = "AH"
    error = refusal(raw)
    assert (error.code, error.path) == ("card_already_played", "hand.tricks[1][0]")


def test_a_kick_cannot_be_played():
    raw = hand_a()
    raw["tricks"][1][3] = "9H"
    assert refusal(raw).code == "card_not_held"


def test_header_faults_come_from_the_shared_header_reader():
    raw = hand_a(beg="take")
    assert refusal(raw).code == "bad_beg"


# ---- the game ended during the deal ---------------------------------------------------------------
def test_cards_after_a_winning_kick_are_checked_for_shape_only():
    raw = hand_a(kicks=["JH"])  # the jack kicked at 12 wins for the dealer's side (side 1)
    raw["deal"][1][5] = "JH"    # the jack "dealt" too: not cross-checked once the game is over
    hand = read(raw, score=(0, 12))
    assert not hand.counted
    raw["tricks"][0][0] = "ZZ"
    assert refusal(raw, score=(0, 12)).code == "bad_card"


# ---- the tally form of a played hand ---------------------------------------------------------------
def test_to_tally_writes_the_counted_fields_in_canonical_form():
    raw = hand_a()
    raw["deal"][0][0] = "a♥"
    raw["tricks"][0][0] = "ah"
    assert to_tally(raw, "trinidad") == {
        "dealer": 3, "kicks": ["9H"], "beg": "stand",
        "high": {"side": 0, "card": "AH"}, "low": {"side": 1, "card": "2H"},
        "jack": {"held_by": 1, "won_by": 1}, "game": [29, 9],
    }


def test_to_tally_lists_penalties_in_order():
    tricks = copy.deepcopy(HAND_A["tricks"])
    tricks[4] = ["6S", "KS", "QS", "5C"]
    tricks[5] = ["2S", "7S", "8S", "10S"]
    assert to_tally(hand_a(tricks=tricks), TRINIDAD)["penalties"] == [{"kind": "revoke", "side": 1}]


def test_no_trump_in_play_means_no_high_low_or_jack():
    # two players, clubs are trump and no club was dealt; seat 0 leads and wins every trick
    raw = {
        "dealer": 1, "kicks": ["2C"], "beg": "stand",
        "deal": [["AS", "KS", "QS", "JS", "10S", "9S"], ["AH", "KH", "QH", "JH", "10H", "9H"]],
        "tricks": [["AS", "AH"], ["KS", "KH"], ["QS", "QH"], ["JS", "JH"], ["10S", "10H"], ["9S", "9H"]],
    }
    tally = to_tally(raw, ENGLISH_2)
    assert (tally["high"], tally["low"], tally["jack"], tally["game"]) == (None, None, None, [40, 0])


@pytest.mark.parametrize("form", ["play", "tally"])
def test_both_forms_score_the_same_events(form):
    raw = hand_a()
    doc = {"rules": "trinidad", "score": [3, 4], "hand": raw if form == "play" else to_tally(raw, TRINIDAD)}
    result = score_game(doc)
    assert [(e["kind"], e["side"], e["points"]) for e in result["hands"][0]["events"]] == [
        ("high", 0, 1), ("low", 1, 1), ("jack", 1, 1), ("game", 0, 1)
    ]


def test_null_is_not_an_absent_list():
    assert refusal(hand_a(runs=None)).code == "wrong_type"
    assert refusal(hand_a(tricks=None)).code == "wrong_type"
