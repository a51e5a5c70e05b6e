"""The archive in the organisers' console (docs/archive.md, "In the console"): Download archive on the event's
page; Import an archive: upload, see what will be created, import."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tournaments.models import Tournament

from .archive_helpers import organiser
from .closing_helpers import ClosingEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> ClosingEvent:
    event = ClosingEvent()
    event.close()
    return event


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def download(event: ClosingEvent) -> bytes:
    client = signed_in(event.organiser)
    page = client.get(f"/console/t/{event.tournament.slug}/")
    assert page.status_code == 200
    link = f"/console/t/{event.tournament.slug}/export/archive.json"
    assert f'href="{link}">Download archive</a>' in page.content.decode()
    response = client.get(link)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="{event.tournament.slug}.hangjack-archive.json"'
    return response.content


def test_the_event_page_downloads_the_archive(event):
    document = json.loads(download(event))
    assert document["format"] == "hangjack-archive" and len(document["boards"]) == 5
    outsider = signed_in(organiser("outsider"))
    assert outsider.get(f"/console/t/{event.tournament.slug}/export/archive.json").status_code == 403


def test_upload_preview_then_import(event):
    raw = download(event)
    client = signed_in(organiser("importer"))
    assert 'href="/console/archives/import/">Import an archive</a>' in client.get("/console/").content.decode()
    form = client.get("/console/archives/import/")
    assert form.status_code == 200 and "Show what will be created" in form.content.decode()
    organisation = re.search(r'<option value="(\d+)"', form.content.decode()).group(1)
    preview = client.post("/console/archives/import/", {
        "file": SimpleUploadedFile("event.json", raw, content_type="application/json"), "organisation": organisation})
    text = preview.content.decode()
    assert preview.status_code == 200, text[:2000]
    assert "What will be created" in text and f"/t/{event.tournament.slug}-2/" in text
    assert "its own address is taken on this server" in text and "5 boards" in text
    assert "players: 0 already there, 20 new" in " ".join(text.split())
    assert Tournament.objects.count() == 1  # the preview stored nothing
    token = re.search(r'name="token" value="([^"]+)"', text).group(1)
    done = client.post("/console/archives/import/", {"action": "import", "token": token, "organisation": organisation})
    copy_ = Tournament.objects.get(slug=f"{event.tournament.slug}-2")
    assert done.status_code == 302 and done["Location"] == f"/console/t/{copy_.slug}/"
    again = client.post("/console/archives/import/", {"action": "import", "token": token, "organisation": organisation})
    assert again.status_code == 302 and again["Location"] == "/console/archives/import/"  # used once
    assert Tournament.objects.count() == 2


def test_a_changed_archive_is_refused_naming_the_board(event):
    document = json.loads(download(event))
    hand = next(h for h in document["hands"] if h["status"] == "active")
    hand["result"]["score"] = [11, 11]
    client = signed_in(organiser("importer"))
    organisation = re.search(r'<option value="(\d+)"', client.get("/console/archives/import/").content.decode()).group(1)
    response = client.post("/console/archives/import/", {
        "file": SimpleUploadedFile("event.json", json.dumps(document).encode()), "organisation": organisation})
    text = response.content.decode()
    assert response.status_code == 400 and "Not imported." in text
    assert re.search(r"round 1, table \d, game \d+, hand \d+", text)
    not_json = client.post("/console/archives/import/", {
        "file": SimpleUploadedFile("event.json", b"{nope"), "organisation": organisation})
    assert not_json.status_code == 400 and "not a JSON document" in not_json.content.decode()
    assert Tournament.objects.count() == 1


def test_only_an_account_that_may_organise_imports(event):
    client = signed_in(event.organiser)  # runs an event, may not create one
    assert client.get("/console/archives/import/").status_code == 403
