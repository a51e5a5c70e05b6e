"""The registry through the API (issue 10): every tie-break the ranking core computes is accepted in any
order, bye policies and formats are checked by the registry and stored canonical, the OpenAPI enums are
built from the registry when the document is generated, ``GET /tournaments/formats/`` lists the choices,
and a tie-break registered at run time reaches all of them and the ranking."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from tournaments import formats
from tournaments.formats import TIE_BREAKS, TieBreak
from tournaments.models import Entry, Tournament
from tournaments.ranking import BoardResult, RankingConfig, compute_standings, implemented_tie_breaks
from tournaments.ranking.keys import ROW_KEYS

from .conftest import World, make_entries, make_user, token_for

pytestmark = pytest.mark.django_db

LEAGUE_ORDER = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]
FORMATS = "/api/v1/tournaments/formats/"


def org(world: World) -> dict[str, str]:
    return world.auth("organiser")


def new_tournament(api: Any, world: World, **settings: Any) -> Any:
    body = {"name": "Arima League", "slug": "arima-league", **settings}
    return api.post("/api/v1/tournaments/", body, format="json", **org(world))


def between_rounds(world: World) -> None:
    """The world's round closed: tie-breaks change between rounds only (issue 11 item 4)."""
    world.round.status = "closed"
    world.round.save(update_fields=["status"])


def assert_error(response: Any, status: int, code: str, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) >= {"code", "message"} and error["code"] == code, error
    if field:
        assert field in error["fields"], error
    return error


# ---- the league's tie-break order (refused before the registry) -------------------------------------------


def test_the_league_tie_break_order_is_accepted_on_create_and_on_change(api: Any, world: World) -> None:
    created = new_tournament(api, world, tiebreaks=LEAGUE_ORDER)
    assert created.status_code == 201, created.content
    assert created.json()["tiebreaks"] == LEAGUE_ORDER
    assert Tournament.objects.get(slug="arima-league").tiebreaks == LEAGUE_ORDER
    between_rounds(world)
    changed = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"tiebreaks": LEAGUE_ORDER}, format="json",
                        **org(world))
    assert changed.status_code == 200, changed.content
    assert changed.json()["tiebreaks"] == LEAGUE_ORDER
    world.tournament.refresh_from_db()
    assert world.tournament.tie_break_order() == tuple(LEAGUE_ORDER)


def test_every_tie_break_the_ranking_core_computes_is_accepted_in_any_order(api: Any, world: World) -> None:
    every = sorted(implemented_tie_breaks(), reverse=True)
    between_rounds(world)
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"tiebreaks": every}, format="json",
                         **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["tiebreaks"] == every


@pytest.mark.parametrize(
    ("tiebreaks", "code", "field"),
    [(["wins", "coin_toss"], "unknown_tie_break", "tiebreaks[1]"), (["wins", "wins"], "repeated_tie_break",
      "tiebreaks[1]"), ([], "no_tie_breaks", "tiebreaks"), ("wins", "not_a_list", "tiebreaks")],
)
def test_a_bad_tie_break_list_names_the_item(api: Any, world: World, tiebreaks: Any, code: str, field: str) -> None:
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"tiebreaks": tiebreaks}, format="json",
                         **org(world))
    assert_error(response, 400, code, field)


# ---- formats and byes -----------------------------------------------------------------------------------


