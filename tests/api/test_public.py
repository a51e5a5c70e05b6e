"""The public API: published tournaments only, no login, ETag + Cache-Control, 304 on a matching ETag."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Round, StandingsSnapshot, Tournament

from .conftest import World, make_round, make_tournament
from .helpers import play_game, seat

pytestmark = pytest.mark.django_db

BASE = "/api/v1/public/tournaments/"


def test_only_published_tournaments_are_listed(api: Any, world: World) -> None:
    make_tournament("secret-draft", published=False)
    slugs = {t["slug"] for t in api.get(BASE).json()["results"]}
    assert slugs == {"carnival-open", "tobago-cup"}
    assert api.get(f"{BASE}secret-draft/").status_code == 404


def test_conditional_get_answers_304(api: Any, world: World) -> None:
    first = api.get(f"{BASE}carnival-open/")
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"')
    assert "max-age" in first["Cache-Control"]
    again = api.get(f"{BASE}carnival-open/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    Tournament.objects.filter(pk=world.tournament.pk).update(venue="Queen's Hall")
    changed = api.get(f"{BASE}carnival-open/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_public_reads_ignore_credentials(api: Any, world: World) -> None:
    assert api.get(BASE, HTTP_AUTHORIZATION="Device revoked-or-garbage").status_code == 200


def test_rounds_pairings_and_scorecards(api: Any, world: World) -> None:
    make_round(world.tournament, 2, world.entries, status=Round.Status.DRAFTED)
    rounds = api.get(f"{BASE}carnival-open/rounds/").json()
    assert [r["number"] for r in rounds] == [1]  # a drafted round is not public yet
    assert api.get(f"{BASE}carnival-open/rounds/2/").status_code == 404
    seat(api, world)
    play_game(api, world, seed=3)
    pairings = api.get(f"{BASE}carnival-open/rounds/1/").json()
    table_1 = next(b for b in pairings["boards"] if b["table"] == 1)
    assert table_1["current_game"] == 2 and sum(table_1["games_won"]) == 1
    assert table_1["confirmed_won"] == [0, 0]  # the live count and the confirmed count stay apart
    card = api.get(f"{BASE}carnival-open/boards/{world.board.pk}/").json()
    assert card["games"][0]["status"] == "finished"
    assert card["games"][0]["hands"][0]["number"] == 1
    assert api.get(f"{BASE}tobago-cup/boards/{world.board.pk}/").status_code == 404


def test_standings_come_from_the_latest_snapshot(api: Any, world: World) -> None:
    empty = api.get(f"{BASE}carnival-open/standings/").json()
    assert empty["rows"] == [] and empty["after_round"] == 0
    entry = world.entries[0]
    StandingsSnapshot.objects.create(tournament=world.tournament, after_round=1, source_hash="x",
                                     rows=[{"entry_id": entry.pk, "rank": 1, "match_points": 2, "wins": 1}])
    table = api.get(f"{BASE}carnival-open/standings/").json()
    assert table["after_round"] == 1
    assert table["rows"][0]["entry"] == entry.pk
    assert table["rows"][0]["values"]["match_points"] == 2


def test_statistics(api: Any, world: World) -> None:
    response = api.get(f"{BASE}carnival-open/statistics/")
    assert response.status_code == 200
    assert {r["label"] for r in response.json()["records"]} >= {"Most hang jacks"}
    assert len(response.json()["pairs"]) == 4
