"""Issue 16: "Renege by a" (a lower-case side label) in the console's reading of a hand.

A side is always A or B (capital letters), wherever a reading is written: the console's board page
and the public scorecard read a hand through ``web.chalk.reading``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_board, make_organiser, submit
from web.chalk import PENALTY_WORDS, Cell, reading

pytestmark = pytest.mark.django_db

#: Dealt by seat 0 at 0-0: B reneged (A gets the renege's point).
RENEGE_BY_B = {
    "dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "AH"}, "low": {"side": 1, "card": "2H"},
    "jack": {"held_by": 1, "won_by": 0}, "game": [40, 20], "penalties": [{"kind": "revoke", "side": 1}],
}


def test_renege_by_a_reads_with_a_capital_side_letter_in_the_console():
    board = make_board()
    submit(board, RENEGE_BY_B)
    client = Client()
    client.force_login(make_organiser(board.round.tournament))
    body = client.get(reverse("web:console_board", args=[board.round.tournament.slug, board.pk])).content.decode()
    assert "Renege by B +" in body
    assert "Renege by b" not in body and "renege by b" not in body
    public = Client().get(reverse("web:board", args=[board.round.tournament.slug, board.pk])).content.decode()
    assert "by b " not in public and "by a " not in public


@pytest.mark.parametrize("kind", sorted(PENALTY_WORDS))
@pytest.mark.parametrize("letter", ["A", "B"])
def test_renege_by_a_every_penalty_keeps_its_side_letter(kind, letter):
    from web.chalk import ChalkLine

    text = f"{PENALTY_WORDS[kind]} by {letter}"
    line = ChalkLine(number=1, dealer=0, dealer_name="", kicks=[], beg="", gift=None, misdeal=None,
                     penalties=[Cell(text, 1 - "AB".index(letter), 1)], high=Cell(), low=Cell(), jack=Cell(),
                     game=Cell(), game_counts=None, points=(0, 0), score=(0, 0), winner=None, version=1)
    assert f" by {letter} +1" in reading(line)
    assert reading(line)[0].isupper()
