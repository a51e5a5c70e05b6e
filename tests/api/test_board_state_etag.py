"""The tablet's conditional board read: ``GET /api/v1/tablet/board/`` carries an ETag from a cheap version
read (``api.etag.board_etag``) and answers 304 to If-None-Match without building the state.

The tag must move on every change a tablet must see; the authentication is checked before any 304.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import submit, tally
from tournaments.models import Board, Game, Hand
from tournaments.services.devices import device_revoke

from .conftest import World
from .helpers import play_game, post, seat

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/tablet/board/"


def read(api: Any, world: World, etag: str | None = None, who: str = "tablet") -> Any:
    headers = world.auth(who)
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return api.get(BOARD, **headers)


def tag(api: Any, world: World) -> str:
    response = read(api, world)
    assert response.status_code == 200, response.content
    return response["ETag"]


def org(world: World) -> dict[str, str]:
    return world.auth("organiser")


def moved(api: Any, world: World, before: str) -> Any:
    """After a change: the old tag is a 200 with the new state and a new tag (and that tag a 304)."""
    response = read(api, world, before)
    assert response.status_code == 200, response.content
    assert response["ETag"] != before
    assert read(api, world, response["ETag"]).status_code == 304
    return response


@pytest.fixture
def seated(api: Any, world: World) -> World:
    assert seat(api, world).status_code == 200
    return world


def test_an_unchanged_board_is_304_with_no_body(api: Any, seated: World) -> None:
    first = read(api, seated)
    etag = first["ETag"]
    assert etag.startswith('W/"') and first["Cache-Control"] == "private, no-cache"
    again = read(api, seated, etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    assert read(api, seated, "W/\"something-else\"").status_code == 200
    assert read(api, seated, f'"x", {etag}').status_code == 304  # a list, weak comparison


def test_the_tag_is_the_boards_own(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    assert read(api, seated, etag, who="tablet_2").status_code == 200  # table 2's board is another board


def test_a_hand_entered_elsewhere_moves_the_tag(api: Any, seated: World) -> None:
    """A hand this client did not send (another browser holding the table's pairing, a replayed queue): the
    services see a hand for the table's device; the tag the client holds is stale."""
    etag = tag(api, seated)
    submit(Board.objects.get(pk=seated.board.pk), tally(0), device=seated.tablet)
    assert moved(api, seated, etag).json()["next_hand_number"] == 2


def test_the_tablets_own_write_moves_the_tag(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    response = post(api, seated, f"/api/v1/tablet/boards/{seated.board.pk}/hands/",
                    {"game": 1, "number": 1, "hand": tally(0)})
    assert response.status_code == 201, response.content
    moved(api, seated, etag)


def test_an_undo_moves_the_tag(api: Any, seated: World) -> None:
    hand = submit(Board.objects.get(pk=seated.board.pk), tally(0))
    etag = tag(api, seated)
    response = post(api, seated, f"/api/v1/tablet/boards/{seated.board.pk}/undo/", {"hand": hand.pk})
    assert response.status_code == 200, response.content
    assert moved(api, seated, etag).json()["hands"] == []


def test_an_organisers_correction_moves_the_tag(api: Any, seated: World) -> None:
    hand = submit(Board.objects.get(pk=seated.board.pk), tally(0))
    etag = tag(api, seated)
    version = api.get(f"/api/v1/hands/{hand.pk}/", **org(seated))["ETag"]
    response = api.put(f"/api/v1/hands/{hand.pk}/", {"hand": tally(0, to=1)}, format="json",
                       HTTP_IF_MATCH=version, **org(seated))
    assert response.status_code == 200, response.content
    assert moved(api, seated, etag).json()["score"] != [3, 0]


def test_an_organisers_void_moves_the_tag(api: Any, seated: World) -> None:
    hand = submit(Board.objects.get(pk=seated.board.pk), tally(0))
    etag = tag(api, seated)
    response = api.post(f"/api/v1/hands/{hand.pk}/void/", {}, format="json", **org(seated))
    assert response.status_code == 200, response.content
    assert moved(api, seated, etag).json()["hands"] == []


def test_a_pairs_confirmation_and_the_organisers_moves_the_tag(api: Any, seated: World) -> None:
    play_game(api, seated, seed=3)
    etag = tag(api, seated)
    response = post(api, seated, f"/api/v1/tablet/boards/{seated.board.pk}/confirmations/",
                    {"game": 1, "side": "a", "agrees": True})
    assert response.status_code == 201, response.content
    etag = moved(api, seated, etag)["ETag"]
    game = Game.objects.get(board=seated.board, number=1)
    response = api.post(f"/api/v1/games/{game.pk}/confirm/", **org(seated))
    assert response.status_code == 201, response.content
    body = moved(api, seated, etag).json()
    assert body["games"][0]["confirmed"] is True


def test_a_help_call_moves_the_tag(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    assert post(api, seated, f"/api/v1/tablet/boards/{seated.board.pk}/help/", None).status_code == 200
    assert moved(api, seated, etag).json()["help_called"] is True


def test_the_clock_set_and_time_called_move_the_tag(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    response = api.post(f"/api/v1/rounds/{seated.round.pk}/clock/", {"minutes": 30}, format="json", **org(seated))
    assert response.status_code == 200, response.content
    body = moved(api, seated, etag)
    assert 1700 <= body.json()["clock"]["seconds_left"] <= 1800
    response = api.post(f"/api/v1/rounds/{seated.round.pk}/call-time/", **org(seated))
    assert response.status_code == 200, response.content
    assert moved(api, seated, body["ETag"]).json()["clock"]["time_called"] is True


def test_the_round_closing_is_not_a_304(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    response = api.post(f"/api/v1/rounds/{seated.round.pk}/close/", {}, format="json", **org(seated))
    assert response.status_code == 200, response.content
    after = read(api, seated, etag)
    assert after.status_code == 404 and after.json()["error"]["code"] == "no_current_board"


def test_a_revoked_tablet_is_401_not_304(api: Any, seated: World) -> None:
    etag = tag(api, seated)
    device_revoke(device=seated.tablet, user=seated.organiser)
    response = read(api, seated, etag)
    assert response.status_code == 401, response.status_code
    assert "ETag" not in response
    assert read(api, seated, etag, who="anon").status_code in (401, 403)


def test_the_304_costs_a_small_constant_number_of_queries(api: Any, seated: World) -> None:
    for number in range(1, 4):
        response = post(api, seated, f"/api/v1/tablet/boards/{seated.board.pk}/hands/",
                        {"game": 1, "number": number, "hand": tally((number - 1) % 4)})
        assert response.status_code == 201, response.content
    etag = tag(api, seated)
    # (the counts are taken at once: each request resets the connection's query log)
    with CaptureQueriesContext(connection) as small:
        assert read(api, seated, etag).status_code == 304
    not_modified = [q["sql"] for q in small.captured_queries]
    with CaptureQueriesContext(connection) as full:
        assert read(api, seated).status_code == 200
    full_read = len(full.captured_queries)
    submit(Board.objects.get(pk=seated.board.pk), tally(3))
    etag = tag(api, seated)
    with CaptureQueriesContext(connection) as later:
        assert read(api, seated, etag).status_code == 304
    # the device with the table's board (tournaments.selectors.tablet_tag), the board's version: whatever the
    # board holds
    assert len(not_modified) == len(later.captured_queries) == 2, not_modified
    assert full_read > len(not_modified)
    assert Hand.objects.filter(game__board=seated.board).count() == 4


def test_a_forfeit_moves_the_tag(api: Any, world: World) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Round

    Round.objects.filter(pk=world.round.pk).update(published_at=timezone.now() - timedelta(minutes=20))  # grace over
    etag = tag(api, world)
    response = api.post(f"/api/v1/boards/{world.board.pk}/forfeit/", {"absent": "b"}, format="json", **org(world))
    assert response.status_code == 200, response.content
    assert moved(api, world, etag).json()["result"]["forfeited"] is not None


def test_a_substitute_and_the_team_match_are_in_the_tag(seated: World) -> None:
    """``board_etag`` itself: what no tablet request above reaches (a substitute recorded for a pair, which
    ``entry_substitute`` counts on the entry; another board of the team match moving the match's bullseyes)."""
    from django.db.models import F

    from api.etag import board_etag
    from tournaments.models import Entry, TeamMatch
    from tournaments.selectors import board_for_table

    def now() -> str:
        board = board_for_table(tournament=seated.tournament, table=1)
        assert board is not None
        return board_etag(board)

    before = now()
    assert now() == before  # nothing changed: the same tag
    Entry.objects.filter(pk=seated.board.pair_b_id).update(substitutions_count=F("substitutions_count") + 1)
    after_sub = now()
    assert after_sub != before
    match = TeamMatch.objects.create(round=seated.round, club_a=seated.board.pair_a.pair.club)
    Board.objects.filter(pk=seated.board.pk).update(team_match=match, slot=1)
    with_match = now()
    assert with_match != after_sub
    TeamMatch.objects.filter(pk=match.pk).update(bullseyes_a=1)
    assert now() != with_match
