"""The tablet's unchanged board in two plain queries (``tournaments.selectors.tablet_tag`` and
``api.views.tablet.unchanged_board``): the same tag as the usual path in every state a board goes through, the
same 304, and every other case left to the usual path (a device not seen for a minute, a revoked tablet, a
finished event, another credential, no tag sent)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api.views import tablet as tablet_views
from tournaments.models import Board, Device, Game, Tournament
from tournaments.selectors import board_for_table
from tournaments.selectors.fingerprint import board_version
from tournaments.selectors.tablet_tag import tablet_board_tag
from tournaments.services.devices import device_revoke, digest

from .conftest import World
from .helpers import hands_of_game, post, seat

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/tablet/board/"
LONG_AGO = timezone.now() - timedelta(days=3650)


def usual_version(world: World, table: int = 1) -> str:
    board = board_for_table(tournament=world.tournament, table=table)
    assert board is not None
    return board_version(board)


def fast_version(token: str) -> str:
    tag = tablet_board_tag(digest(token), seen_after=LONG_AGO)
    assert tag is not None
    return tag.version


def read(api: Any, world: World, etag: str = "", who: str = "tablet") -> Any:
    headers = world.auth(who)
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return api.get(BOARD, **headers)


def test_the_tag_is_the_usual_paths_in_every_state_of_a_board(api: Any, world: World) -> None:
    """Not seated, seated, hands in, a help call, a finished game, each pair's confirmation, the organiser's,
    the clock set and time called, a substitute, a team match: the two paths give the same version."""
    from django.db.models import F

    from tournaments.models import Entry, TeamMatch

    seen = set()

    def same() -> None:
        version = usual_version(world)
        assert fast_version(world.tablet_token) == version
        assert fast_version(world.tablet_2_token) == usual_version(world, table=2)
        seen.add(version)

    same()
    assert seat(api, world).status_code == 200
    same()
    assert post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/help/", None).status_code == 200
    same()
    for number, hand in enumerate(hands_of_game(3, 0), start=1):  # every hand of game 1 in turn
        response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/",
                        {"game": 1, "number": number, "hand": hand})
        assert response.status_code == 201, response.content
        same()
    for side in ("a", "b"):
        response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/confirmations/",
                        {"game": 1, "side": side, "agrees": True})
        assert response.status_code == 201, response.content
        same()
    game = Game.objects.get(board=world.board, number=1)
    assert api.post(f"/api/v1/games/{game.pk}/confirm/", **world.auth("organiser")).status_code in (200, 201)
    same()
    assert api.post(f"/api/v1/rounds/{world.round.pk}/clock/", {"minutes": 30}, format="json",
                    **world.auth("organiser")).status_code == 200
    same()
    assert api.post(f"/api/v1/rounds/{world.round.pk}/call-time/", **world.auth("organiser")).status_code == 200
    same()
    Entry.objects.filter(pk=world.board.pair_b_id).update(substitutions_count=F("substitutions_count") + 1)
    same()
    match = TeamMatch.objects.create(round=world.round, club_a=world.board.pair_a.pair.club)
    Board.objects.filter(pk=world.board.pk).update(team_match=match, slot=1)
    same()
    TeamMatch.objects.filter(pk=match.pk).update(bullseyes_a=1)
    same()
    assert len(seen) >= 12  # every step above moved the tag


def test_an_unchanged_board_is_answered_in_two_queries_with_the_usual_headers(api: Any, world: World,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert seat(api, world).status_code == 200
    full = read(api, world)
    etag = full["ETag"]
    with CaptureQueriesContext(connection) as fast:
        answer = read(api, world, etag)
    assert answer.status_code == 304 and answer.content == b""
    assert len(fast.captured_queries) == 2, [q["sql"] for q in fast.captured_queries]
    monkeypatch.setattr(tablet_views, "unchanged_board", lambda request: None)
    with CaptureQueriesContext(connection) as usual_queries:
        usual = read(api, world, etag)
    assert usual.status_code == 304 and len(usual_queries.captured_queries) == 3
    assert sorted(answer.items()) == sorted(usual.items())  # every header, the ETag included


def test_a_device_not_seen_for_a_minute_takes_the_usual_path_which_records_it(api: Any, world: World) -> None:
    assert seat(api, world).status_code == 200
    etag = read(api, world)["ETag"]
    Device.objects.filter(pk=world.tablet.pk).update(last_seen_at=timezone.now() - timedelta(minutes=2))
    assert tablet_board_tag(digest(world.tablet_token), seen_after=timezone.now() - timedelta(minutes=1)) is None
    with CaptureQueriesContext(connection) as queries:
        assert read(api, world, etag).status_code == 304
    assert len(queries.captured_queries) > 2  # the fast path's statement, then the usual path and its write
    assert timezone.now() - Device.objects.get(pk=world.tablet.pk).last_seen_at < timedelta(seconds=5)


def test_a_revoked_tablet_or_a_finished_event_has_no_tag(api: Any, world: World) -> None:
    assert seat(api, world).status_code == 200
    etag = read(api, world)["ETag"]
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.FINISHED)
    assert tablet_board_tag(digest(world.tablet_token), seen_after=LONG_AGO) is None
    assert read(api, world, etag).status_code == 401
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.RUNNING)
    assert read(api, world, etag).status_code == 304
    device_revoke(device=world.tablet, user=world.organiser)
    assert tablet_board_tag(digest(world.tablet_token), seen_after=LONG_AGO) is None
    response = read(api, world, etag)
    assert response.status_code == 401 and "ETag" not in response


def test_other_requests_are_the_usual_paths(api: Any, world: World) -> None:
    """No tag sent, a tag of another board, an organiser's token, a malformed header: never a fast answer."""
    assert seat(api, world).status_code == 200
    etag = read(api, world)["ETag"]
    assert read(api, world).status_code == 200
    assert read(api, world, read(api, world, who="tablet_2")["ETag"]).status_code == 200
    assert read(api, world, etag, who="organiser").status_code == 403
    assert api.get(BOARD, HTTP_AUTHORIZATION=f"Device {world.tablet_token} extra",
                   HTTP_IF_NONE_MATCH=etag).status_code == 401
    assert api.get(BOARD, HTTP_AUTHORIZATION="Device " + "x" * 300, HTTP_IF_NONE_MATCH=etag).status_code == 401
    assert tablet_board_tag(digest("no such token"), seen_after=LONG_AGO) is None
