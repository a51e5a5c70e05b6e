"""The tablet's offline shell as served (issue 16): /tablet/sw.js and the web app manifest.

The browser side (a reload with no network, a new version waiting for an empty queue) is in
test_tablet_states_browser.py.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def worker(client: Client) -> tuple[str, list[str], str]:
    response = client.get("/tablet/sw.js")
    assert response.status_code == 200
    body = response.content.decode()
    version = json.loads(re.search(r"var VERSION = (.+);", body).group(1))
    shell = json.loads(re.search(r"var SHELL = (.+);", body).group(1))
    return version, shell, body


def test_the_service_worker_is_javascript_scoped_to_the_tablet_and_never_cached_long():
    response = Client().get("/tablet/sw.js")
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/tablet/"
    assert response["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_shell_is_the_page_and_its_files_never_an_api_answer_nor_the_pairing_page():
    version, shell, body = worker(Client())
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert shell[:2] == ["/tablet/", "/tablet/manifest.webmanifest"]
    assert "/static/js/tablet.js" in shell and "/static/css/tablet.css" in shell
    assert not [url for url in shell if url.startswith("/api/") or url.startswith("/tablet/pair")]
    assert 'indexOf("/api/") === 0) return' in body and 'indexOf("/tablet/pair/") === 0) return' in body
    assert "skipWaiting()" in body and 'event.data === "activate-now"' in body  # only when the page says so


def test_the_version_follows_the_shell_files(monkeypatch, tmp_path):
    from web.views import tablet

    first, _, _ = worker(Client())
    assert worker(Client())[0] == first  # the same files, the same version
    changed = tmp_path / "tablet.js"
    changed.write_text("/* a new tablet.js */")
    real = tablet._shell_files
    monkeypatch.setattr(tablet, "_shell_files", lambda: [changed if p.name == "tablet.js" else p for p in real()])
    assert worker(Client())[0] != first


def test_the_manifest_lets_the_page_be_added_to_the_home_screen():
    response = Client().get("/tablet/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/tablet/" and manifest["scope"] == "/tablet/"
    assert manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    from django.contrib.staticfiles import finders

    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    page = Client().get("/tablet/").content.decode()
    assert '<link rel="manifest" href="/tablet/manifest.webmanifest">' in page
    assert 'data-sw="/tablet/sw.js" data-sw-scope="/tablet/"' in page
