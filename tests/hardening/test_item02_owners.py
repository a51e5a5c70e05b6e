"""Issue 11 item 2: the shared registry let one organiser take over or freeze another's records.

Clubs, players and pairs now belong to an organisation (every user has a personal one; a shared one has
members with roles). Only members of the owning organisation, or staff, change or delete a record (403
``not_owner``); registry reads (list, retrieve) show the caller's organisations' records only (staff: all);
a club's name is unique within its organisation; entering another organisation's pair is refused (403
``not_owner`` on ``pair``) unless the caller copies it first (``POST /api/v1/pairs/{id}/copy/``: the pair,
its players and its club by name, into the caller's organisation). A pair is copyable when it is entered in
a published tournament or in a tournament the caller holds a role on (docs/adr/0010).

Before: organiser B entered organiser A's pair in B's tournament (201), and A then got 403 editing A's own
pair, players and club (the old rule let only organisers of every tournament a record is entered in edit it).

Table-driven over every registry endpoint (clubs, players, pairs; PATCH, PUT, DELETE; owner, other
organiser, staff) and every registry read.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from rest_framework.test import APIClient

from tests.api.conftest import World, make_tournament, make_user, token_for
from tournaments.models import Club, Entry, Pair, Player, Tournament

pytestmark = pytest.mark.django_db



def _as(world: World, who: str) -> dict[str, str]:
    return world.auth(who)


def _registry(api: Any, world: World, who: str = "organiser", tag: str = "A") -> dict[str, int]:
    """A club, two players of it and their pair, made through the API by ``who``."""
    headers = _as(world, who)
    club = api.post("/api/v1/clubs/", {"name": f"{tag} Jokers", "town": "Arima"}, format="json", **headers)
    assert club.status_code == 201, club.content
    ids = {"club": club.json()["id"]}
    for n in (1, 2):
        player = api.post("/api/v1/players/", {"name": f"{tag} Player {n}", "club": ids["club"]}, format="json",
                          **headers)
        assert player.status_code == 201, player.content
        ids[f"player_{n}"] = player.json()["id"]
    pair = api.post("/api/v1/pairs/", {"player_1": ids["player_1"], "player_2": ids["player_2"], "club": ids["club"]},
                    format="json", **headers)
    assert pair.status_code == 201, pair.content
    ids["pair"] = pair.json()["id"]
    return ids


def _enter(api: Any, world: World, who: str, tournament: Tournament, pair: int) -> Any:
    return api.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"pair": pair}, format="json", **_as(world, who))


def _assert_error(response: Any, status: int, code: str, field: str | None = None) -> None:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    if field is not None:
        assert field in (error.get("fields") or {}), error


# ---- the report: B entered A's pair, then A could no longer edit it ------------------------------------------


def test_item02_another_organiser_cannot_enter_my_pair_and_i_keep_editing_it(api: Any, world: World) -> None:
    mine = _registry(api, world)
    _assert_error(_enter(api, world, "other", world.other_tournament, mine["pair"]), 403, "not_owner", "pair")
    assert not Entry.objects.filter(tournament=world.other_tournament, pair_id=mine["pair"]).exists()
    headers = _as(world, "organiser")
    assert api.patch(f"/api/v1/pairs/{mine['pair']}/", {"name": "Still mine"}, format="json", **headers).status_code == 200
    assert api.patch(f"/api/v1/players/{mine['player_1']}/", {"name": "A Renamed"}, format="json",
                     **headers).status_code == 200
    assert api.patch(f"/api/v1/clubs/{mine['club']}/", {"town": "Sangre Grande"}, format="json",
                     **headers).status_code == 200


def test_item02_the_owner_may_enter_their_pair_in_their_own_tournament(api: Any, world: World) -> None:
    mine = _registry(api, world)
    response = _enter(api, world, "organiser", world.tournament, mine["pair"])
    assert response.status_code == 201, response.content


# ---- every registry write: owner yes, another organiser 403 not_owner, staff yes ---------------------------

WRITES = [
    ("clubs", "club", "patch", {"town": "Penal"}),
    ("clubs", "club", "put", {"name": "A Jokers", "short_name": "AJ", "town": "Penal"}),
    ("players", "player_1", "patch", {"name": "A Someone"}),
    ("players", "player_1", "put", {"name": "A Someone"}),
    ("pairs", "pair", "patch", {"name": "A Team"}),
    ("pairs", "pair", "put", {"player_1": "player_1", "player_2": "player_2", "club": "club", "name": "A Team"}),
]
DELETES = [("pairs", "pair"), ("players", "player_1"), ("players", "player_2"), ("clubs", "club")]


def _body(body: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    return {key: ids[value] if key in ("player_1", "player_2", "club") else value for key, value in body.items()}


@pytest.mark.parametrize(("endpoint", "kind", "method", "body"), WRITES,
                         ids=[f"{m} {e}" for e, _, m, _ in WRITES])
@pytest.mark.parametrize(("who", "status"), [("other", 403), ("organiser", 200), ("staff", 200)])
def test_item02_only_the_owner_or_staff_changes_a_registry_record(api: Any, world: World, endpoint: str, kind: str,
                                                                  method: str, body: dict[str, Any], who: str,
                                                                  status: int) -> None:
    ids = _registry(api, world)
    model = {"clubs": Club, "players": Player, "pairs": Pair}[endpoint]
    before = model.objects.filter(pk=ids[kind]).values().get()
    response = getattr(api, method)(f"/api/v1/{endpoint}/{ids[kind]}/", _body(body, ids), format="json",
                                    **_as(world, who))
    if status == 403:
        _assert_error(response, 403, "not_owner")
        assert model.objects.filter(pk=ids[kind]).values().get() == before
    else:
        assert response.status_code == status, response.content


@pytest.mark.parametrize(("who", "status"), [("other", 403), ("organiser", 204), ("staff", 204)])
def test_item02_only_the_owner_or_staff_deletes_a_registry_record(api: Any, world: World, who: str,
                                                                  status: int) -> None:
    ids = _registry(api, world)
    for endpoint, kind in DELETES:
        response = api.delete(f"/api/v1/{endpoint}/{ids[kind]}/", **_as(world, who))
        if status == 403:
            _assert_error(response, 403, "not_owner")
        else:
            assert response.status_code == 204, (endpoint, response.content)
    assert Pair.objects.filter(pk=ids["pair"]).exists() == (status == 403)


def test_item02_another_organiser_cannot_edit_a_pair_entered_in_my_tournament(api: Any, world: World) -> None:
    """tests/api's world enters pairs that the organiser owns: the organiser edits them, the other may not."""
    entry = world.entries[0]
    response = api.patch(f"/api/v1/pairs/{entry.pair_id}/", {"name": "Renamed"}, format="json", **_as(world, "other"))
    _assert_error(response, 403, "not_owner")
    mine = api.patch(f"/api/v1/pairs/{entry.pair_id}/", {"name": "Renamed"}, format="json", **_as(world, "organiser"))
    assert mine.status_code == 200, mine.content


