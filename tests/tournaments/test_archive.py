"""The archive (docs/archive.md): the demo exported, the database emptied, the archive imported by another
account, and every standings row and every board's scorecard read through the selectors equal; the export
fits its JSON Schema and carries no secret; a changed hand refuses the import, naming the board."""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

from tournaments.models import Club, Hand, Player, Tournament
from tournaments.services.archive import archive_export, archive_import, archive_preview
from tournaments.services.archive.schema import _validator
from tournaments.services.errors import ValidationFailed

from .archive_helpers import event_view, load_demo_with_history, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def trip(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:
    """The demo exported, the database emptied, the archive imported into it by a new organiser."""
    from config.celery import app

    eager = app.conf.task_always_eager
    with django_db_blocker.unblock():
        from django.db import connection

        name = str(connection.settings_dict["NAME"])
        assert "test" in name or "memory" in name, f"refusing to load the demo into {name} and flush it"
        app.conf.task_always_eager = True
        try:
            original = load_demo_with_history()
            before = event_view(original)
            started = time.perf_counter()
            document = archive_export(tournament=original)
            text = json.dumps(document)
            export_seconds = time.perf_counter() - started
            call_command("flush", "--no-input", verbosity=0)  # an empty server
            assert not Tournament.objects.exists() and not Player.objects.exists()
            user = organiser()
            started = time.perf_counter()
            imported = archive_import(document=json.loads(text), user=user)
            import_seconds = time.perf_counter() - started
            yield {"document": document, "text": text, "before": before, "after": event_view(imported),
                   "imported": imported, "user": user, "export_seconds": export_seconds,
                   "import_seconds": import_seconds}
        finally:
            app.conf.task_always_eager = eager
            call_command("flush", "--no-input", verbosity=0)


def test_the_round_trip_gives_every_standings_row_equal(trip):
    before, after = trip["before"], trip["after"]
    assert len(before["standings"]) == 16 and len(before["club_standings"]) == 4
    assert after["columns"] == before["columns"]
    assert after["after_round"] == before["after_round"] == 2
    for want, got in zip(before["standings"], after["standings"], strict=True):
        assert got == want
    assert after["club_standings"] == before["club_standings"]


def test_the_round_trip_gives_every_scorecard_equal(trip):
    before, after = trip["before"]["boards"], trip["after"]["boards"]
    assert len(before) == 24 and sorted(after) == sorted(before)
    for key, board in before.items():
        assert after[key] == board, key
    statuses = {b["status"] for b in after.values()}
    assert {"done", "in_play", "awaiting_confirmation", "disputed", "waiting"} <= statuses


def test_versions_voids_and_who_travel(trip):
    hands = trip["document"]["hands"]
    assert {h["status"] for h in hands} == {"active", "voided", "superseded"}
    corrected = next(h for h in hands if h["version"] == 2)
    assert corrected["supersedes"] == 1 and corrected["by"] == {"kind": "account", "name": "Demo Organiser"}
    assert {"kind": "tablet", "table": 3} in [h["by"] for h in hands]
    imported = Hand.objects.filter(game__board__round__tournament=trip["imported"])
    assert imported.count() == len(hands)
    new = imported.get(version=2)
    assert new.supersedes is not None and new.supersedes.status == Hand.Status.SUPERSEDED
    assert imported.filter(status=Hand.Status.VOIDED).count() == 1
    assert str(new.created_at.isoformat()).startswith(corrected["at"][:19])


def test_the_importer_organises_the_copy_in_their_organisation(trip):
    imported, user = trip["imported"], trip["user"]
    assert imported.slug == trip["document"]["tournament"]["slug"] and imported.published
    assert imported.roles.filter(user=user, role="organiser").exists()
    personal = user.personal_organisation
    assert set(Club.objects.values_list("owner_id", flat=True)) == {personal.pk}
    assert Club.objects.count() == 4 and Player.objects.count() == 32


def test_the_export_fits_its_json_schema(trip):
    errors = list(_validator().iter_errors(json.loads(trip["text"])))
    assert errors == []
    Draft202012Validator.check_schema(_validator().schema)


def test_the_export_carries_no_secret(trip):
    text = trip["text"]
    for word in ("token", "email", "e-mail", "password", "idempotency", "digest", "prefix", "code"):
        assert not re.search(rf'"[a-z_]*{word}[a-z_]*"\s*:', text, re.I), word
    assert "@" not in text  # no e-mail address anywhere (the demo organiser's is organiser@example.org)
    assert "pbkdf2" not in text and "Demo tablet" not in text


def test_the_numbers(trip, capsys):
    size_kb = len(trip["text"].encode()) / 1024
    with capsys.disabled():
        print(f"\narchive of the demo: {size_kb:.0f} KB, {len(trip['document']['hands'])} hands; "
              f"export {trip['export_seconds']:.2f} s, import {trip['import_seconds']:.2f} s")
    assert size_kb < 4096 and trip["import_seconds"] < 60


# ---- refusals ----------------------------------------------------------------------------------------------


def _hand_in_round(document: dict[str, Any], table: int, number: int = 1) -> tuple[int, dict[str, Any]]:
    boards = {b["id"]: b for b in document["boards"]}
    games = {g["id"]: g for g in document["games"]}
    for i, hand in enumerate(document["hands"]):
        board = boards[games[hand["game"]]["board"]]
        if board["round"] == number and board["table"] == table and hand["status"] == "active" \
                and "game" in hand["record"] and min(hand["record"]["game"]) > 0:
            return i, hand
    raise AssertionError("no such hand")


def test_a_changed_hand_is_refused_naming_its_board(trip):
    document = copy.deepcopy(trip["document"])
    index, hand = _hand_in_round(document, table=2)
    points = hand["record"]["game"]
    hand["record"]["game"] = [points[1], points[0] + 1]
    tournaments = Tournament.objects.count()
    with pytest.raises(ValidationFailed) as refused:
        archive_import(document=document, user=trip["user"])
    error = refused.value
    assert error.code == "archive_mismatch"
    assert "round 1, table 2, game" in error.message and f"hand {hand['number']}" in error.message
    assert any(path.startswith(f"hands[{index}]") for path in error.fields or {})
    assert Tournament.objects.count() == tournaments


def test_a_changed_stored_result_is_refused(trip):
    document = copy.deepcopy(trip["document"])
    board = next(b for b in document["boards"] if b["round"] == 2 and b["table"] == 4)
    board["result"]["chalks"][0] += 1
    with pytest.raises(ValidationFailed) as refused:
        archive_import(document=document, user=trip["user"])
    assert refused.value.code == "archive_mismatch" and "round 2, table 4" in refused.value.message
    document = copy.deepcopy(trip["document"])
    document["standings"]["pairs"][0]["match_points"] += 2
    with pytest.raises(ValidationFailed, match="the standings, row 1"):
        archive_import(document=document, user=trip["user"])


def test_a_broken_reference_or_shape_is_refused_with_its_path(trip):
    document = copy.deepcopy(trip["document"])
    document["boards"][3]["pair_b"] = 999
    with pytest.raises(ValidationFailed) as refused:
        archive_preview(document=document, user=trip["user"])
    assert refused.value.code == "archive_invalid" and refused.value.fields == {"boards[3].pair_b": "no entry has the id 999"}
    document = copy.deepcopy(trip["document"])
    document["boards"][0]["table"] = "one"
    with pytest.raises(ValidationFailed) as refused:
        archive_preview(document=document, user=trip["user"])
    assert refused.value.code == "archive_invalid" and list(refused.value.fields or {}) == ["boards[0].table"]
    # a voided version's record is checked against the hand format's schema; a live one is replayed
    voided = next(i for i, h in enumerate(document["hands"]) if h["status"] == "voided")
    document = copy.deepcopy(trip["document"])
    document["hands"][voided]["record"]["kicks"] = "AS"
    with pytest.raises(ValidationFailed) as refused:
        archive_preview(document=document, user=trip["user"])
    assert refused.value.code == "archive_invalid"
    assert list(refused.value.fields or {})[0].startswith(f"hands[{voided}].record")
    document = copy.deepcopy(trip["document"])
    document["hands"][0]["record"]["kicks"] = "AS"
    with pytest.raises(ValidationFailed) as refused:
        archive_preview(document=document, user=trip["user"])
    assert refused.value.code == "archive_mismatch" and list(refused.value.fields or {}) == ["hands[0].record"]
    assert "the engine refuses it" in refused.value.message
    with pytest.raises(ValidationFailed) as refused:
        archive_preview(document={**trip["document"], "version": 2}, user=trip["user"])
    assert refused.value.code == "archive_version"


def test_a_second_import_gets_a_new_slug_and_matches_the_people(trip):
    preview = archive_preview(document=trip["document"], user=trip["user"])
    assert preview.slug_changed and preview.slug == f"{trip['document']['tournament']['slug']}-2"
    assert preview.people == {"clubs": {"matched": 4, "created": 0}, "players": {"matched": 32, "created": 0},
                              "pairs": {"matched": 16, "created": 0}}
    copy_2 = archive_import(document=trip["document"], user=trip["user"])
    assert copy_2.slug == preview.slug and Club.objects.count() == 4 and Player.objects.count() == 32
    assert event_view(copy_2) == trip["after"]
