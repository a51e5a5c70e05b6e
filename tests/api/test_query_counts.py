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


# ---- the public reads a published render makes (docs/adr/0013): as many queries at 2N pairs as at N -------


def _public_event(pairs: int) -> dict[str, str]:
    """A published event of ``pairs`` pairs in four clubs: two closed rounds with results, one in play with
    one game started (the rest not started: boards without games); the addresses a render reads."""
    from tests.tournaments.factories import make_published_event

    tournament, live, ids, made, players = make_published_event(pairs)
    slug, entry, api = tournament.slug, ids[0], f"/api/v1/public/tournaments/{tournament.slug}"
    club, player = made[0].club_id, players[0].pk
    return {
        "home": f"/t/{slug}/", "standings": f"/t/{slug}/standings/", "standings_live": f"/t/{slug}/standings/live/",
        "standings_table": f"/t/{slug}/standings/table/",
        "standings_json": f"{api}/standings/", "hall": f"/t/{slug}/hall/", "rounds": f"/t/{slug}/rounds/",
        "rounds_json": f"{api}/rounds/", "pairings": f"/t/{slug}/rounds/3/", "pairings_live": f"/t/{slug}/rounds/3/live/",
        "round_json": f"{api}/rounds/3/", "board": f"/t/{slug}/boards/{live.pk}/", "scorecard_json": f"{api}/boards/{live.pk}/",
        "pair": f"/t/{slug}/pairs/{entry}/", "clubs": f"/t/{slug}/clubs/", "club": f"/t/{slug}/clubs/{club}/",
        "stats": f"/t/{slug}/stats/", "entries": f"/t/{slug}/entries/", "follow": f"/t/{slug}/follow/",
        "club_history": f"/clubs/{club}/", "player_history": f"/players/{player}/",
    }


def _render_counts(addresses: dict[str, str]) -> dict[str, int]:
    from publishing.render import render

    counts = {}
    for name, address in addresses.items():
        with CaptureQueriesContext(connection) as queries:
            assert render(address) is not None, address
        counts[name] = len(statements(queries))
    return counts


#: The most queries a published render of each page may make (any field size); measured at 2026-12-01.
PUBLIC_BUDGET = {"home": 8, "standings": 8, "standings_live": 8, "standings_table": 6, "standings_json": 5, "hall": 8, "rounds": 12,
                 "rounds_json": 2, "pairings": 7, "pairings_live": 7, "round_json": 6, "board": 10, "scorecard_json": 4,
                 "pair": 8, "clubs": 6, "club": 8, "stats": 4, "entries": 3, "follow": 3, "club_history": 4,
                 "player_history": 4}


def test_public_renders_make_as_many_queries_at_2n_pairs_as_at_n(db: Any) -> None:
    small = _render_counts(_public_event(8))
    large = _render_counts(_public_event(16))
    assert large == small, {k: (small[k], large[k]) for k in small if small[k] != large[k]}
    over = {k: (v, PUBLIC_BUDGET[k]) for k, v in large.items() if v > PUBLIC_BUDGET[k]}
    assert not over, f"{over} {large}"
