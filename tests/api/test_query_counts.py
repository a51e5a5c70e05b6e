"""Query budgets of the hot paths (Zulip style): a hand submission and its replay stay cheap."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from .conftest import World
from .helpers import hands_of_game, key, post, seat

pytestmark = pytest.mark.django_db


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The SQL sent, without the test transaction's savepoints (BEGIN/COMMIT in production)."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_hand_submission_and_replay_query_budget(api: Any, world: World) -> None:
    seat(api, world)
    hands = hands_of_game(seed=7)
    path = f"/api/v1/tablet/boards/{world.board.pk}/hands/"
    post(api, world, path, {"game": 1, "number": 1, "hand": hands[0]})
    k = key()
    with CaptureQueriesContext(connection) as queries:
        response = post(api, world, path, {"game": 1, "number": 2, "hand": hands[1]}, idem=k)
    assert response.status_code == 201
    # device, stored key?, current board, lock game, last hand, insert hand, update game, audit, store key
    # device, board, the idempotency look-up, the game lock and the one write (PostgreSQL draws the hand id
    # with the lock; SQLite needs separate writes): 6 on PostgreSQL, 9 on SQLite (the hand's publication
    # message, ADR 0013, is one more row: inside the one statement on PostgreSQL, its own INSERT on SQLite).
    budget = 6 if connection.vendor == "postgresql" else 9
    assert len(statements(queries)) <= budget, statements(queries)
    with CaptureQueriesContext(connection) as replay:
        again = post(api, world, path, {"game": 1, "number": 2, "hand": hands[1]}, idem=k)
    assert again.status_code == 201
    assert len(statements(replay)) <= 2, statements(replay)  # device, stored answer
