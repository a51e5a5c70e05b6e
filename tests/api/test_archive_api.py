"""The archive over the API (docs/archive.md, docs/api.md): GET /api/v1/tournaments/<id>/archive/ for the event's
organisers; POST /api/v1/archives/preview/ and /api/v1/archives/ for an account that may organise; every refusal
in the one error shape."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import make_user, token_for
from tests.tournaments.closing_helpers import ClosingEvent
from tournaments import selectors
from tournaments.models import Organisation, Tournament
from tournaments.services.archive.schema import _validator
from tournaments.services.organisations import organisation_create
from tournaments.services.standings import tournament_standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> ClosingEvent:
    event = ClosingEvent()
    event.close()
    tournament_standings_recompute(tournament_id=event.tournament.pk)
    return event


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def archive_of(event: ClosingEvent) -> dict[str, Any]:
    response = client_for(event.organiser).get(f"/api/v1/tournaments/{event.tournament.pk}/archive/")
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


def post(client: APIClient, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_an_organiser_downloads_the_archive(event):
    response = client_for(event.organiser).get(f"/api/v1/tournaments/{event.tournament.pk}/archive/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{event.tournament.slug}.hangjack-archive.json"'
    document = json.loads(response.content)
    assert document["format"] == "hangjack-archive" and document["version"] == 1
    assert list(_validator().iter_errors(document)) == []
    assert len(document["boards"]) == 5 and document["hands"]


def test_only_the_events_people_may_download_it(event):
    outsider = make_user("outsider", organise=True)
    refused = client_for(outsider).get(f"/api/v1/tournaments/{event.tournament.pk}/archive/")
    assert refused.status_code == 403 and refused.json()["error"]["code"]
    anonymous = APIClient().get(f"/api/v1/tournaments/{event.tournament.pk}/archive/")
    assert anonymous.status_code == 401 and "error" in anonymous.json()
    missing = client_for(event.organiser).get("/api/v1/tournaments/999999/archive/")
    assert missing.status_code == 404 and "error" in missing.json()


def test_preview_then_import_gives_the_same_standings(event):
    document = archive_of(event)
    importer = make_user("importer", organise=True)
    client = client_for(importer)
    preview = post(client, "/api/v1/archives/preview/", document)
    assert preview.status_code == 200, preview.content[:400]
    body = preview.json()
    assert body["slug_changed"] and body["slug"] == f"{event.tournament.slug}-2"
    assert body["counts"]["boards"] == 5 and body["people"]["players"] == {"matched": 0, "created": 20}
    assert Tournament.objects.count() == 1  # a preview writes nothing
    created = post(client, "/api/v1/archives/", document)
    assert created.status_code == 201, created.content[:400]
    copy_ = Tournament.objects.get(pk=created.json()["id"])
    assert created.json()["slug"] == copy_.slug == body["slug"]
    assert copy_.roles.filter(user=importer, role="organiser").exists()
    original_rows = [(r.rank, r.name, r.values) for r in selectors.standings(event.tournament).rows]
    assert [(r.rank, r.name, r.values) for r in selectors.standings(copy_).rows] == original_rows
    # the copy exports to the same results (its own export, compared without the times it was made)
    again = client_for(importer).get(f"/api/v1/tournaments/{copy_.pk}/archive/").json()
    assert again["standings"] == document["standings"] and again["boards"] == document["boards"]


def test_a_changed_hand_is_refused_in_the_one_error_shape(event):
    document = archive_of(event)
    tampered = copy.deepcopy(document)
    index = next(i for i, h in enumerate(tampered["hands"]) if h["status"] == "active")
    tampered["hands"][index]["result"]["score"] = [9, 9]
    response = post(client_for(make_user("importer", organise=True)), "/api/v1/archives/", tampered)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "archive_mismatch" and "table" in error["message"]
    assert list(error["fields"]) == [f"hands[{index}].result.score"]
    assert Tournament.objects.count() == 1


def test_refusals_before_anything_is_read(event):
    document = archive_of(event)
    cannot = make_user("cannot")  # signed in, may not organise
    refused = post(client_for(cannot), "/api/v1/archives/", document)
    assert refused.status_code == 403 and "error" in refused.json()
    importer = make_user("importer", organise=True)
    client = client_for(importer)
    not_json = client.post("/api/v1/archives/", data=b"{not json", content_type="application/json")
    assert not_json.status_code == 400 and "error" in not_json.json()
    other = post(client, "/api/v1/archives/", {**document, "format": "tabbycat"})
    assert other.status_code == 400 and other.json()["error"]["code"] == "archive_format"
    unknown = post(client, "/api/v1/archives/?organisation=987654", document)
    assert unknown.status_code == 404 and "error" in unknown.json()
    foreign = organisation_create(name="Another league", user=make_user("someone", organise=True))
    not_member = post(client, f"/api/v1/archives/?organisation={foreign.pk}", document)
    assert not_member.status_code == 403 and not_member.json()["error"]["code"] == "not_owner"
    assert Tournament.objects.count() == 1


def test_an_archive_larger_than_the_apis_other_bodies_is_read(event):
    document = archive_of(event)
    document["tournament"]["venue"] = "x" * 300_000  # past the 256 kB of other bodies, too long for a venue
    response = post(client_for(make_user("importer", organise=True)), "/api/v1/archives/", document)
    assert response.status_code == 400 and response.json()["error"]["code"] != "payload_too_large"


def test_an_import_into_a_shared_organisation(event):
    document = archive_of(event)
    importer = make_user("importer", organise=True)
    league = organisation_create(name="Central League", user=importer)
    response = post(client_for(importer), f"/api/v1/archives/?organisation={league.pk}", document)
    assert response.status_code == 201 and response.json()["organisation"] == "Central League"
    assert Organisation.objects.get(pk=league.pk).players.count() == 20
