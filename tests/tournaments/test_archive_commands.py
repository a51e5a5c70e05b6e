"""``manage.py archive_export`` and ``archive_import`` (docs/archive.md, "From the command line")."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Tournament

from .archive_helpers import organiser
from .closing_helpers import ClosingEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(tmp_path: Path) -> tuple[ClosingEvent, Path]:
    event = ClosingEvent()
    event.close()
    path = tmp_path / "event.json"
    err = StringIO()
    call_command("archive_export", event.tournament.slug, "-o", str(path), stderr=err)
    assert f"Wrote {path}" in err.getvalue() and "5 boards" in err.getvalue()
    return event, path


def test_export_writes_the_archive_to_a_file_or_stdout(exported):
    event, path = exported
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "hangjack-archive" and document["tournament"]["slug"] == event.tournament.slug
    out = StringIO()
    call_command("archive_export", event.tournament.slug, stdout=out)
    assert json.loads(out.getvalue())["boards"] == document["boards"]
    with pytest.raises(CommandError, match="No event has the slug 'nope'"):
        call_command("archive_export", "nope")


def test_import_previews_then_imports(exported):
    event, path = exported
    user = organiser("marcia")
    out = StringIO()
    call_command("archive_import", str(path), "--owner", "marcia", "--preview", stdout=out)
    assert out.getvalue().startswith(f"Would import {event.tournament.name} as /t/{event.tournament.slug}-2/ "
                                     "(its own slug is taken here)")
    assert "5 boards" in out.getvalue() and "players: 0 matched, 20 new" in out.getvalue()
    assert Tournament.objects.count() == 1
    out = StringIO()
    call_command("archive_import", str(path), "--owner", "marcia", stdout=out)
    copy_ = Tournament.objects.get(slug=f"{event.tournament.slug}-2")
    assert out.getvalue().startswith(f"Imported {event.tournament.name} as /t/{copy_.slug}/")
    assert copy_.roles.filter(user=user).exists()


def test_import_refusals_are_command_errors(exported, tmp_path):
    event, path = exported
    organiser("marcia")
    with pytest.raises(CommandError, match="No account has the username 'nobody'"):
        call_command("archive_import", str(path), "--owner", "nobody")
    with pytest.raises(CommandError, match="No organisation has the slug 'nope'"):
        call_command("archive_import", str(path), "--owner", "marcia", "--organisation", "nope")
    document = json.loads(path.read_text(encoding="utf-8"))
    hand = next(h for h in document["hands"] if h["status"] == "active")
    hand["result"]["score"] = [13, 13]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match=r"archive_mismatch: .*table \d+, game \d+, hand \d+"):
        call_command("archive_import", str(tampered), "--owner", "marcia")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="archive_not_json"):
        call_command("archive_import", str(tmp_path / "bad.json"), "--owner", "marcia")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("archive_import", str(tmp_path / "missing.json"), "--owner", "marcia")
    assert Tournament.objects.count() == 1
