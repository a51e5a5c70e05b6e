"""Issue 11 item 8: finishing a tournament revokes its tablets; setting it running again does not bring
them back.

Before: a finished tournament's tablets were refused only while it stayed finished (``device_authenticate``
read the status); set running again, every old token worked again.

- ``PATCH status=finished`` revokes every active device of the tournament (``revoked_at``) and voids the
  pairing codes not yet used; the tablets then answer 401.
- ``PATCH status=running`` afterwards leaves them revoked (401), and an old pairing code does not pair.
- Another tournament's tablets are untouched.

Since issue 14 a PATCH of the status goes through ``tournament_finish`` / ``tournament_reopen``: finishing is
refused while a round is open (409 ``round_open``), so these tests close round 1 first.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import World, build_world, private_cache  # noqa: F401 (private_cache: autouse fixture)
from tournaments.models import AuditEvent, Device
from tournaments.services.devices import device_pair, pairing_code_create
from tournaments.services.errors import DomainError

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/tablet/board/"


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def _close_rounds(world: World) -> None:
    from tournaments.models import Round
    from tournaments.services import round_close

    for round_ in Round.objects.filter(tournament=world.tournament).exclude(status="closed"):
        round_close(round=round_, user=world.organiser, confirm_remaining=True)


def _status(api: APIClient, world: World, status: str) -> None:
    if status == "finished":
        _close_rounds(world)
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"status": status}, format="json",
                         **world.auth("organiser"))
    assert response.status_code == 200, response.content
    assert response.json()["status"] == status


def test_item08_finishing_revokes_the_tablets_and_running_again_does_not_bring_them_back(api, world):
    assert api.get(BOARD, **world.auth("tablet")).status_code == 200
    assert api.get(BOARD, **world.auth("other_tablet")).status_code == 200
    _, unused_code = pairing_code_create(tournament=world.tournament, table=3, user=world.organiser)

    _status(api, world, "finished")
    for who in ("tablet", "tablet_2"):
        assert api.get(BOARD, **world.auth(who)).status_code == 401, who
    assert not Device.objects.filter(tournament=world.tournament, revoked_at__isnull=True).exists()
    assert AuditEvent.objects.filter(action="device.revoke", tournament_id=world.tournament.pk).count() == 2

    _status(api, world, "running")
    for who in ("tablet", "tablet_2"):
        response = api.get(BOARD, **world.auth(who))
        assert response.status_code == 401, (who, response.content)
    with pytest.raises(DomainError):
        device_pair(code=unused_code)  # a code printed before the end pairs nothing afterwards

    # another organiser's tournament keeps its tablet
    assert api.get(BOARD, **world.auth("other_tablet")).status_code == 200


def test_item08_finishing_with_a_round_open_is_refused_and_revokes_nothing(api, world):
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"status": "finished"}, format="json",
                         **world.auth("organiser"))
    assert response.status_code == 409 and response.json()["error"]["code"] == "round_open"
    assert api.get(BOARD, **world.auth("tablet")).status_code == 200


def test_item08_a_new_tablet_paired_after_running_again_works(api, world):
    _status(api, world, "finished")
    _status(api, world, "running")
    _, code = pairing_code_create(tournament=world.tournament, table=1, user=world.organiser)
    _, token = device_pair(code=code)
    answer = api.get(BOARD, HTTP_AUTHORIZATION=f"Device {token}")
    # the new tablet is let in (not 401); round 1 was closed to finish, so its table has no board now
    assert answer.status_code == 404 and answer.json()["error"]["code"] != "not_authenticated", answer.content
    assert api.get(BOARD, **world.auth("tablet")).status_code == 401
