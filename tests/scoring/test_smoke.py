"""Cards parse to one canonical form."""
from scoring import Card


def test_ten_of_hearts_has_one_canonical_form():
    assert Card.parse("T♥") is Card.parse("th") is Card.parse("10H")
    assert str(Card.parse("th")) == "10H"