# ---- reads are scoped to the caller's organisations -------------------------------------------------------


@pytest.mark.parametrize(("endpoint", "kind"), [("clubs", "club"), ("players", "player_1"), ("pairs", "pair")])
def test_item02_registry_reads_show_only_my_organisations_records(api: Any, world: World, endpoint: str,
                                                                  kind: str) -> None:
    mine = _registry(api, world, "organiser", "A")
    theirs = _registry(api, world, "other", "B")
    listed_mine = {r["id"] for r in api.get(f"/api/v1/{endpoint}/?limit=500", **_as(world, "organiser")).json()["results"]}
    listed_theirs = {r["id"] for r in api.get(f"/api/v1/{endpoint}/?limit=500", **_as(world, "other")).json()["results"]}
    listed_staff = {r["id"] for r in api.get(f"/api/v1/{endpoint}/?limit=500", **_as(world, "staff")).json()["results"]}
    assert mine[kind] in listed_mine and theirs[kind] not in listed_mine
    assert theirs[kind] in listed_theirs and mine[kind] not in listed_theirs
    assert {mine[kind], theirs[kind]} <= listed_staff
    _assert_error(api.get(f"/api/v1/{endpoint}/{theirs[kind]}/", **_as(world, "organiser")), 404, "not_found")
    assert api.get(f"/api/v1/{endpoint}/{mine[kind]}/", **_as(world, "organiser")).status_code == 200
    assert api.get(f"/api/v1/{endpoint}/{mine[kind]}/", **_as(world, "staff")).status_code == 200


