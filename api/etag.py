"""Conditional GET for public reads: an ETag from the rendered body, ``Cache-Control``, and 304.

``ConditionalGetMixin`` renders a successful GET, tags it with a weak ETag (SHA-256 of the body) and
answers ``304 Not Modified`` when the client's ``If-None-Match`` already names it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response

#: Live scores change by the minute: let caches keep a page only briefly, then revalidate with the ETag.
PUBLIC_CACHE_CONTROL = "public, max-age=10, stale-while-revalidate=30"


def body_etag(content: bytes) -> str:
    return 'W/"' + hashlib.sha256(content).hexdigest()[:32] + '"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110 weak comparison against an If-None-Match list (``*`` matches anything)."""
    wanted = etag.removeprefix("W/")
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == wanted:
            return True
    return False


class ConditionalGetMixin:
    """For read-only views: ETag + Cache-Control on 200 GET/HEAD, 304 when If-None-Match matches."""

    cache_control = PUBLIC_CACHE_CONTROL

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        if request.method not in ("GET", "HEAD") or response.status_code != 200 or not isinstance(response, Response):
            return response
        response.render()
        etag = body_etag(response.content)
        if etag_matches(request.META.get("HTTP_IF_NONE_MATCH", ""), etag):
            not_modified = HttpResponse(status=304)
            not_modified["ETag"] = etag
            not_modified["Cache-Control"] = self.cache_control
            not_modified["Vary"] = response.get("Vary", "Accept")
            return not_modified
        response["ETag"] = etag
        response["Cache-Control"] = self.cache_control
        return response
