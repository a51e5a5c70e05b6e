"""Pairing a tablet: a single-use code traded once for a token shown once; one active tablet per table;
revoked or finished -> 401. And organisers see only their own tournaments."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments.models import AuditEvent, Device, PairingCode, Tournament
from tournaments.services.devices import device_revoke, pairing_code_create

from .conftest import World

pytestmark = pytest.mark.django_db


def test_organiser_lists_only_their_tournaments(api: Any, world: World) -> None:
    listed = api.get("/api/v1/tournaments/", **world.auth("other")).json()
    assert [t["slug"] for t in listed["results"]] == ["tobago-cup"]
    assert api.get(f"/api/v1/tournaments/{world.tournament.pk}/", **world.auth("other")).status_code == 403
    assert api.get(f"/api/v1/rounds/{world.round.pk}/boards/", **world.auth("other")).status_code == 403
    staff = api.get("/api/v1/tournaments/", **world.auth("staff")).json()
    assert staff["count"] == 2


def test_pairing_trades_a_code_once_and_revokes_the_old_tablet(api: Any, world: World) -> None:
    _, code = pairing_code_create(tournament=world.tournament, table=1, user=world.organiser)
    response = api.post("/api/v1/tablet/pair/", {"code": code, "label": "new tablet"}, format="json")
    assert response.status_code == 201, response.content
    token = response.json()["token"]
    assert response["Cache-Control"] == "no-store"
    device = Device.objects.get(pk=response.json()["device"]["id"])
    assert token not in (device.token_digest, device.token_prefix)
    assert api.get("/api/v1/tablet/board/", HTTP_AUTHORIZATION=f"Device {token}").status_code == 200
    old = api.get("/api/v1/tablet/board/", **world.auth("tablet"))
    assert old.status_code == 401  # pairing a new tablet revoked the old one
    reused = api.post("/api/v1/tablet/pair/", {"code": code}, format="json")
    assert reused.status_code == 401
    assert reused.json()["error"]["code"] == "pairing_code_used"


def test_expired_and_unknown_codes_are_401(api: Any, world: World) -> None:
    pairing, code = pairing_code_create(tournament=world.tournament, table=3, user=world.organiser)
    PairingCode.objects.filter(pk=pairing.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    before = (AuditEvent.objects.count(), Device.objects.count())
    expired = api.post("/api/v1/tablet/pair/", {"code": code}, format="json")
    assert expired.status_code == 401
    assert expired.json()["error"]["code"] == "pairing_code_expired"
    unknown = api.post("/api/v1/tablet/pair/", {"code": "NOPE000000"}, format="json")
    assert unknown.status_code == 401
    assert unknown.json()["error"]["code"] == "pairing_code_unknown"
    assert (AuditEvent.objects.count(), Device.objects.count()) == before


def test_a_revoked_tablet_may_pair_again_even_sending_its_old_token(api: Any, world: World) -> None:
    device_revoke(device=world.tablet, user=world.organiser)
    _, code = pairing_code_create(tournament=world.tournament, table=1, user=world.organiser)
    response = api.post("/api/v1/tablet/pair/", {"code": code}, format="json", **world.auth("tablet"))
    assert response.status_code == 201


def test_organiser_prints_codes_and_revokes_a_tablet(api: Any, world: World) -> None:
    response = api.post(f"/api/v1/tournaments/{world.tournament.pk}/pairing-codes/", {"tables": [1, 2, 3]},
                        format="json", **world.auth("organiser"))
    assert response.status_code == 201, response.content
    codes = response.json()
    assert [c["table"] for c in codes] == [1, 2, 3]
    assert codes[0]["link"] == f"/tablet/pair/{codes[0]['code']}"
    assert codes[0]["qr_svg"].lstrip().startswith("<")
    revoked = api.post(f"/api/v1/devices/{world.tablet.pk}/revoke/", **world.auth("organiser"))
    assert revoked.status_code == 200 and revoked.json()["active"] is False
    assert api.get("/api/v1/tablet/board/", **world.auth("tablet")).status_code == 401
    listed = api.get(f"/api/v1/tournaments/{world.tournament.pk}/devices/?active=true", **world.auth("organiser"))
    assert {d["table"] for d in listed.json()["results"]} == {2}


def test_a_tablet_of_a_finished_tournament_is_refused(api: Any, world: World) -> None:
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.FINISHED)
    assert api.get("/api/v1/tablet/board/", **world.auth("tablet")).status_code == 401
