"""Issue 11 item 6: a knockout is seeded only from a tournament its own organiser runs.

Before: ``qualifies_from`` could name any tournament, even another organiser's unpublished one, and the
knockout's round 1 was then seeded from that tournament's standings.

- Creating or changing a tournament with ``qualifies_from`` naming a tournament the caller does not run is
  refused (403 ``qualifies_from_not_organised``, ``fields["qualifies_from"]``); one's own is accepted, and
  staff may name any.
- The knockout's seeding (``services.knockout.qualifier_order``) refuses a qualifying tournament that no
  organiser of the knockout runs (one stored before this check), without reading its standings.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import World, build_world, private_cache  # noqa: F401 (private_cache: autouse fixture)
from tests.tournaments.factories import make_entries, make_tournament, make_user
from tournaments.errors import DomainError
from tournaments.models import StandingsSnapshot, Tournament, TournamentRole
from tournaments.services import round_start, tournament_create, tournament_update
from tournaments.services.knockout import qualifier_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def _refused(response: Any) -> dict[str, Any]:
    assert response.status_code in (400, 403), response.content
    error = response.json()["error"]
    assert error["code"] == "qualifies_from_not_organised", error
    assert "qualifies_from" in error["fields"], error
    return error


def test_item06_creating_a_knockout_seeded_from_another_organisers_tournament_is_refused(api, world):
    body = {"name": "Grand Final", "slug": "grand-final", "pairing_system": "knockout",
            "qualifies_from": world.other_tournament.pk}
    _refused(api.post("/api/v1/tournaments/", body, format="json", **world.auth("organiser")))
    assert not Tournament.objects.filter(slug="grand-final").exists()
    own = {**body, "qualifies_from": world.tournament.pk}
    created = api.post("/api/v1/tournaments/", own, format="json", **world.auth("organiser"))
    assert created.status_code == 201, created.content
    assert created.json()["qualifies_from"] == world.tournament.pk


def test_item06_changing_qualifies_from_to_another_organisers_tournament_is_refused(api, world):
    final = tournament_create(user=world.organiser, name="Final", slug="final", pairing_system="knockout")
    url = f"/api/v1/tournaments/{final.pk}/"
    _refused(api.patch(url, {"qualifies_from": world.other_tournament.pk}, format="json", **world.auth("organiser")))
    assert Tournament.objects.get(pk=final.pk).qualifies_from_id is None
    ok = api.patch(url, {"qualifies_from": world.tournament.pk}, format="json", **world.auth("organiser"))
    assert ok.status_code == 200, ok.content


def test_item06_the_service_refuses_a_foreign_qualifier_and_staff_may_name_any(world):
    with pytest.raises(DomainError) as caught:
        tournament_create(user=world.organiser, name="Final", slug="final", qualifies_from=world.other_tournament)
    assert caught.value.code == "qualifies_from_not_organised"
    assert "qualifies_from" in caught.value.fields
    staff_final = tournament_create(user=world.staff, name="Staff final", slug="staff-final",
                                    qualifies_from=world.other_tournament)
    assert staff_final.qualifies_from_id == world.other_tournament.pk
    final = tournament_create(user=world.organiser, name="Final", slug="final")
    with pytest.raises(DomainError):
        tournament_update(tournament=final, user=world.organiser, qualifies_from=world.other_tournament)


def _stored_foreign_knockout() -> tuple[Tournament, Tournament, Any]:
    """A knockout whose organiser does not run the tournament it names in ``qualifies_from`` (stored through
    the ORM, as a row from before the check), with entries; and the knockout's organiser."""
    mine, theirs = make_user("ko-organiser"), make_user("other-organiser")
    qualifier = make_tournament()
    TournamentRole.objects.create(tournament=qualifier, user=theirs)
    knockout = make_tournament(pairing_system="knockout")
    TournamentRole.objects.create(tournament=knockout, user=mine)
    Tournament.objects.filter(pk=knockout.pk).update(qualifies_from=qualifier)
    make_entries(knockout, 4)
    return Tournament.objects.get(pk=knockout.pk), qualifier, mine


def test_item06_seeding_refuses_a_stored_foreign_qualifier_without_reading_its_standings(monkeypatch):
    knockout, qualifier, organiser = _stored_foreign_knockout()
    with pytest.raises(DomainError) as caught:
        qualifier_order(knockout, clubs=False)
    assert caught.value.code == "qualifies_from_not_organised"
    assert "qualifies_from" in caught.value.fields
    assert not StandingsSnapshot.objects.filter(tournament=qualifier).exists()
    with pytest.raises(DomainError) as caught:
        round_start(tournament=knockout, user=organiser)
    assert caught.value.code == "qualifies_from_not_organised"


def test_item06_seeding_from_a_tournament_the_same_organiser_runs_still_works():
    knockout, qualifier, organiser = _stored_foreign_knockout()
    TournamentRole.objects.create(tournament=qualifier, user=organiser)
    assert qualifier_order(knockout, clubs=False) == []  # the qualifier's entries are other pairs
    round_ = round_start(tournament=knockout, user=organiser)
    assert round_.boards.count() == 2
