"""Cards: one canonical text per card, every accepted spelling, card points (docs/rules.md section 5)."""

from __future__ import annotations

import pickle

import pytest

from scoring import DECK, Card, Rank, Suit
from scoring.cards import CARD_TEXT, PACK_POINTS


def test_the_pack_has_52_distinct_cards():
    assert len(DECK) == 52
    assert len({c.text for c in DECK}) == 52


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10h", "T♥", "t♥", "10♥"])
def test_ten_of_hearts_spellings_are_one_card(text):
    assert Card.parse(text) is Card.parse("10H")
    assert str(Card.parse(text)) == "10H"


@pytest.mark.parametrize("text", ["AS", "as", "A♠", "a♠"])
def test_ace_of_spades_spellings(text):
    assert Card.parse(text).text == "AS"


@pytest.mark.parametrize("text", ["", "1H", "11H", "AX", "A", "H", "10", " AS", "AS ", "AAS", "ace of spades", "0H"])
def test_what_is_not_a_card_is_a_value_error(text):
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 10, ["AS"], {"AS": 1}])
def test_a_non_string_is_not_a_card(value):
    with pytest.raises(ValueError):
        Card.parse(value)


def test_every_card_round_trips_through_its_text_and_repr():
    for card in DECK:
        assert Card.parse(card.text) is card
        assert eval(repr(card), {"Card": Card}) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_card_points_ten_ace_king_queen_jack():
    points = {r: Rank(r).card_points for r in Rank}
    assert points[Rank.TEN] == 10
    assert points[Rank.ACE] == 4
    assert points[Rank.KING] == 3
    assert points[Rank.QUEEN] == 2
    assert points[Rank.JACK] == 1
    assert all(points[r] == 0 for r in Rank if r <= Rank.NINE)


def test_the_whole_pack_holds_80_card_points():
    assert PACK_POINTS == 80


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        Card.parse("AS").rank = Rank.TWO  # type: ignore[misc]


def test_card_constructor_returns_the_singleton():
    assert Card(Rank.JACK, Suit.CLUBS) is Card.parse("JC")


def test_ranks_order_ace_high_two_low():
    assert Card.parse("AS").rank > Card.parse("KS").rank > Card.parse("10S").rank > Card.parse("2S").rank


def test_every_accepted_spelling_is_in_the_lookup_table():
    # 13 ranks (10 also as T/t, letters in both cases) x 4 suits (letter, lower case, symbol)
    assert all(isinstance(k, str) for k in CARD_TEXT)
    assert len(CARD_TEXT) == (13 + 4 + 2) * 12
