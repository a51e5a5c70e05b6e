"""The scoring tablet: two static shells for the JavaScript page that talks to the API.

``/tablet/pair/<code>`` trades the code for a device token (the script drops the code from the address
bar first and keeps the token in localStorage); ``/tablet/`` serves the board at the tablet's table.
Neither page holds a secret: the token never reaches the server except in an Authorization header.
The API's addresses come from its URL map (``api:`` names), so the page follows the API's routes.

``/tablet/sw.js`` is the offline shell's service worker (scope ``/tablet/``) and
``/tablet/manifest.webmanifest`` the web app manifest (docs/pages.md, "Offline shell"). The worker's
VERSION is a digest of every shell file, so any change to the page, its script, its style or its icons
makes a new worker, which the page lets take over once its queue is empty.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache

#: Stands for the board id in URL templates; the script puts the real id in its place.
BOARD_ID = 987654321

#: (key, API URL names to try, fallback path). Board URLs take the board id.
ENDPOINTS = [
    ("pair", ["api:tablet-pair"], "/api/v1/tablet/pair/", False),
    ("board", ["api:tablet-board"], "/api/v1/tablet/board/", False),
    ("seat", ["api:tablet-board-seat", "api:tablet-seating"], "/api/v1/tablet/boards/{id}/seating/", True),
    ("preview", ["api:tablet-hand-preview", "api:tablet-preview"], "/api/v1/tablet/boards/{id}/preview/", True),
    ("hands", ["api:tablet-hands"], "/api/v1/tablet/boards/{id}/hands/", True),
    ("undo", ["api:tablet-hand-undo", "api:tablet-undo"], "/api/v1/tablet/boards/{id}/undo/", True),
    ("confirm", ["api:tablet-game-confirm", "api:tablet-confirmations"], "/api/v1/tablet/boards/{id}/confirmations/", True),
    ("help", ["api:tablet-call-help", "api:tablet-help"], "/api/v1/tablet/boards/{id}/help/", True),
    ("late", ["api:tablet-late-hands"], "/api/v1/tablet/late-hands/", False),
]

#: The static files of the offline shell (besides the page and the manifest).
SHELL_STATIC = ["js/card-picker.js", "js/tablet.js", "css/tablet.css", "tablet/icon-192.png", "tablet/icon-512.png"]
#: Templates whose text is part of the shell: a change to any of them is a new version.
SHELL_TEMPLATES = ["tablet/_base.html", "tablet/tablet.html", "tablet/sw.js"]


def api_urls() -> dict[str, str]:
    urls: dict[str, str] = {}
    for key, names, fallback, takes_board in ENDPOINTS:
        found = None
        for name in names:
            try:
                found = reverse(name, kwargs={"board_id": BOARD_ID}) if takes_board else reverse(name)
            except NoReverseMatch:
                continue
            break
        urls[key] = (found or fallback).replace(str(BOARD_ID), "{id}")
    return urls


def _no_referrer(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
def pair(request: HttpRequest, code: str = "") -> HttpResponse:
    # The code is in this page's address: never send it on as a Referer, not even to our own static files.
    return _no_referrer(render(request, "tablet/pair.html", {"api": api_urls()}))


@never_cache
def tablet(request: HttpRequest) -> HttpResponse:
    return _no_referrer(render(request, "tablet/tablet.html", {"api": api_urls()}))


def _shell_files() -> list[Path]:
    files = [Path(p) for p in (finders.find(name) for name in SHELL_STATIC) if p]
    for name in SHELL_TEMPLATES:
        for folder in settings.TEMPLATES[0]["DIRS"]:
            candidate = Path(folder) / name
            if candidate.is_file():
                files.append(candidate)
                break
    return files


def shell_version() -> str:
    """A digest of every file of the shell (its bytes): the service worker's VERSION."""
    digest = hashlib.sha256()
    for path in _shell_files():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def shell_urls() -> list[str]:
    return [reverse("web:tablet"), reverse("web:tablet_manifest"), *(static(name) for name in SHELL_STATIC)]


def service_worker(request: HttpRequest) -> HttpResponse:
    body = render_to_string("tablet/sw.js", {
        "version_json": json.dumps(shell_version()), "shell_json": json.dumps(shell_urls()),
    })
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # the browser asks again at every load; a new version installs
    response["Service-Worker-Allowed"] = reverse("web:tablet")
    return response


def manifest(request: HttpRequest) -> HttpResponse:
    tablet_url = reverse("web:tablet")
    body = {
        "name": "Hang Jack scoring tablet", "short_name": "Hang Jack", "lang": "en-GB",
        "start_url": tablet_url, "scope": tablet_url, "display": "standalone", "orientation": "any",
        "background_color": "#ffffff", "theme_color": "#000000",
        "icons": [
            {"src": static("tablet/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("tablet/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        ],
    }
    response = HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