def test_a_bye_preset_is_stored_spelled_out(api: Any, world: World) -> None:
    response = new_tournament(api, world, bye_policy="league", match_format={"kind": "first_to", "n": 17})
    assert response.status_code == 201, response.content
    assert response.json()["bye_policy"] == formats.BYE_PRESETS["league"].policy.to_dict()
    custom = {"result": "draw", "bullseyes": {"for": {"source": "fixed", "value": 1}}}
    response = api.patch(f"/api/v1/tournaments/{response.json()['id']}/", {"bye_policy": custom}, format="json",
                         **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["bye_policy"]["bullseyes"]["for"] == {"source": "fixed", "value": 1}
    assert response.json()["bye_policy"]["chalks"]["for"] == {"source": "round_average"}


def test_a_bye_of_the_race_target_needs_an_event_with_one(api: Any, world: World) -> None:
    response = new_tournament(api, world, bye_policy="league", match_format={"kind": "games", "n": 3})
    assert_error(response, 400, "no_race_target", "bye_policy")
    assert not Tournament.objects.filter(slug="arima-league").exists()


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"match_format": {"kind": "race", "n": 3}}, "bad_kind", "match_format.kind"),
        ({"team_format": {"boards": 0, "kind": "games", "n": 1}}, "out_of_range", "team_format.boards"),
        ({"entrant_type": "club_teams"}, "team_format_required", "team_format"),
        ({"bye_policy": {"hang_jacks": {"against": {"source": "fixed"}}}}, "out_of_range",
         "bye_policy.hang_jacks.against.value"),
        ({"time_called": "never"}, "invalid_choice", "time_called"),
        ({"starts_on": "2026-02-14", "ends_on": "2026-02-01"}, "ends_before_starts", "ends_on"),
    ],
)
def test_settings_are_refused_by_the_registry(api: Any, world: World, settings: dict[str, Any], code: str,
                                              field: str) -> None:
    assert_error(new_tournament(api, world, **settings), 400, code, field)


def test_a_tournament_cannot_qualify_from_itself(api: Any, world: World) -> None:
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"qualifies_from": world.tournament.pk},
                         format="json", **org(world))
    assert_error(response, 400, "qualifies_from_itself", "qualifies_from")


def test_deleting_a_tournament_goes_through_its_service(api: Any, world: World) -> None:
    assert_error(api.delete(f"/api/v1/tournaments/{world.tournament.pk}/", **org(world)), 409,
                 "tournament_has_rounds", "")
    created = new_tournament(api, world).json()
    assert api.delete(f"/api/v1/tournaments/{created['id']}/", **org(world)).status_code == 204
    assert not Tournament.objects.filter(pk=created["id"]).exists()


# ---- entries and people ---------------------------------------------------------------------------------


def test_entry_refusals_come_from_the_services(api: Any, world: World) -> None:
    path = f"/api/v1/tournaments/{world.tournament.pk}/entries/"
    taken = api.post(path, {"pair": world.entries[0].pair_id}, format="json", **org(world))
    assert_error(taken, 400, "pair_already_entered", "pair")
    played = api.delete(f"{path}{world.entries[0].pk}/", **org(world))
    assert_error(played, 409, "entry_has_boards", "")
    spare = make_entries(world.other_tournament, 1, "Spare")[0]
    Tournament.objects.filter(pk=world.tournament.pk).update(status="finished")
    finished = api.post(path, {"pair": spare.pair_id}, format="json", **org(world))
    assert_error(finished, 409, "tournament_finished", "")
    assert not Entry.objects.filter(tournament=world.tournament, pair=spare.pair).exists()


def test_people_refusals_come_from_the_services(api: Any, world: World) -> None:
    player = world.entries[0].pair.player_1_id
    same = api.post("/api/v1/pairs/", {"player_1": player, "player_2": player}, format="json", **org(world))
    assert_error(same, 400, "same_player", "player_2")
    in_use = api.delete(f"/api/v1/players/{player}/", **org(world))
    assert_error(in_use, 409, "in_use", "")
    created = api.post("/api/v1/clubs/", {"name": "Siparia Spades"}, format="json", **org(world))
    renamed = api.patch(f"/api/v1/clubs/{created.json()['id']}/", {"town": "Siparia"}, format="json", **org(world))
    assert renamed.status_code == 200 and renamed.json()["town"] == "Siparia"
    assert api.delete(f"/api/v1/clubs/{created.json()['id']}/", **org(world)).status_code == 204


