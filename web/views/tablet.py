"""The scoring tablet: two static shells for the JavaScript page that talks to the API.

``/tablet/pair/<code>`` trades the code for a device token (the script drops the code from the address
bar first and keeps the token in localStorage); ``/tablet/`` serves the board at the tablet's table.
Neither page holds a secret: the token never reaches the server except in an Authorization header.
The API's addresses come from its URL map (``api:`` names), so the page follows the API's routes.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
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
]


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
