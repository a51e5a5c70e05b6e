"""Club and player identity in the API (docs/api.md, "Club and player identity"): a rename (a played event keeps
the club's name of the day), a merge of a spelling variant (its records move, its name becomes an alias), the
aliases read back; the refusals in the one error shape (another organisation's record, a record merged into
itself, an unknown variant, two players in one event, a taken name, a tablet, nobody signed in); and the OpenAPI
document generating without a warning."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments.models import AuditEvent, Club, ClubAlias, Entry, Pair, Player, PlayerAlias
from tournaments.services import club_create, pair_create, player_create

from .conftest import make_tournament, make_user, pair_tablet, token_for

pytestmark = pytest.mark.django_db


class People:
    """Two organisers, each with their own clubs; ``call(who, method, path, body)`` answers as ``who``."""

    def __init__(self) -> None:
        self.me = make_user("marcia", organise=True)
        self.them = make_user("ravi", organise=True)
        self.tokens = {"me": token_for(self.me), "them": token_for(self.them)}
        self.couva = club_create(name="Couva All Fours Club", user=self.me)
        self.variant = club_create(name="Couva AFC", user=self.me)
        self.theirs = club_create(name="Tobago Jacks", user=self.them)

    def call(self, who: str, method: str, path: str, body: Any = None) -> Any:
        client = APIClient()
        if who in self.tokens:
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[who]}")
        elif who != "anon":
            client.credentials(HTTP_AUTHORIZATION=f"Device {who}")
        return getattr(client, method)(f"/api/v1/{path}", body, format="json")

    def pair(self, club: Club, first: str, second: str) -> Pair:
        p1 = player_create(name=first, club=club, user=self.me)
        p2 = player_create(name=second, club=club, user=self.me)
        return pair_create(player_1=p1, player_2=p2, club=club, user=self.me)


@pytest.fixture
def people() -> People:
    return People()


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return body["error"]


# ---- what works -------------------------------------------------------------------------------------------


def test_a_club_rename_keeps_the_name_a_played_event_was_played_under(people):
    pair = people.pair(people.couva, "Kenrick Baptiste", "Ria Mohammed")
    played = make_tournament("carnival-open", organiser=people.me, status="finished")
    upcoming = make_tournament("easter-cup", organiser=people.me, status="draft")
    past = Entry.objects.create(tournament=played, pair=pair)
    later = Entry.objects.create(tournament=upcoming, pair=pair)

    response = people.call("me", "post", f"clubs/{people.couva.pk}/rename/", {"name": "  Couva Kickers "})

    assert response.status_code == 200, response.content
    assert response.json() == {"id": people.couva.pk, "name": "Couva Kickers", "short_name": "", "town": "",
                               "owner": people.couva.owner_id, "aliases": []}
    past.refresh_from_db()
    later.refresh_from_db()
    assert (past.club_name, later.club_name) == ("Couva All Fours Club", "Couva Kickers")
    assert AuditEvent.objects.filter(action="club.update").exists()


def test_a_club_merge_moves_the_variants_records_and_keeps_its_name_as_an_alias(people):
    pair = people.pair(people.variant, "Kenrick Baptiste", "Ria Mohammed")
    ClubAlias.objects.create(club=people.variant, name="Couva A.F.C.")

    response = people.call("me", "post", f"clubs/{people.couva.pk}/merge/", {"variant": people.variant.pk})

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["club"]["id"] == people.couva.pk and body["club"]["name"] == "Couva All Fours Club"
    assert sorted(body["club"]["aliases"]) == sorted(body["aliases_added"]) == ["Couva A.F.C.", "Couva AFC"]
    assert body["moved"] == {"pairs": 1, "players": 2, "entries": 0, "teams": 0, "team_matches": 0, "aliases": 1}
    assert not Club.objects.filter(pk=people.variant.pk).exists()
    pair.refresh_from_db()
    assert pair.club_id == people.couva.pk
    read = people.call("me", "get", f"clubs/{people.couva.pk}/aliases/")
    assert read.status_code == 200 and read.json() == body["club"]


def test_a_player_rename_and_merge_and_their_aliases(people):
    keep = player_create(name="Kenrick Baptiste", club=people.couva, user=people.me)
    variant = player_create(name="Kenric Baptiste", club=people.couva, user=people.me)
    partner = player_create(name="Ria Mohammed", club=people.couva, user=people.me)
    pair = pair_create(player_1=variant, player_2=partner, club=people.couva, user=people.me)

    renamed = people.call("me", "post", f"players/{partner.pk}/rename/", {"name": "Ria Mohammed-Baptiste"})
    assert renamed.status_code == 200, renamed.content
    assert renamed.json() == {"id": partner.pk, "name": "Ria Mohammed-Baptiste", "club": people.couva.pk,
                              "owner": partner.owner_id, "aliases": []}

    merged = people.call("me", "post", f"players/{keep.pk}/merge/", {"variant": variant.pk})
    assert merged.status_code == 200, merged.content
    body = merged.json()
    assert body["player"]["aliases"] == body["aliases_added"] == ["Kenric Baptiste"]
    assert body["moved"] == {"pairs": 1, "entries": 0, "substitutions": 0, "aliases": 0}
    pair.refresh_from_db()
    assert pair.player_1_id == keep.pk and not Player.objects.filter(pk=variant.pk).exists()
    read = people.call("me", "get", f"players/{keep.pk}/aliases/")
    assert read.status_code == 200 and read.json() == body["player"]


# ---- refusals, in the one error shape ------------------------------------------------------------------------


def test_another_organisations_club_or_player_is_not_yours(people):
    theirs = player_create(name="Tobago Ace", club=people.theirs, user=people.them)
    mine = player_create(name="Couva Ace", club=people.couva, user=people.me)
    # a read hides it (404, as GET /clubs/<id>/ does); a write is refused naming why (403, as PATCH does)
    for path in (f"clubs/{people.theirs.pk}/aliases/", f"players/{theirs.pk}/aliases/"):
        response = people.call("me", "get", path)
        assert response.status_code == 404 and error(response)["code"] == "not_found", path
    for path, body in ((f"clubs/{people.theirs.pk}/rename/", {"name": "Mine now"}),
                       (f"clubs/{people.theirs.pk}/merge/", {"variant": people.variant.pk}),
                       (f"players/{theirs.pk}/rename/", {"name": "Mine now"}),
                       (f"players/{theirs.pk}/merge/", {"variant": mine.pk})):
        response = people.call("me", "post", path, body)
        assert response.status_code == 403 and error(response)["code"] == "not_owner", (path, response.content)
        assert "Tobago" not in response.content.decode()  # "That club belongs to another organisation"
    # their record as the variant merged into mine: answered as an id that names no record (400 at the field),
    # so the answer reads out neither their names nor whether the id exists
    for path, variant in ((f"clubs/{people.couva.pk}/merge/", people.theirs.pk),
                          (f"players/{mine.pk}/merge/", theirs.pk)):
        response = people.call("me", "post", path, {"variant": variant})
        assert response.status_code == 400, response.content
        assert error(response)["code"] == "invalid" and "variant" in error(response)["fields"]
        assert "Tobago" not in response.content.decode()
    people.theirs.refresh_from_db()
    theirs.refresh_from_db()
    assert (people.theirs.name, theirs.name) == ("Tobago Jacks", "Tobago Ace")
    assert Club.objects.filter(pk=people.theirs.pk).exists() and Player.objects.filter(pk=theirs.pk).exists()


def test_a_club_merged_into_itself_or_an_unknown_variant_is_a_field_error(people):
    itself = people.call("me", "post", f"clubs/{people.couva.pk}/merge/", {"variant": people.couva.pk})
    assert itself.status_code == 400
    assert error(itself)["code"] == "same_record" and set(error(itself)["fields"]) == {"variant"}
    for variant, code in ((999_999, "invalid"), ("couva", "invalid"), (None, "invalid"), (2**31, "max_value")):
        response = people.call("me", "post", f"clubs/{people.couva.pk}/merge/", {"variant": variant})
        assert response.status_code == 400, (variant, response.content)
        assert error(response)["code"] == code and set(error(response)["fields"]) == {"variant"}, variant
    unknown = people.call("me", "post", f"clubs/{people.couva.pk}/merge/", {"variant": 999_999})
    assert error(unknown)["fields"]["variant"] == "No club has the id 999999."
    missing = people.call("me", "post", f"clubs/{people.couva.pk}/merge/", {})
    assert missing.status_code == 400 and set(error(missing)["fields"]) == {"variant"}
    assert Club.objects.filter(owner=people.couva.owner_id).count() == 2 and not ClubAlias.objects.exists()


def test_a_taken_or_blank_name_and_an_unknown_record_are_refused(people):
    taken = people.call("me", "post", f"clubs/{people.variant.pk}/rename/", {"name": "couva all fours club"})
    assert taken.status_code == 400 and error(taken)["code"] == "name_taken" and "name" in error(taken)["fields"]
    for name in ("", "\u200b", "x" * 121):
        blank = people.call("me", "post", f"clubs/{people.variant.pk}/rename/", {"name": name})
        assert blank.status_code == 400 and "name" in error(blank)["fields"], (name, blank.content)
    people.variant.refresh_from_db()
    assert people.variant.name == "Couva AFC"
    for path in ("clubs/999999/rename/", "clubs/999999/merge/", "players/999999/rename/", "clubs/999999/aliases/"):
        response = people.call("me", "get" if path.endswith("aliases/") else "post", path, {"name": "x", "variant": 1})
        assert response.status_code == 404 and error(response)["code"] == "not_found", path


def test_two_players_of_one_event_are_not_merged(people):
    event = make_tournament("carnival-open", organiser=people.me)
    first = people.pair(people.couva, "Kenrick Baptiste", "Ria Mohammed")
    second = people.pair(people.couva, "Kenric Baptiste", "Anil Ramdeen")
    Entry.objects.create(tournament=event, pair=first)
    Entry.objects.create(tournament=event, pair=second)
    response = people.call("me", "post", f"players/{first.player_1_id}/merge/", {"variant": second.player_1_id})
    assert response.status_code == 409 and error(response)["code"] == "player_entered_twice"
    assert "variant" in error(response)["fields"] and not PlayerAlias.objects.exists()


def test_a_tablet_is_refused_and_nobody_signed_in_must_sign_in(people):
    event = make_tournament("carnival-open", organiser=people.me)
    _, tablet = pair_tablet(event, 1, people.me)
    assert people.call(tablet, "get", "tablet/board/").status_code != 401  # a real, paired tablet
    calls = [("get", f"clubs/{people.couva.pk}/aliases/", None),
             ("post", f"clubs/{people.couva.pk}/rename/", {"name": "Tablet Club"}),
             ("post", f"clubs/{people.couva.pk}/merge/", {"variant": people.variant.pk}),
             ("get", f"players/{people.pair(people.couva, 'A One', 'A Two').player_1_id}/aliases/", None),
             ("post", f"players/{Player.objects.get(name='A One').pk}/rename/", {"name": "Tablet Player"}),
             ("post", f"players/{Player.objects.get(name='A One').pk}/merge/",
              {"variant": Player.objects.get(name="A Two").pk})]
    for method, path, body in calls:
        refused = people.call(tablet, method, path, body)
        assert refused.status_code == 403 and error(refused)["code"] == "permission_denied", (path, refused.content)
        anonymous = people.call("anon", method, path, body)
        assert anonymous.status_code == 401 and error(anonymous)["code"] == "not_authenticated", path
    assert Club.objects.filter(owner=people.couva.owner_id).count() == 2
    assert set(Club.objects.values_list("name", flat=True)) == {"Couva All Fours Club", "Couva AFC", "Tobago Jacks"}
    assert not Player.objects.filter(name="Tablet Player").exists()


# ---- the OpenAPI document ------------------------------------------------------------------------------------


def test_the_schema_generates_without_warnings_and_documents_the_routes():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache))
    validate_schema(schema)
    paths = schema["paths"]
    for kind in ("clubs", "players"):
        assert set(paths[f"/api/v1/{kind}/{{id}}/aliases/"]) == {"get"}
        for action in ("rename", "merge"):
            operation = paths[f"/api/v1/{kind}/{{id}}/{action}/"]["post"]
            assert {"200", "400", "401", "403", "404"} <= set(operation["responses"]), (kind, action)
            assert operation["requestBody"]["content"]["application/json"]["examples"]
    assert "409" in paths["/api/v1/players/{id}/merge/"]["post"]["responses"]
