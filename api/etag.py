"""Conditional GET for public reads: an ETag from the rendered body, ``Cache-Control``, and 304;
``cached_public`` serves repeated reads from the page cache keyed by the tournament's latest change.

``ConditionalGetMixin`` renders a successful GET, tags it with a weak ETag (SHA-256 of the body) and
answers ``304 Not Modified`` when the client's ``If-None-Match`` already names it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.selectors.fingerprint import board_version, fingerprint, tier_seconds

log = logging.getLogger(__name__)

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


def cached_public(view: Callable[..., Any], tier: str) -> Callable[..., Any]:
    """Serve a public read from the page cache while the tournament's fingerprint is unchanged.

    The fingerprint (``tournaments.selectors.fingerprint``: one query over the latest snapshot, board, hand, undo
    and round state) is the key, so any change is seen at once; a hit answers 200 or 304 from the
    stored body and ETag without building anything. The cache fails open (a Redis outage only turns
    it off) and only anonymous, public reads go through here.
    """
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        seconds = tier_seconds(tier)
        if request.method not in ("GET", "HEAD") or seconds <= 0:
            return view(request, *args, **kwargs)
        print_ = fingerprint(kwargs["slug"], tier=tier, number=kwargs.get("number"), board_id=kwargs.get("board_id"))
        if print_ is None:
            return view(request, *args, **kwargs)  # not public: the view answers its 404
        path = hashlib.blake2b(request.get_full_path().encode(), digest_size=12).hexdigest()
        key = f"hangjack:api:{tier}:{path}:{print_}:{request.META.get('HTTP_ACCEPT', '')[:40]}"
        try:
            hit = caches["default"].get(key)
        except Exception:  # noqa: BLE001 - a cache is never a reason to fail a read
            log.warning("public API cache unreadable", exc_info=True)
            hit = None
        if isinstance(hit, tuple) and len(hit) == 3:
            content, content_type, etag = hit
            if etag_matches(request.META.get("HTTP_IF_NONE_MATCH", ""), etag):
                response: HttpResponse = HttpResponse(status=304)
            else:
                response = HttpResponse(content, content_type=content_type)
            response["ETag"] = etag
            response["Cache-Control"] = PUBLIC_CACHE_CONTROL
            response["Vary"] = "Accept"
            return response
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and response.has_header("ETag"):
            try:
                caches["default"].set(key, (response.content, response["Content-Type"], response["ETag"]), seconds)
            except Exception:  # noqa: BLE001
                log.warning("public API cache unwritable", exc_info=True)
        return response

    return wrapped


# ---- the tablet's board read ------------------------------------------------------------------------------


def board_etag(board: Any) -> str:
    """The ETag of the tablet's board state without building it: a weak tag of the board's version
    (``tournaments.selectors.fingerprint.board_version``: the board and round rows already read, one query)."""
    return board_tag(board.pk, board_version(board))


def board_tag(board_id: int, version: str) -> str:
    return f'W/"b{board_id}-{version}"'
