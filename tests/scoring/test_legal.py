"""The rules of play (docs/rules.md section 4): legal cards, the renege classifier and trick winners."""

import dataclasses

import pytest

from scoring import Card, RuleSet, Suit
from scoring.legal import legal_cards, renege_of, trick_winner

TRINIDAD = RuleSet.from_spec("trinidad")
NO_UNDERTRUMP = RuleSet.from_spec({"undertrump": "forbidden"})
TRUMP_ONLY = RuleSet.from_spec({"follow": "trump_only"})
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def legal(rules: RuleSet, trump: Suit, holding: str, trick: str) -> set[str]:
    return {c.text for c in legal_cards(rules, trump, cards(holding), cards(trick))}


# ---- legal_cards ----------------------------------------------------------------------------------
def test_the_leader_may_lead_any_card():
    assert legal(TRINIDAD, S, "2S AH 3C", "") == {"2S", "AH", "3C"}


def test_legal_cards_keep_the_order_of_the_holding():
    holding = cards("9D 2S AH 4D")
    assert legal_cards(TRINIDAD, S, holding, cards("KD")) == tuple(cards("9D 2S 4D"))


def test_trump_led_must_play_a_trump_if_able():
    assert legal(TRINIDAD, S, "2S AH KS 3C", "9S") == {"2S", "KS"}


def test_trump_led_without_a_trump_any_card():
    assert legal(TRINIDAD, S, "AH 3C", "9S") == {"AH", "3C"}


def test_plain_suit_led_follow_suit_or_trump():
    assert legal(TRINIDAD, S, "2H AH 3S 3C", "9H") == {"2H", "AH", "3S"}


def test_plain_suit_led_without_the_suit_any_card_no_duty_to_trump():
    assert legal(TRINIDAD, S, "3S 3C KD", "9H") == {"3S", "3C", "KD"}


def test_no_duty_to_beat_the_trick():
    assert legal(TRINIDAD, S, "2H 3H", "9H KH") == {"2H", "3H"}


def test_undertrump_allowed_by_default():
    assert legal(TRINIDAD, S, "2S 3C", "9H QS") == {"2S", "3C"}


def test_undertrump_forbidden_while_holding_a_non_trump():
    assert legal(NO_UNDERTRUMP, S, "2S AS 3C", "9H QS") == {"AS", "3C"}


def test_undertrump_forbidden_still_lets_a_player_follow_suit():
    assert legal(NO_UNDERTRUMP, S, "2S 4H", "9H QS") == {"4H"}


def test_undertrump_allowed_when_down_to_trumps():
    assert legal(NO_UNDERTRUMP, S, "2S 3S", "9H QS") == {"2S", "3S"}


def test_undertrump_rule_does_not_apply_to_a_trump_lead():
    assert legal(NO_UNDERTRUMP, S, "2S 3C", "QS") == {"2S"}


def test_trump_only_any_card_on_a_plain_lead():
    assert legal(TRUMP_ONLY, S, "2H 3C 4S", "9H") == {"2H", "3C", "4S"}


def test_trump_only_still_must_trump_a_trump_lead():
    assert legal(TRUMP_ONLY, S, "2H 3C 4S", "9S") == {"4S"}


def test_an_empty_holding_has_no_legal_card():
    assert legal_cards(TRINIDAD, S, [], cards("9S")) == ()


# ---- renege_of --------------------------------------------------------------------------------------
@pytest.mark.parametrize("rank", ["A", "K", "Q", "J", "10"])
def test_trump_revoke_when_withholding_a_top_five_trump_on_a_trump_lead(rank):
    holding = cards(f"{rank}S 3C")
    assert renege_of(TRINIDAD, S, holding, cards("2S"), Card.parse("3C")) == "trump_revoke"


def test_revoke_when_withholding_only_a_small_trump_on_a_trump_lead():
    holding = cards("9S 3C")
    assert renege_of(TRINIDAD, S, holding, cards("2S"), Card.parse("3C")) == "revoke"


def test_trump_revoke_counts_any_top_five_trump_in_hand_not_just_the_card_withheld():
    holding = cards("2S KS 3C")
    assert renege_of(TRINIDAD, S, holding, cards("4S"), Card.parse("3C")) == "trump_revoke"


def test_revoke_when_not_following_a_plain_suit_and_not_trumping():
    holding = cards("4H 3C")
    assert renege_of(TRINIDAD, S, holding, cards("9H"), Card.parse("3C")) == "revoke"


def test_trumping_a_plain_lead_is_never_a_revoke():
    holding = cards("4H 3S")
    assert renege_of(TRINIDAD, S, holding, cards("9H"), Card.parse("3S")) is None


def test_illegal_undertrump_is_undertrump():
    holding = cards("2S 3C")
    assert renege_of(NO_UNDERTRUMP, S, holding, cards("9H QS"), Card.parse("2S")) == "undertrump"


def test_overtrumping_is_legal_where_undertrump_is_forbidden():
    holding = cards("KS 3C")
    assert renege_of(NO_UNDERTRUMP, S, holding, cards("9H QS"), Card.parse("KS")) is None


def test_trump_only_has_no_revoke_on_a_plain_lead():
    holding = cards("4H 3C")
    assert renege_of(TRUMP_ONLY, S, holding, cards("9H"), Card.parse("3C")) is None


@pytest.mark.parametrize("renege", ["one_point", "lose_game"])
def test_renege_option_does_not_change_the_offence_named(renege):
    rules = dataclasses.replace(TRINIDAD, renege=renege)
    assert renege_of(rules, S, cards("AS 3C"), cards("2S"), Card.parse("3C")) == "trump_revoke"
    assert renege_of(rules, S, cards("4S 3C"), cards("2S"), Card.parse("3C")) == "revoke"


def test_legal_cards_are_exactly_the_cards_with_no_offence():
    holding = cards("2S KS 4H 3C 10D")
    for trick in ("", "9H", "9S", "9H QS", "9D 2C"):
        ok = legal_cards(NO_UNDERTRUMP, S, holding, cards(trick))
        for card in holding:
            assert (card in ok) == (renege_of(NO_UNDERTRUMP, S, holding, cards(trick), card) is None)


# ---- trick_winner ------------------------------------------------------------------------------------
def test_highest_card_of_the_suit_led_wins_without_trumps():
    assert trick_winner(S, cards("9H KH AD 2H")) == 1


def test_a_card_off_suit_never_wins_without_trumps():
    assert trick_winner(S, cards("2H AD AC 3H")) == 3


def test_any_trump_beats_the_suit_led():
    assert trick_winner(S, cards("AH 2S KH QH")) == 1


def test_highest_trump_wins_an_undertrumped_trick():
    assert trick_winner(S, cards("AH 9S 2S 3H")) == 1


def test_the_leader_wins_a_trump_lead_nobody_beats():
    assert trick_winner(D, cards("AD 2D 3H 4D")) == 0
