"""Issue 11 item 11: names accept only visible text.

Every name a registry write stores (clubs: name, short name, town; players; pairs; tournaments: name and
venue; organisations) refuses control (Cc) and format (Cf) characters (zero-width spaces, bidi overrides,
NUL) and needs at least one visible character: 400 ``name_invalid`` with ``fields[<field>]``. A name is
stored in Unicode NFC (``"Jose\\u0301"`` is stored ``"José"``). Table-driven over every name field of
every registry endpoint, POST and PATCH, and every name column of the pairs CSV import; and over every
Cc and Cf code point for the one validator (``tournaments.services._rules.clean_name``).

Before: a club named three zero-width spaces, a player "evil\\u202e" (which displays as "live" reversed
text after it) and an NFD name were all stored as sent.

A NUL never reaches a service through the API: the API's parsers refuse it anywhere in a JSON or CSV body
(400 ``parse_error``: PostgreSQL cannot store it), as they did before; the services refuse it as
``name_invalid`` (the validator's table below).
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest

from tests.api.conftest import World
from tournaments.models import Club, Pair, Player, Tournament

pytestmark = pytest.mark.django_db


BAD_NAMES = {
    "zero-width spaces": "\u200b\u200b\u200b",
    "right-to-left override": "evil\u202e",
    "NUL": "a\u0000b",
    "only spaces": "  ",
}
NFD = "Jose\u0301"
NFC = "Jos\u00e9"


def _org(world: World) -> dict[str, str]:
    return world.auth("organiser")


def _club(api: Any, world: World) -> dict[str, Any]:
    response = api.post("/api/v1/clubs/", {"name": "Names Club"}, format="json", **_org(world))
    assert response.status_code == 201, response.content
    return response.json()


def _player(api: Any, world: World, name: str = "Names Player") -> dict[str, Any]:
    response = api.post("/api/v1/players/", {"name": name}, format="json", **_org(world))
    assert response.status_code == 201, response.content
    return response.json()


def _pair_body(api: Any, world: World) -> dict[str, Any]:
    return {"player_1": _player(api, world, "Names One")["id"], "player_2": _player(api, world, "Names Two")["id"]}


def _organisation(api: Any, world: World) -> dict[str, Any]:
    response = api.post("/api/v1/organisations/", {"name": "Names League"}, format="json", **_org(world))
    assert response.status_code == 201, response.content
    return response.json()


#: (endpoint, field, a valid POST body without the field, the object to PATCH, the model and its field)
Base = Callable[[Any, World], dict[str, Any]]
ENDPOINTS: list[tuple[str, str, Base, Callable[[Any, World], int], Any]] = [
    ("clubs", "name", lambda a, w: {}, lambda a, w: _club(a, w)["id"], Club),
    ("clubs", "short_name", lambda a, w: {"name": "Short Club"}, lambda a, w: _club(a, w)["id"], Club),
    ("clubs", "town", lambda a, w: {"name": "Town Club"}, lambda a, w: _club(a, w)["id"], Club),
    ("players", "name", lambda a, w: {}, lambda a, w: _player(a, w)["id"], Player),
    ("pairs", "name", _pair_body, lambda a, w: a.post("/api/v1/pairs/", _pair_body(a, w), format="json",
                                                       **_org(w)).json()["id"], Pair),
    ("tournaments", "name", lambda a, w: {"slug": "names-cup"}, lambda a, w: w.tournament.pk, Tournament),
    ("tournaments", "venue", lambda a, w: {"name": "Venue Cup", "slug": "venue-cup"}, lambda a, w: w.tournament.pk,
     Tournament),
    ("organisations", "name", lambda a, w: {}, lambda a, w: _organisation(a, w)["id"], None),
]
CASES = [(e, f, b, t, m) for e, f, b, t, m in ENDPOINTS]
IDS = [f"{e}.{f}" for e, f, *_ in ENDPOINTS]


def _assert_name_invalid(response: Any, field: str, bad: str = "") -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    if "\x00" in bad:
        assert error["code"] == "parse_error", error  # refused by the parser, before any view
        return
    assert error["code"] == "name_invalid", error
    assert field in error["fields"], error


@pytest.mark.parametrize("bad", list(BAD_NAMES.values()), ids=list(BAD_NAMES))
@pytest.mark.parametrize(("endpoint", "field", "base", "target", "model"), CASES, ids=IDS)
def test_item11_post_refuses_an_invisible_or_control_name(api: Any, world: World, endpoint: str, field: str,
                                                           base: Base, target: Any, model: Any, bad: str) -> None:
    body = {**base(api, world), field: bad}
    before = model.objects.count() if model is not None else 0
    _assert_name_invalid(api.post(f"/api/v1/{endpoint}/", body, format="json", **_org(world)), field, bad)
    if model is not None:
        assert model.objects.count() == before


@pytest.mark.parametrize("bad", list(BAD_NAMES.values()), ids=list(BAD_NAMES))
@pytest.mark.parametrize(("endpoint", "field", "base", "target", "model"), CASES, ids=IDS)
def test_item11_patch_refuses_an_invisible_or_control_name(api: Any, world: World, endpoint: str, field: str,
                                                            base: Base, target: Any, model: Any, bad: str) -> None:
    pk = target(api, world)
    response = api.patch(f"/api/v1/{endpoint}/{pk}/", {field: bad}, format="json", **_org(world))
    _assert_name_invalid(response, field, bad)
    if model is not None:
        assert getattr(model.objects.get(pk=pk), field) != bad


@pytest.mark.parametrize(("endpoint", "field", "base", "target", "model"), CASES, ids=IDS)
def test_item11_a_name_is_stored_nfc_on_post_and_patch(api: Any, world: World, endpoint: str, field: str,
                                                       base: Base, target: Any, model: Any) -> None:
    body = {**base(api, world), field: NFD}
    if endpoint == "tournaments":
        body["slug"] = f"nfc-{field}"
        body.setdefault("name", "NFC Cup")
    if endpoint == "clubs" and field != "name":
        body["name"] = f"NFC club {field}"
    created = api.post(f"/api/v1/{endpoint}/", body, format="json", **_org(world))
    assert created.status_code == 201, created.content
    assert created.json()[field] == NFC
    pk = target(api, world)
    changed = api.patch(f"/api/v1/{endpoint}/{pk}/", {field: NFD + "s"}, format="json", **_org(world))
    assert changed.status_code == 200, changed.content
    assert changed.json()[field] == NFC + "s"
    if model is not None:
        assert getattr(model.objects.get(pk=created.json()["id"]), field) == NFC
        assert getattr(model.objects.get(pk=pk), field) == NFC + "s"


# ---- the pairs CSV import -------------------------------------------------------------------------------


def _import(api: Any, world: World, row: str) -> Any:
    return api.post("/api/v1/pairs/import/", "player_1,player_2,club,seed\n" + row + "\n", content_type="text/csv",
                    **_org(world))


@pytest.mark.parametrize("bad", [v for k, v in BAD_NAMES.items() if k != "only spaces"],
                         ids=[k for k in BAD_NAMES if k != "only spaces"])
@pytest.mark.parametrize("column", ["player_1", "player_2", "club"])
def test_item11_the_csv_import_refuses_an_invisible_or_control_name(api: Any, world: World, column: str,
                                                                    bad: str) -> None:
    cells = {"player_1": "Ann Lee", "player_2": "Bob Ali", "club": "Import Club"}
    cells[column] = bad
    response = _import(api, world, f"{cells['player_1']},{cells['player_2']},{cells['club']},1")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    if "\x00" in bad:
        assert error["code"] == "parse_error", error
    else:
        assert error["code"] == "csv_rows_invalid", error
        assert column in error["fields"]["line 2"], error
    assert not Player.objects.filter(name="Ann Lee").exists()
    assert not Club.objects.filter(name="Import Club").exists()


def test_item11_the_import_service_refuses_a_nul_in_a_name(db: Any) -> None:
    from tournaments.services.imports import PairsImportRefused, pairs_import

    with pytest.raises(PairsImportRefused) as caught:
        pairs_import(data="player_1,player_2,club,seed\nAnn\x00Lee,Bob Ali,,1\n", user=None)
    assert "player_1" in caught.value.fields["line 2"]


def test_item11_the_csv_import_stores_names_nfc(api: Any, world: World) -> None:
    response = _import(api, world, f"{NFD},Bob Ali,Club {NFD},1")
    assert response.status_code == 201, response.content
    assert Player.objects.filter(name=NFC).exists() and not Player.objects.filter(name=NFD).exists()
    assert Club.objects.filter(name=f"Club {NFC}").exists()


# ---- the one validator ------------------------------------------------------------------------------------


def _code_points(*categories: str) -> list[str]:
    return [chr(c) for c in range(sys.maxunicode + 1)
            if unicodedata.category(chr(c)) in categories and not 0xD800 <= c <= 0xDFFF]


def test_item11_every_control_and_format_character_is_refused() -> None:
    from tournaments.services._rules import clean_name
    from tournaments.services.errors import ValidationFailed

    refused = _code_points("Cc", "Cf")
    assert len(refused) > 150
    for char in refused:
        with pytest.raises(ValidationFailed) as caught:
            clean_name(f"Ann{char}Lee", "name")
        assert caught.value.code == "name_invalid" and "name" in (caught.value.fields or {}), repr(char)


@pytest.mark.parametrize("value", ["", " ", "\u3000", "\u0301", "\u2800", "\u3164", "\t\n"])
def test_item11_a_name_needs_a_visible_character(value: str) -> None:
    from tournaments.services._rules import clean_name
    from tournaments.services.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as caught:
        clean_name(value, "town", required=True)
    assert caught.value.code == "name_invalid"


@pytest.mark.parametrize(("value", "stored"), [
    (NFD, NFC), ("  Couva Kings  ", "Couva Kings"), ("Ramdass-O'Neil", "Ramdass-O'Neil"), ("Zoë 🂡", "Zoë 🂡"),
    ("São Tomé", "São Tomé"), ("", ""),
])
def test_item11_visible_names_are_kept_in_nfc(value: str, stored: str) -> None:
    from tournaments.services._rules import clean_name

    assert clean_name(value, "name") == stored


# ---- every registry write service, called directly (what the console and the admin call) ------------------


def _service_cases() -> list[tuple[str, Callable[[Any, str], Any]]]:
    from tournaments import services

    def club(user: Any, bad: str, field: str = "name") -> Any:
        return services.club_create(user=user, **{"name": "Svc Club", field: bad})

    def club_update(user: Any, bad: str, field: str = "name") -> Any:
        return services.club_update(club=services.club_create(name="Svc Upd", user=user), user=user, **{field: bad})

    def pair(user: Any, bad: str) -> Any:
        p1, p2 = (services.player_create(name=n, user=user) for n in ("Svc One", "Svc Two"))
        return services.pair_create(player_1=p1, player_2=p2, name=bad, user=user)

    return [
        ("club_create name", club),
        ("club_create short_name", lambda u, b: club(u, b, "short_name")),
        ("club_create town", lambda u, b: club(u, b, "town")),
        ("club_update name", club_update),
        ("club_update town", lambda u, b: club_update(u, b, "town")),
        ("player_create", lambda u, b: services.player_create(name=b, user=u)),
        ("player_update", lambda u, b: services.player_update(
            player=services.player_create(name="Svc P", user=u), name=b, user=u)),
        ("pair_create", pair),
        ("tournament_create name", lambda u, b: services.tournament_create(name=b, slug="svc-cup", user=u)),
        ("tournament_create venue", lambda u, b: services.tournament_create(name="Svc", slug="svc-cup", venue=b,
                                                                            user=u)),
        ("tournament_update name", lambda u, b: services.tournament_update(
            tournament=services.tournament_create(name="Svc", slug="svc-cup", user=u), name=b, user=u)),
        ("organisation_create", lambda u, b: services.organisation_create(name=b, user=u)),
        ("organisation_update", lambda u, b: services.organisation_update(
            organisation=services.organisation_create(name="Svc League", user=u), name=b, user=u)),
    ]


@pytest.mark.parametrize("bad", ["a\x00b", "\u200b", "evil\u202e", " \t "], ids=["NUL", "zero-width", "RLO", "blank"])
@pytest.mark.parametrize("case", range(13))
def test_item11_every_registry_write_service_refuses_a_bad_name(db: Any, case: int, bad: str) -> None:
    from tests.api.conftest import make_user
    from tournaments.services.errors import ValidationFailed

    name, call = _service_cases()[case]
    with pytest.raises(ValidationFailed) as caught:
        call(make_user("svc"), bad)
    assert caught.value.code == "name_invalid", (name, caught.value)


def test_item11_a_stored_name_is_not_checked_again_when_another_field_changes(db: Any) -> None:
    """No backfill: a name stored before the check stays, and the record's other fields still change."""
    from tests.api.conftest import make_user
    from tournaments import services

    user = make_user("legacy")
    club = services.club_create(name="Legacy", user=user)
    Club.objects.filter(pk=club.pk).update(name="\u200bLegacy")
    changed = services.club_update(club=club, town="Toco", user=user)
    assert changed.name == "\u200bLegacy" and changed.town == "Toco"
