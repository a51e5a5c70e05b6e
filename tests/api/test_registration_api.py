"""Registration over the API (issue 12): the import's preview, check and commit, availability per round, and an
entry's tags and fee through the entry endpoint; every endpoint with every wrong credential and bad input,
never a 500, nothing changed by a refusal."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from tournaments.models import Availability, Club, Entry, Pair, Player, Tournament, TournamentRole
from tournaments.services.devices import device_revoke

from .conftest import World, make_user, token_for

pytestmark = pytest.mark.django_db

CSV = (b"player_1,player_2,club,seed,tags\n"
       b"Kenrick Baptiste,Ria Mohammed,Couva Kings,5,ladies\n"
       b",Joy Charles,Couva Kings,6,\n")
GOOD_ROWS = [{"line": 2, "player_1": "Kenrick Baptiste", "player_2": "Ria Mohammed", "club": "Couva Kings",
              "seed": "5", "tags": ["ladies"]},
             {"line": 3, "player_1": "Anil Ramdeen", "player_2": "Joy Charles", "club": "Couva Kings", "seed": 6}]


def base(world: World) -> str:
    return f"/api/v1/tournaments/{world.tournament.pk}"


def fingerprint() -> tuple[Any, ...]:
    return (Club.objects.count(), Player.objects.count(), Pair.objects.count(),
            list(Entry.objects.order_by("pk").values_list("pk", "seed", "tags", "fee_paid", "withdrawn")),
            list(Availability.objects.order_by("pk").values_list("pk", "state")))


def upload(data: bytes = CSV, name: str = "pairs.csv") -> dict[str, Any]:
    return {"file": SimpleUploadedFile(name, data)}


def call(api: Any, world: World, operation: str, who: str = "organiser") -> Any:
    """One of the registration operations, as ``who``."""
    headers = world.auth(who)
    entry = world.entries[0]
    if operation == "preview":
        return api.post(f"{base(world)}/entries/import/preview/", upload(), format="multipart", **headers)
    if operation == "check":
        return api.post(f"{base(world)}/entries/import/check/", {"rows": GOOD_ROWS}, format="json", **headers)
    if operation == "commit":
        return api.post(f"{base(world)}/entries/import/", {"rows": GOOD_ROWS}, format="json", **headers)
    if operation == "availability":
        return api.put(f"{base(world)}/entries/{entry.pk}/availability/2/", {"state": "absent"}, format="json",
                       **headers)
    if operation == "field":
        return api.get(f"{base(world)}/availability/2/", **headers)
    if operation == "entry tags":
        return api.patch(f"{base(world)}/entries/{entry.pk}/", {"tags": "Ladies; seniors", "fee_paid": True},
                         format="json", **headers)
    raise AssertionError(operation)


OPERATIONS = ["preview", "check", "commit", "availability", "field", "entry tags"]


# ---- wrong credentials ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("who", "expected"), [("anon", 401), ("tablet", 403), ("revoked", 401), ("other", 403),
                                               ("garbage", 401)])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_wrong_credentials_are_refused_and_change_nothing(api: Any, world: World, operation: str, who: str,
                                                          expected: int) -> None:
    if who == "revoked":
        device_revoke(device=world.tablet, user=world.organiser)
        who = "tablet"
    before = fingerprint()
    if who == "garbage":
        api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
        who = "anon"
    response = call(api, world, operation, who)
    assert response.status_code == expected, (operation, who, response.content)
    assert set(response.json()["error"]) >= {"code", "message"}
    assert fingerprint() == before


@pytest.mark.parametrize("operation", ["preview", "check", "commit", "entry tags"])
def test_a_scorekeeper_may_not_import_or_change_entries(api: Any, world: World, operation: str) -> None:
    scorekeeper = make_user("door")
    TournamentRole.objects.create(tournament=world.tournament, user=scorekeeper, role="scorekeeper")
    before = fingerprint()
    response = _as(api, world, scorekeeper, operation)
    assert response.status_code == 403, response.content
    assert fingerprint() == before


def _as(api: Any, world: World, user: Any, operation: str) -> Any:
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return call(api, world, operation, "anon")


def test_a_scorekeeper_checks_pairs_in(api: Any, world: World) -> None:
    scorekeeper = make_user("door")
    TournamentRole.objects.create(tournament=world.tournament, user=scorekeeper, role="scorekeeper")
    assert _as(api, world, scorekeeper, "availability").status_code == 200
    assert Availability.objects.get(entry=world.entries[0], round_number=2).state == "absent"
    assert _as(api, world, scorekeeper, "field").status_code == 200


def test_staff_may_import_into_any_tournament(api: Any, world: World) -> None:
    response = call(api, world, "commit", "staff")
    assert response.status_code == 201, response.content


# ---- the import --------------------------------------------------------------------------------------------
def test_preview_then_commit_the_corrected_rows(api: Any, world: World) -> None:
    before = fingerprint()
    preview = call(api, world, "preview")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert fingerprint() == before, "a preview stores nothing"
    assert body["kind"] == "csv" and not body["ok"] and body["counts"]["rows_with_errors"] == 1
    good, bad = body["rows"]
    assert good["ok"] and good["actions"]["pair"] == "new" and good["outcome"].startswith("New pair")
    assert bad["errors"] == {"player_1": "player_1 is empty"}
    rows = [{k: row[k] for k in ("line", "player_1", "player_2", "club", "seed", "tags")} for row in body["rows"]]
    refused = api.post(f"{base(world)}/entries/import/", {"rows": rows}, format="json", **world.auth("organiser"))
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "import_rows_invalid"
    assert refused.json()["error"]["fields"] == {"rows[1].player_1": "player_1 is empty"}
    assert fingerprint() == before
    rows[1]["player_1"] = "Anil Ramdeen"
    checked = api.post(f"{base(world)}/entries/import/check/", {"rows": rows}, format="json",
                       **world.auth("organiser"))
    assert checked.status_code == 200 and checked.json()["ok"]
    stored = api.post(f"{base(world)}/entries/import/", {"rows": rows}, format="json", **world.auth("organiser"))
    assert stored.status_code == 201, stored.content
    assert stored.json()["entries_created"] == 2 and stored.json()["clubs_created"] == 1
    assert Entry.objects.filter(tournament=world.tournament).count() == 6
    assert Entry.objects.get(tournament=world.tournament, seed=5).tags == ["ladies"]


def test_an_xlsx_preview(api: Any, world: World) -> None:
    book = Workbook()
    book.active.append(["player_1", "player_2", "club", "seed"])
    book.active.append(["Kenrick Baptiste", "Ria Mohammed", None, 7.0])
    out = io.BytesIO()
    book.save(out)
    response = api.post(f"{base(world)}/entries/import/preview/", upload(out.getvalue(), "list.xlsx"),
                        format="multipart", **world.auth("organiser"))
    assert response.status_code == 200 and response.json()["kind"] == "xlsx"
    assert response.json()["rows"][0]["seed"] == "7" and response.json()["ok"]


@pytest.mark.parametrize(("data", "name", "code"), [
    (b"", "x.csv", "file"),
    (b"name,partner\nA,B\n", "x.csv", "import_unreadable"),
    (b"PK\x03\x04garbage", "x.xlsx", "import_unreadable"),
    (b"player_1,player_2,club,seed\n", "x.csv", "import_empty"),
    (b"\x00\x01\x02", "x.csv", "import_unreadable"),
])
def test_a_bad_file_is_a_400_with_its_reason(api: Any, world: World, data: bytes, name: str, code: str) -> None:
    response = api.post(f"{base(world)}/entries/import/preview/", upload(data, name), format="multipart",
                        **world.auth("organiser"))
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code or code in error.get("fields", {})


def test_a_preview_without_a_file_or_as_json_is_refused(api: Any, world: World) -> None:
    path = f"{base(world)}/entries/import/preview/"
    assert api.post(path, {}, format="multipart", **world.auth("organiser")).status_code == 400
    assert api.post(path, {"file": "x"}, format="json", **world.auth("organiser")).status_code == 415


def test_a_file_too_large_is_refused(api: Any, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from api.views import registration

    monkeypatch.setattr(registration, "MAX_BYTES", 10)
    response = call(api, world, "preview")
    assert response.status_code == 400 and response.json()["error"]["code"] == "import_too_large"


@pytest.mark.parametrize("body", [
    {}, {"rows": "x"}, {"rows": []}, {"rows": [1, 2]}, {"rows": [{"player_1": {"a": 1}}]},
    {"rows": [{"player_1": "A", "player_2": "B", "line": -1}]}, {"rows": [{"pair": 3}]},
    {"rows": [{"player_1": "A" * 600, "player_2": "B"}]}, [1, 2], "rows",
])
@pytest.mark.parametrize("endpoint", ["entries/import/", "entries/import/check/"])
def test_rows_of_the_wrong_shape_are_a_400(api: Any, world: World, body: Any, endpoint: str) -> None:
    before = fingerprint()
    response = api.post(f"{base(world)}/{endpoint}", body, format="json", **world.auth("organiser"))
    assert response.status_code == 400, (body, response.content)
    assert fingerprint() == before


def test_a_finished_tournament_takes_no_import(api: Any, world: World) -> None:
    Tournament.objects.filter(pk=world.tournament.pk).update(status="finished")
    for operation in ("preview", "check", "commit"):
        response = call(api, world, operation)
        assert response.status_code == 409 and response.json()["error"]["code"] == "tournament_finished"


def test_an_unknown_tournament_is_a_404(api: Any, world: World) -> None:
    for path in ("/api/v1/tournaments/999999/entries/import/check/", "/api/v1/tournaments/999999/entries/import/"):
        assert api.post(path, {"rows": GOOD_ROWS}, format="json", **world.auth("organiser")).status_code == 404
    huge = "/api/v1/tournaments/99999999999999999999999/entries/import/"
    assert api.post(huge, {"rows": GOOD_ROWS}, format="json", **world.auth("organiser")).status_code == 404


# ---- availability ------------------------------------------------------------------------------------------
def test_availability_is_set_per_round_and_read_as_the_field(api: Any, world: World) -> None:
    response = call(api, world, "availability")
    assert response.status_code == 200 and response.json() == {"entry": world.entries[0].pk, "round": 2,
                                                                "state": "absent"}
    field = call(api, world, "field").json()
    assert field["counts"] == {"present": 3, "absent": 1, "bye": 0, "not_checked_in": 0, "late": 0}
    assert [e["state"] for e in field["entries"]][0] == "absent"


@pytest.mark.parametrize(("path_round", "body", "status", "code"), [
    (2, {"state": "late"}, 400, None),
    (2, {}, 400, None),
    (2, ["absent"], 400, None),
    (0, {"state": "absent"}, 400, "round_invalid"),
    (100, {"state": "absent"}, 400, "round_invalid"),
    (1, {"state": "absent"}, 409, "round_already_paired"),
    (2, {"state": "bye"}, 200, None),
])
def test_availability_bad_input(api: Any, world: World, path_round: int, body: Any, status: int,
                                code: str | None) -> None:
    response = api.put(f"{base(world)}/entries/{world.entries[1].pk}/availability/{path_round}/", body,
                       format="json", **world.auth("organiser"))
    assert response.status_code == status, response.content
    if code:
        assert response.json()["error"]["code"] == code


def test_availability_of_another_tournaments_entry_is_a_404(api: Any, world: World) -> None:
    other_entry = Entry.objects.filter(tournament=world.other_tournament).first()
    assert other_entry is not None
    response = api.put(f"{base(world)}/entries/{other_entry.pk}/availability/2/", {"state": "absent"},
                       format="json", **world.auth("organiser"))
    assert response.status_code == 404
    assert not Availability.objects.exists()


# ---- an entry's tags and fee ---------------------------------------------------------------------------
def test_tags_and_fee_through_the_entry_endpoint(api: Any, world: World) -> None:
    response = call(api, world, "entry tags")
    assert response.status_code == 200, response.content
    assert response.json()["tags"] == ["ladies", "seniors"] and response.json()["fee_paid"] is True
    entry = Entry.objects.get(pk=world.entries[0].pk)
    assert entry.tags == ["ladies", "seniors"] and entry.fee_paid
    bad = api.patch(f"{base(world)}/entries/{entry.pk}/", {"tags": ["=1+1"]}, format="json", **world.auth("organiser"))
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "tags_invalid"
    bad = api.patch(f"{base(world)}/entries/{entry.pk}/", {"tags": {"a": 1}}, format="json", **world.auth("organiser"))
    assert bad.status_code == 400
    bad = api.patch(f"{base(world)}/entries/{entry.pk}/", {"fee_paid": "perhaps"}, format="json",
                    **world.auth("organiser"))
    assert bad.status_code == 400
    new_pair = Entry.objects.filter(tournament=world.other_tournament).first().pair  # type: ignore[union-attr]
    early = api.post(f"{base(world)}/entries/", {"pair": new_pair.pk, "tags": ["ladies"]}, format="json",
                     **world.auth("organiser"))
    assert early.status_code == 400 and "tags" in early.json()["error"]["fields"]
    assert Entry.objects.get(pk=entry.pk).tags == ["ladies", "seniors"]
