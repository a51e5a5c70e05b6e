"""Public pages cached in tiers, keyed by the latest change (Tabbycat style), so a hall of phones polling
the standings every few seconds costs one render per change instead of one per phone.

A cached page is the rendered HTML of a public view, stored in Django's default cache (Redis with
``IGNORE_EXCEPTIONS`` when ``REDIS_URL`` is set, so an outage only turns the cache off; local memory
otherwise) under a key made of the page's address and a **fingerprint** of what the page shows
(``tournaments.selectors.fingerprint``, shared with the public API's cache): one query that reads, for
the tournament (or the round, or the board), the latest standings snapshot, the boards' latest
``updated_at`` (every result, confirmation, seating and help call refreshes its board), the newest hand
and the latest undo or void in the rounds being played (a hand in mid-game touches no board), and the
rounds' state. Any such change makes a new key, so the page is rendered again at once;
the tier's short lifetime only bounds what the fingerprint cannot see (a pair renamed in the admin):

* ``live`` (5 s): standings, pairings and board scorecards with their polled fragments (live scores);
* ``results`` (30 s): tournament home, rounds, pairs, clubs and statistics (the fingerprint leaves out
  hands in mid-game: these pages show results, statuses and confirmed figures only).

``settings.HANGJACK_PUBLIC_CACHE`` may override ``{"live": 5, "results": 30}`` (0 turns a tier off).
Only anonymous-safe pages go through here: nothing private (console, tablet) is ever cached, and a
public page carries no CSRF token, session or user data. The ETag and 304 of ``web.http`` work on top.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from tournaments.selectors.fingerprint import DEFAULT_SECONDS, fingerprint, tier_seconds

log = logging.getLogger(__name__)

View = Callable[..., HttpResponseBase]


def cached_page(tier: str) -> Callable[[View], View]:
    """Serve the view's page from the cache while its fingerprint is unchanged (GET and HEAD only)."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            seconds = tier_seconds(tier)
            if request.method not in ("GET", "HEAD") or seconds <= 0 or "slug" not in kwargs:
                return view(request, *args, **kwargs)
            print_ = fingerprint(kwargs["slug"], tier=tier, number=kwargs.get("number"),
                                 board_id=kwargs.get("board_id"))
            if print_ is None:
                return view(request, *args, **kwargs)
            path = hashlib.blake2b(request.get_full_path().encode(), digest_size=12).hexdigest()
            key = f"hangjack:page:{tier}:{view.__name__}:{path}:{print_}"
            store = caches["default"]
            try:
                hit = store.get(key)
            except Exception:  # noqa: BLE001 - a cache is never a reason to fail a page
                log.warning("public page cache unreadable", exc_info=True)
                hit = None
            if isinstance(hit, tuple) and len(hit) == 2:
                content, content_type = hit
                response = HttpResponse(content, content_type=content_type)
                response["X-Page-Cache"] = "hit"
                return response
            response = view(request, *args, **kwargs)
            if (
                isinstance(response, HttpResponse) and response.status_code == 200 and not response.streaming
                and not response.cookies
            ):
                try:
                    store.set(key, (response.content, response["Content-Type"]), seconds)
                except Exception:  # noqa: BLE001
                    log.warning("public page cache unwritable", exc_info=True)
                response["X-Page-Cache"] = "miss"
            return response

        wrapped.public_cache_tier = tier  # type: ignore[attr-defined]
        return wrapped

    return decorate


__all__ = ["DEFAULT_SECONDS", "cached_page", "fingerprint", "tier_seconds"]
