"""The organiser's inbox of late hands (issue 16): a tablet the server refuses for good sends its unsent
entries to ``POST /api/v1/tablet/late-hands/``, authenticated by its device token even when revoked;
stored once per key; rate-limited per device; the console lists them and the organiser marks them handled."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.models import AuditEvent, Device, LateHand
from tournaments.services.devices import device_revoke
from tournaments.services.late_hands import late_hand_handle, late_hand_submit

from .conftest import World, make_user
from .helpers import key

pytestmark = pytest.mark.django_db
URL = "/api/v1/tablet/late-hands/"


def entry(board_id: Any, k: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"key": k or key(), "board": board_id,
            "payload": {"kind": "hand", "game": 1, "number": 3, "hand": {"dealer": 0, "misdeal": True},
                        "label": "Game 1, hand 3", **payload},
            "reason": "device_not_paired: This tablet is not paired, or its pairing was revoked; pair it again."}


def send(api: Any, token: str, entries: list[dict[str, Any]]) -> Any:
    return api.post(URL, {"hands": entries}, format="json", HTTP_AUTHORIZATION=f"Device {token}")


def test_a_revoked_tablet_sends_its_unsent_hands_to_the_inbox_once(api: Any, world: World) -> None:
    device_revoke(device=world.tablet, user=world.organiser)
    assert api.get("/api/v1/tablet/board/", HTTP_AUTHORIZATION=f"Device {world.tablet_token}").status_code == 401
    first, second = entry(world.board.pk), entry(world.board.pk, number=4)
    response = send(api, world.tablet_token, [first, second])
    assert response.status_code == 201, response.content
    assert response.json() == {"received": [first["key"], second["key"]], "already_on_server": [], "table": 1}
    assert response["Cache-Control"] == "no-store"
    again = send(api, world.tablet_token, [first])  # the tablet did not hear the answer and sends again
    assert again.status_code == 201 and again.json()["received"] == [first["key"]]
    rows = list(LateHand.objects.order_by("id"))
    assert len(rows) == 2
    assert rows[0].board_id == world.board.pk and rows[0].tournament_id == world.tournament.pk
    assert rows[0].payload["hand"] == {"dealer": 0, "misdeal": True} and "pair it again" in rows[0].reason
    assert AuditEvent.objects.filter(action="late_hand.submit").count() == 2


def test_another_tables_board_is_not_kept(api: Any, world: World) -> None:
    response = send(api, world.tablet_token, [entry(world.board_2.pk)])
    assert response.status_code == 201
    assert LateHand.objects.get().board_id is None  # the payload still says what the tablet meant


def test_unknown_missing_or_long_revoked_tokens_are_401(api: Any, world: World) -> None:
    assert send(api, "no-such-token", [entry(None)]).status_code == 401
    assert api.post(URL, {"hands": [entry(None)]}, format="json").status_code == 401
    Device.objects.filter(pk=world.tablet.pk).update(revoked_at=timezone.now() - timedelta(days=3))
    assert send(api, world.tablet_token, [entry(None)]).status_code == 401
    assert not LateHand.objects.exists()


def test_malformed_entries_are_400(api: Any, world: World) -> None:
    assert send(api, world.tablet_token, []).status_code == 400
    assert send(api, world.tablet_token, [{"key": "", "payload": {}}]).status_code == 400
    assert send(api, world.tablet_token, [{"key": "k", "payload": "x"}]).status_code == 400
    assert send(api, world.tablet_token, [entry(None) for _ in range(51)]).status_code == 400
    too_big = entry(None, hand={"dealer": 0, "junk": "x" * 21000})
    assert send(api, world.tablet_token, [too_big]).status_code == 400


def test_rate_limited_per_device_like_other_tablet_writes(api: Any, world: World, settings: Any) -> None:
    from rest_framework.settings import api_settings

    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "tablet_write": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert send(api, world.tablet_token, [entry(None)]).status_code == 201
    assert send(api, world.tablet_token, [entry(None)]).status_code == 201
    assert send(api, world.tablet_token, [entry(None)]).status_code == 429
    assert send(api, world.tablet_2_token, [entry(None)]).status_code == 201  # another device: its own limit


def test_the_organiser_marks_a_late_hand_handled_and_others_may_not(world: World) -> None:
    _, rows, _ = late_hand_submit(token=world.tablet_token, entries=[entry(world.board.pk)])
    from tournaments.errors import NotAllowed

    with pytest.raises(NotAllowed):
        late_hand_handle(late_hand=rows[0], user=world.other)
    row = late_hand_handle(late_hand=rows[0], user=world.organiser)
    assert row.handled_at is not None and row.handled_by == world.organiser
    row = late_hand_handle(late_hand=row, user=world.organiser, handled=False)
    assert row.handled_at is None


def test_the_console_lists_late_hands_and_marks_them_handled(world: World) -> None:
    late_hand_submit(token=world.tablet_token, entries=[entry(world.board.pk)])
    row = LateHand.objects.get()
    page = f"/console/t/{world.tournament.slug}/late-hands/"
    client = Client()
    client.force_login(world.organiser)
    body = client.get(page).content.decode()
    assert "Hand (game 1, hand 3)" in body and "pair it again" in body and "1 waiting" in body
    response = client.post(page, {"late": row.pk, "action": "handle"})
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.handled_at is not None
    outsider = Client()
    outsider.force_login(make_user("nobody"))
    assert outsider.get(page).status_code == 403
    other = Client()
    other.force_login(world.other)
    assert other.post(page, {"late": row.pk, "action": "reopen"}).status_code == 403


def test_an_entry_whose_write_went_through_is_not_stored_again(api: Any, world: World) -> None:
    """The hand reached the server but its answer was lost; then the tablet was revoked and sent it here."""
    from .helpers import post, seat

    seat(api, world)
    k = key()
    hand = {"dealer": 0, "misdeal": True}
    assert post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/",
                {"game": 1, "number": 1, "hand": hand}, idem=k).status_code == 201
    device_revoke(device=world.tablet, user=world.organiser)
    response = send(api, world.tablet_token, [entry(world.board.pk, k), entry(world.board.pk)])
    assert response.status_code == 201
    assert response.json()["already_on_server"] == [k] and k in response.json()["received"]
    assert LateHand.objects.count() == 1 and not LateHand.objects.filter(key=k).exists()
