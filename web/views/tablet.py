"""The scoring tablet: two static shells for the JavaScript page that talks to the API.

``/tablet/pair/<code>`` trades the code for a device token (the script drops the code from the address
bar first and keeps the token in localStorage); ``/tablet/`` serves the board at the tablet's table.
Neither page holds a secret: the token never reaches the server except in an Authorization header.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache


@never_cache
def pair(request: HttpRequest, code: str = "") -> HttpResponse:
    response = render(request, "tablet/pair.html", {})
    # The code is in this page's address: never send it on as a Referer, not even to our own static files.
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
def tablet(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/tablet.html", {})
