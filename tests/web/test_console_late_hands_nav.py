"""The console's tabs lead to the inbox of late hands, with how many wait when any do (issue 16)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_board, make_device, make_organiser
from tournaments.models import LateHand
from tournaments.services.late_hands import late_hand_handle

pytestmark = pytest.mark.django_db


def tab(body: str) -> str:
    found = re.search(r'<a href="[^"]*/late-hands/"[^>]*>(.*?)</a>', body, re.S)
    assert found, "no Late hands tab"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_the_console_tabs_link_the_late_hands_inbox_with_a_count_when_some_wait():
    board = make_board()
    tournament = board.round.tournament
    user = make_organiser(tournament)
    client = Client()
    client.force_login(user)
    home = reverse("web:console_tournament", args=[tournament.slug])
    assert tab(client.get(home).content.decode()) == "Late hands"  # none: no count
    device = make_device(board)
    rows = [LateHand.objects.create(tournament=tournament, device=device, key=f"k{i}", payload={"kind": "hand"},
                                    board=board, reason="round_closed") for i in range(2)]
    assert tab(client.get(home).content.decode()) == "Late hands 2 waiting"
    late_hand_handle(late_hand=rows[0], user=user)
    inbox = client.get(reverse("web:console_late_hands", args=[tournament.slug])).content.decode()
    assert tab(inbox) == "Late hands 1 waiting"
    assert re.search(r'<a href="[^"]*/late-hands/" aria-current="page">', inbox)
