"""Render one public address in-process: the view Django would call, with an anonymous GET.

The views are called without their wrappers (``web.http.public_page``'s gzip and ETag, the page caches
of ``web.cache`` and ``api.etag``): the body is the view's own, byte for byte what Django serves for that
address (a test compares them), and never a cached copy the fingerprint could not see was stale. A page that is not public (a 404, an unpublished event, a round not yet
published) renders as None: its file is withdrawn.
"""

from __future__ import annotations

import inspect
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import RequestFactory
from django.urls import Resolver404, resolve

from tournaments.errors import NotFound

_factory = RequestFactory()


def _view(func: Any) -> Any:
    # every decorator off: the page cache (web.cache, api.etag), gzip and ETags, csrf_exempt (a GET)
    return inspect.unwrap(func)


def render(address: str) -> bytes | None:
    """The body Django serves at ``address`` to an anonymous GET, or None when it is not a public 200."""
    try:
        match = resolve(address)
    except Resolver404:
        return None
    request = _factory.get(address, HTTP_ACCEPT="application/json" if address.startswith("/api/") else "text/html")
    request.user = AnonymousUser()
    try:
        response = _view(match.func)(request, *match.args, **match.kwargs)
    except (Http404, NotFound):
        return None
    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
        response.render()
    if response.status_code != 200 or getattr(response, "streaming", False):
        return None
    return bytes(response.content)
