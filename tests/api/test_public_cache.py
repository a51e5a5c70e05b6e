"""Repeated public reads are served from the page cache until the tournament changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import make_board, submit, tally
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def board():
    board = make_board()
    Tournament.objects.filter(pk=board.round.tournament_id).update(published=True)
    return board


def scorecard_url(board) -> str:
    return f"/api/v1/public/tournaments/{board.round.tournament.slug}/boards/{board.pk}/"


def test_a_second_read_costs_one_query_and_a_conditional_one_answers_304(client, board):
    url = scorecard_url(board)
    first = client.get(url)
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert second.status_code == 200 and second.content == first.content and len(queries) == 1
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_new_hand_is_seen_on_the_next_read(client, board):
    url = scorecard_url(board)
    before = client.get(url)
    submit(board, tally(0))
    after = client.get(url)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200


def test_an_unpublished_tournament_is_still_404(client, board):
    Tournament.objects.filter(pk=board.round.tournament_id).update(published=False)
    assert client.get(scorecard_url(board)).status_code == 404