def test_item02_a_record_answers_with_its_owner(api: Any, world: World) -> None:
    from tournaments.services.organisations import organisation_personal

    mine = _registry(api, world)
    personal = organisation_personal(user=world.organiser)
    for endpoint, kind in (("clubs", "club"), ("players", "player_1"), ("pairs", "pair")):
        body = api.get(f"/api/v1/{endpoint}/{mine[kind]}/", **_as(world, "organiser")).json()
        assert body["owner"] == personal.pk, body


# ---- names unique within an organisation; references stay within the caller's organisations ----------------


def test_item02_a_club_name_is_unique_within_its_organisation_only(api: Any, world: World) -> None:
    body = {"name": "Siparia Spades"}
    assert api.post("/api/v1/clubs/", body, format="json", **_as(world, "organiser")).status_code == 201
    assert api.post("/api/v1/clubs/", body, format="json", **_as(world, "other")).status_code == 201
    _assert_error(api.post("/api/v1/clubs/", {"name": "siparia spades"}, format="json", **_as(world, "organiser")),
                  400, "name_taken", "name")
    assert Club.objects.filter(name="Siparia Spades").count() == 2


def test_item02_a_new_record_cannot_use_another_organisations_records(api: Any, world: World) -> None:
    theirs = _registry(api, world, "other", "B")
    headers = _as(world, "organiser")
    _assert_error(api.post("/api/v1/players/", {"name": "X", "club": theirs["club"]}, format="json", **headers),
                  403, "not_owner", "club")
    mine = api.post("/api/v1/players/", {"name": "Mine"}, format="json", **headers).json()
    _assert_error(api.post("/api/v1/pairs/", {"player_1": mine["id"], "player_2": theirs["player_2"]}, format="json",
                           **headers), 403, "not_owner", "player_2")
    other_org = api.get(f"/api/v1/clubs/{theirs['club']}/", **_as(world, "other")).json()["owner"]
    _assert_error(api.post("/api/v1/clubs/", {"name": "Into theirs", "owner": other_org}, format="json", **headers),
                  403, "not_owner", "owner")


# ---- copies ------------------------------------------------------------------------------------------------


def test_item02_a_published_tournaments_pair_is_copied_into_my_organisation_and_entered(api: Any,
                                                                                        world: World) -> None:
    from tournaments.services.organisations import organisation_personal

    original = world.entries[0].pair  # the organiser's, entered in a published tournament
    copied = api.post(f"/api/v1/pairs/{original.pk}/copy/", {}, format="json", **_as(world, "other"))
    assert copied.status_code == 201, copied.content
    copy = Pair.objects.select_related("player_1", "player_2", "club").get(pk=copied.json()["id"])
    theirs = organisation_personal(user=world.other)
    assert copy.pk != original.pk and copy.owner_id == theirs.pk
    assert {copy.player_1.name, copy.player_2.name} == {original.player_1.name, original.player_2.name}
    assert copy.player_1_id not in (original.player_1_id, original.player_2_id)
    assert copy.club is not None and copy.club.name == original.club.name and copy.club_id != original.club_id
    assert copy.club.owner_id == copy.player_1.owner_id == copy.player_2.owner_id == theirs.pk
    entered = _enter(api, world, "other", world.other_tournament, copy.pk)
    assert entered.status_code == 201, entered.content
    again = api.post(f"/api/v1/pairs/{original.pk}/copy/", {}, format="json", **_as(world, "other"))
    assert again.status_code == 200 and again.json()["id"] == copy.pk  # the copy already made
    # The original is untouched and still the organiser's alone.
    original.refresh_from_db()
    assert original.owner_id == organisation_personal(user=world.organiser).pk