def test_a_new_organiser_creates_a_tournament_with_the_registrys_defaults(api: Any, db: Any) -> None:
    user = make_user("fresh", organise=True)
    response = api.post("/api/v1/tournaments/", {"name": "Fresh Cup", "slug": "fresh-cup"}, format="json",
                        HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["tiebreaks"] == list(formats.DEFAULT_TIE_BREAKS)
    assert body["bye_policy"] == formats.DEFAULT_BYE_POLICY.to_dict()
    assert body["match_format"] == formats.DEFAULT_MATCH_FORMAT.to_dict()


# ---- the OpenAPI document: built from the registry, compared with the ranking core ------------------------


def document() -> dict[str, Any]:
    """A freshly generated document (not the cached one of test_openapi: registrations may have changed)."""
    from drf_spectacular.generators import SchemaGenerator

    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))


def resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = doc["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def setting(doc: dict[str, Any], component: str, name: str) -> dict[str, Any]:
    return resolve(doc, doc["components"]["schemas"][component]["properties"][name])


def tiebreak_enum(doc: dict[str, Any], component: str = "TournamentRequest") -> list[str]:
    order = setting(doc, component, "tiebreaks")
    assert order["type"] == "array" and order["uniqueItems"] is True
    return resolve(doc, order["items"])["enum"]


@pytest.mark.parametrize("component", ["TournamentRequest", "PatchedTournamentRequest", "Tournament"])
def test_the_tie_break_enum_is_every_tie_break_the_ranking_core_computes(component: str) -> None:
    enum = tiebreak_enum(document(), component)
    assert sorted(enum) == sorted(implemented_tie_breaks())
    assert len(enum) == len(set(enum)) == 12


def test_the_format_and_bye_enums_are_the_registrys() -> None:
    doc = document()
    match = setting(doc, "TournamentRequest", "match_format")
    assert resolve(doc, match["properties"]["kind"])["enum"] == [k.value for k in formats.CHOSEN_MATCH_KINDS]
    team = setting(doc, "TournamentRequest", "team_format")
    team_object = resolve(doc, next(v for v in team["oneOf"] if v.get("type") != "null"))
    assert resolve(doc, team_object["properties"]["kind"])["enum"] == [k.value for k in formats.TeamKind]
    bye = setting(doc, "TournamentRequest", "bye_policy")
    preset, rules = (resolve(doc, variant) for variant in bye["oneOf"])
    assert preset["enum"] == list(formats.BYE_PRESETS)
    assert resolve(doc, rules["properties"]["result"])["enum"] == [r.value for r in formats.Result]
    figure = resolve(doc, rules["properties"]["bullseyes"])
    assert set(figure["properties"]) == {"for", "against"}
    source = resolve(doc, figure["properties"]["for"])
    assert resolve(doc, source["properties"]["source"])["enum"] == [k.value for k in formats.SourceKind]
    assert set(rules["properties"]) == {"preset", "result", "bullseyes", "chalks", "hang_jacks"}
    answer = setting(doc, "Tournament", "bye_policy")
    assert answer is rules or answer == rules  # answers carry the stored (spelled-out) form
    for name, enum in (("entrant_type", formats.EntrantType), ("pairing_system", formats.PairingSystem),
                       ("time_called", formats.TimeCalled)):
        assert setting(doc, "TournamentRequest", name)["enum"] == [m.value for m in enum]
    assert setting(doc, "TournamentRequest", "club_avoidance")["maximum"] == formats.ClubAvoidance.STRONG.level


def test_the_formats_endpoint_is_documented_with_an_example() -> None:
    op = document()["paths"][FORMATS]["get"]
    content = op["responses"]["200"]["content"]["application/json"]
    assert content["examples"]
    assert "security" not in op  # public, like the public reads
    example = next(iter(content["examples"].values()))["value"]
    assert {t["name"] for t in example["tie_breaks"]} == set(implemented_tie_breaks())


# ---- GET /tournaments/formats/ ---------------------------------------------------------------------------


def test_the_formats_endpoint_lists_the_registrys_choices_without_login(api: Any, db: Any) -> None:
    response = api.get(FORMATS)
    assert response.status_code == 200, response.content
    body = response.json()
    assert [t["name"] for t in body["tie_breaks"]] == list(TIE_BREAKS.names())
    assert set(t["name"] for t in body["tie_breaks"]) == set(implemented_tie_breaks())
    for tie_break in body["tie_breaks"]:
        assert tie_break["label"] and tie_break["short"] and tie_break["explanation"]
    lost = next(t for t in body["tie_breaks"] if t["name"] == "bullseyes_lost")
    assert lost["higher_is_better"] is False
    assert [k["name"] for k in body["match_kinds"]] == [k.value for k in formats.CHOSEN_MATCH_KINDS]
    assert [k["name"] for k in body["team_kinds"]] == [k.value for k in formats.TeamKind]
    assert [p["name"] for p in body["bye_presets"]] == list(formats.BYE_PRESETS)
    league = next(p for p in body["bye_presets"] if p["name"] == "league")
    assert league["policy"] == formats.BYE_PRESETS["league"].policy.to_dict() and "race target" in league["explanation"]
    assert [s["name"] for s in body["bye_sources"]] == [k.value for k in formats.SourceKind]
    assert [e["name"] for e in body["entrant_types"]] == [e.value for e in formats.EntrantType]
    assert [e["name"] for e in body["pairing_systems"]] == [e.value for e in formats.PairingSystem]
    assert [e["name"] for e in body["time_called"]] == [e.value for e in formats.TimeCalled]
    assert all(e["explanation"] for group in ("entrant_types", "pairing_systems", "time_called") for e in body[group])
    assert body["defaults"]["tiebreaks"] == list(formats.DEFAULT_TIE_BREAKS)
    assert body["defaults"]["bye_policy"] == "round_average"


# ---- a tie-break registered at run time reaches the API, the document, the endpoint and the ranking -------


@pytest.fixture
def fake_tie_break(monkeypatch: pytest.MonkeyPatch) -> Iterator[TieBreak]:
    """A tie-break registered where docs/README.md says a new one goes: the registry and the ranking's
    row keys (more chalks conceded ranks higher: the opposite of what the real ones reward)."""
    fake = TieBreak("most_conceded", "Most chalks conceded", "Conc.", "A test's own tie-break.", "chalks conceded")
    TIE_BREAKS.register(fake)
    monkeypatch.setitem(ROW_KEYS, fake.name, lambda row: row.chalks_against)
    yield fake
    TIE_BREAKS.unregister(fake.name)


def test_a_registered_tie_break_reaches_the_api_the_document_the_endpoint_and_the_ranking(
    api: Any, world: World, fake_tie_break: TieBreak
) -> None:
    name = fake_tie_break.name
    assert name in implemented_tie_breaks()
    between_rounds(world)
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"tiebreaks": [name, "wins"]}, format="json",
                         **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["tiebreaks"] == [name, "wins"]
    assert name in tiebreak_enum(document())
    assert sorted(tiebreak_enum(document())) == sorted(implemented_tie_breaks())
    listed = {t["name"]: t for t in api.get(FORMATS).json()["tie_breaks"]}
    assert listed[name]["label"] == "Most chalks conceded"
    # The ranking: pair 1 won the board 2-0 (chalks 28-10), so the real tie-breaks put it first; by the fake,
    # the pair that conceded more chalks (pair 2, 28) ranks first.
    board = BoardResult(1, 1, 2, bullseyes=(2, 0), chalks=(28, 10), decided=True)
    assert compute_standings([1, 2], [board]).ranked_ids() == (1, 2)
    by_fake = compute_standings([1, 2], [board], config=RankingConfig(tie_breaks=(name,)))
    assert by_fake.ranked_ids() == (2, 1)
    assert by_fake.row(2).chalks_against == Fraction(28)


def test_the_fake_tie_break_is_gone_afterwards() -> None:
    assert "most_conceded" not in TIE_BREAKS and "most_conceded" not in ROW_KEYS
    assert sorted(tiebreak_enum(document())) == sorted(implemented_tie_breaks())