def test_item02_a_private_pair_is_not_copyable(api: Any, world: World) -> None:
    mine = _registry(api, world)  # entered nowhere
    _assert_error(api.post(f"/api/v1/pairs/{mine['pair']}/copy/", {}, format="json", **_as(world, "other")), 404,
                  "not_found")
    draft = make_tournament("draft-cup", organiser=world.organiser, published=False)
    assert _enter(api, world, "organiser", draft, mine["pair"]).status_code == 201
    _assert_error(api.post(f"/api/v1/pairs/{mine['pair']}/copy/", {}, format="json", **_as(world, "other")), 404,
                  "not_found")


def test_item02_copyable_pairs_of_a_published_tournament_are_listed(api: Any, world: World) -> None:
    response = api.get(f"/api/v1/pairs/copyable/?tournament={world.tournament.pk}", **_as(world, "other"))
    assert response.status_code == 200, response.content
    assert {p["id"] for p in response.json()["results"]} == {e.pair_id for e in world.entries}
    draft = make_tournament("hidden-cup", organiser=world.organiser, published=False)
    hidden = api.get(f"/api/v1/pairs/copyable/?tournament={draft.pk}", **_as(world, "other"))
    assert hidden.status_code == 200 and hidden.json()["results"] == []


# ---- the CSV import matches clubs and players within the caller's organisations ------------------------------


def test_item02_the_import_matches_only_my_organisations_clubs_and_players(api: Any, world: World) -> None:
    theirs = world.entries[0].pair  # the organiser's club "Carnival club" and its players
    csv = f"player_1,player_2,club,seed\n{theirs.player_1.name},{theirs.player_2.name},{theirs.club.name},1\n"
    response = api.post(f"/api/v1/pairs/import/?tournament={world.other_tournament.pk}", csv, content_type="text/csv",
                        **_as(world, "other"))
    assert response.status_code == 201, response.content
    assert response.json()["clubs_created"] == 1 and response.json()["players_created"] == 2
    entry = Entry.objects.filter(tournament=world.other_tournament).select_related("pair").latest("id")
    assert entry.pair_id != theirs.pk and entry.pair.club_id != theirs.club_id
    assert Club.objects.filter(name=theirs.club.name).count() == 2


# ---- organisations ------------------------------------------------------------------------------------------


def test_item02_every_user_has_one_personal_organisation(db: Any) -> None:
    from tournaments.services.organisations import organisation_personal

    user = make_user("solo")
    first = organisation_personal(user=user)
    assert organisation_personal(user=user).pk == first.pk
    assert first.kind == "personal"
    assert first.members.filter(pk=user.pk).exists()


def test_item02_a_shared_organisations_members_edit_its_records(api: Any, world: World) -> None:
    from tournaments.services.organisations import organisation_member_add

    created = api.post("/api/v1/organisations/", {"name": "Arima League"}, format="json", **_as(world, "organiser"))
    assert created.status_code == 201, created.content
    league = created.json()
    assert league["kind"] == "shared"
    club = api.post("/api/v1/clubs/", {"name": "League Club", "owner": league["id"]}, format="json",
                    **_as(world, "organiser"))
    assert club.status_code == 201 and club.json()["owner"] == league["id"], club.content
    path = f"/api/v1/clubs/{club.json()['id']}/"
    _assert_error(api.patch(path, {"town": "Arima"}, format="json", **_as(world, "other")), 403, "not_owner")
    from tournaments.models import Organisation

    organisation_member_add(organisation=Organisation.objects.get(pk=league["id"]), member=world.other, role="member",
                            user=world.organiser)
    assert api.patch(path, {"town": "Arima"}, format="json", **_as(world, "other")).status_code == 200
    listed = api.get("/api/v1/organisations/", **_as(world, "other")).json()["results"]
    assert league["id"] in {o["id"] for o in listed}


# ---- the migration: owners backfilled, nothing lost ------------------------------------------------------------

BEFORE = [("tournaments", "0005_registration_checkin_accounts")]


@pytest.mark.django_db(transaction=True)
def test_item02_the_migration_gives_every_record_the_organisation_of_its_earliest_organiser() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    Tournament_, Role = old.get_model("tournaments", "Tournament"), old.get_model("tournaments", "TournamentRole")
    Club_, Player_ = old.get_model("tournaments", "Club"), old.get_model("tournaments", "Player")
    Pair_, Entry_ = old.get_model("tournaments", "Pair"), old.get_model("tournaments", "Entry")
    first_org, second_org = User.objects.create(username="first"), User.objects.create(username="second")
    early = Tournament_.objects.create(name="Early", slug="early")
    late = Tournament_.objects.create(name="Late", slug="late")
    Role.objects.create(tournament=early, user=first_org, role="organiser")
    Role.objects.create(tournament=late, user=second_org, role="organiser")
    couva, penal, lonely = (Club_.objects.create(name=n) for n in ("Couva", "Penal", "Lonely"))
    people = [Player_.objects.create(name=f"P{i}", club=couva if i < 4 else penal) for i in range(6)]
    stray = Player_.objects.create(name="Stray", club=lonely)
    both = Pair_.objects.create(player_1=people[0], player_2=people[1], club=couva)
    late_only = Pair_.objects.create(player_1=people[4], player_2=people[5], club=penal)
    unentered = Pair_.objects.create(player_1=people[2], player_2=people[3], club=couva)
    entries = [Entry_.objects.create(tournament=late, pair=both), Entry_.objects.create(tournament=early, pair=both),
               Entry_.objects.create(tournament=late, pair=late_only)]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tournaments"))
    from tournaments.models import Organisation

    first = Organisation.objects.get(personal_user_id=first_org.pk)
    second = Organisation.objects.get(personal_user_id=second_org.pk)
    house = Organisation.objects.get(slug="house")
    assert first.kind == "personal" and first.members.filter(pk=first_org.pk).exists()
    assert not house.members.exists()
    owner = {(m.__name__, pk): oid for m in (Club, Player, Pair) for pk, oid in m.objects.values_list("pk", "owner_id")}
    assert owner[("Pair", both.pk)] == first.pk  # the earliest tournament that entered it
    assert owner[("Pair", late_only.pk)] == second.pk
    assert owner[("Pair", unentered.pk)] == house.pk
    assert owner[("Club", couva.pk)] == first.pk and owner[("Club", penal.pk)] == second.pk
    assert owner[("Club", lonely.pk)] == house.pk and owner[("Player", stray.pk)] == house.pk
    assert owner[("Player", people[0].pk)] == first.pk and owner[("Player", people[4].pk)] == second.pk
    assert owner[("Player", people[2].pk)] == house.pk  # only in a pair never entered
    assert sorted(Entry.objects.values_list("pk", flat=True)) == sorted(e.pk for e in entries)


# ---- the demo: its records are the organiser's ------------------------------------------------------------------


def test_item02_the_demos_records_belong_to_its_organiser(db: Any) -> None:
    from tournaments.services.organisations import organisation_personal

    with override_settings(DEBUG=True):
        call_command("demo", "--port", "8000", stdout=StringIO())
    tournament = Tournament.objects.get(slug="hang-jack-demo-open")
    organiser = tournament.roles.get().user
    personal = organisation_personal(user=organiser)
    pairs = Pair.objects.filter(entries__tournament=tournament)
    assert pairs.count() == 16
    assert set(pairs.values_list("owner_id", flat=True)) == {personal.pk}
    assert set(Player.objects.filter(club__pairs__in=pairs).values_list("owner_id", flat=True)) == {personal.pk}
    assert set(Club.objects.filter(pairs__in=pairs).values_list("owner_id", flat=True)) == {personal.pk}
    headers = {"HTTP_AUTHORIZATION": f"Token {token_for(organiser)}"}
    listed = APIClient().get("/api/v1/pairs/?limit=100", **headers).json()
    assert listed["count"] == 16
