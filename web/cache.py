"""Public pages cached in tiers, keyed by the latest change (Tabbycat style), so a hall of phones polling
the standings every few seconds costs one render per change instead of one per phone.

A cached page is the rendered HTML of a public view, stored in Django's default cache (Redis with
``IGNORE_EXCEPTIONS`` when ``REDIS_URL`` is set, so an outage only turns the cache off; local memory
otherwise) under a key made of the page's address and a **fingerprint** of what the page shows: one
query that reads, for the tournament (or the round, or the board), the latest standings snapshot, the
boards' latest ``updated_at`` (every result, confirmation, seating and help call refreshes its board),
the newest hand and the latest undo or void in the rounds being played (a hand in mid-game touches no
board), and the rounds' state. Any such change makes a new key, so the page is rendered again at once;
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

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from tournaments.models import Board, Game, Hand, Round, StandingsSnapshot, Tournament

log = logging.getLogger(__name__)

DEFAULT_SECONDS = {"live": 5, "results": 30}
PUBLIC_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
LIVE_ROUNDS = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)

View = Callable[..., HttpResponseBase]


def tier_seconds(tier: str) -> int:
    overrides = getattr(settings, "HANGJACK_PUBLIC_CACHE", None) or {}
    return int(overrides.get(tier, DEFAULT_SECONDS[tier]))


def _tables() -> dict[str, str]:
    from django.db import connection

    q = connection.ops.quote_name
    return {name: q(model._meta.db_table) for name, model in
            {"t": Tournament, "r": Round, "b": Board, "g": Game, "h": Hand, "s": StandingsSnapshot}.items()}


def _in(values: tuple[str, ...]) -> str:
    return "(" + ", ".join(["%s"] * len(values)) + ")"


@functools.cache
def _sql(scope: str, tier: str) -> str:
    """The fingerprint query of a scope (hand-written: the ORM's compilation of seven correlated
    subqueries cost more than running them, measured in tests/web/bench_public_cache.py)."""
    T = _tables()  # noqa: N806
    hands_of_round = (f"FROM {T['h']} h JOIN {T['g']} g ON h.game_id = g.id JOIN {T['b']} b2 ON g.board_id = b2.id "
                      "WHERE b2.round_id = r.id")
    if scope == "board":
        return (
            f"SELECT r.tournament_id, t.created_at, b.updated_at, r.status, "
            f"(SELECT MAX(h.id) FROM {T['h']} h JOIN {T['g']} g ON h.game_id = g.id WHERE g.board_id = b.id), "
            f"(SELECT MAX(h.voided_at) FROM {T['h']} h JOIN {T['g']} g ON h.game_id = g.id WHERE g.board_id = b.id) "
            f"FROM {T['b']} b JOIN {T['r']} r ON b.round_id = r.id JOIN {T['t']} t ON r.tournament_id = t.id "
            f"WHERE b.id = %s AND t.slug = %s AND t.published = %s AND r.status IN {_in(PUBLIC_ROUNDS)}"
        )
    if scope == "round":
        return (
            f"SELECT r.tournament_id, t.created_at, r.status, "
            f"(SELECT MAX(b.updated_at) FROM {T['b']} b WHERE b.round_id = r.id), "
            f"(SELECT MAX(h.id) {hands_of_round}), (SELECT MAX(h.voided_at) {hands_of_round}), "
            # the page links the other published rounds
            f"(SELECT COUNT(*) FROM {T['r']} r2 WHERE r2.tournament_id = r.tournament_id "
            f"AND r2.status IN {_in(PUBLIC_ROUNDS)}) "
            f"FROM {T['r']} r JOIN {T['t']} t ON r.tournament_id = t.id "
            f"WHERE t.slug = %s AND t.published = %s AND r.number = %s AND r.status IN {_in(PUBLIC_ROUNDS)}"
        )
    rounds = f"FROM {T['r']} r WHERE r.tournament_id = t.id"
    live_hands = ""
    if tier == "live":  # a hand in mid-game touches no board: the newest hand and the latest undo or void
        of_live = (f"FROM {T['h']} h JOIN {T['g']} g ON h.game_id = g.id JOIN {T['b']} b ON g.board_id = b.id "
                   f"JOIN {T['r']} r ON b.round_id = r.id WHERE r.tournament_id = t.id AND r.status IN {_in(LIVE_ROUNDS)}")
        live_hands = f", (SELECT MAX(h.id) {of_live}), (SELECT MAX(h.voided_at) {of_live})"
    return (
        f"SELECT t.id, t.created_at, "
        f"(SELECT MAX(s.id) FROM {T['s']} s WHERE s.tournament_id = t.id), "
        f"(SELECT MAX(b.updated_at) FROM {T['b']} b JOIN {T['r']} r ON b.round_id = r.id WHERE r.tournament_id = t.id), "
        # the rounds: how many, how many published and in play (a published round starting play changes
        # only its status), the latest publication and closing
        f"(SELECT COUNT(*) {rounds}), (SELECT COUNT(*) {rounds} AND r.status = %s), "
        f"(SELECT COUNT(*) {rounds} AND r.status = %s), "
        f"(SELECT MAX(r.published_at) {rounds}), (SELECT MAX(r.closed_at) {rounds})"
        f"{live_hands} FROM {T['t']} t WHERE t.slug = %s AND t.published = %s"
    )


def fingerprint(slug: str, *, tier: str, number: int | None = None, board_id: int | None = None) -> str | None:
    """What the page shows, as of the latest change, in one query; None when the tournament (round,
    board) is not public (the view answers its 404 itself)."""
    from django.db import connection

    if board_id is not None:
        sql, params = _sql("board", tier), [board_id, slug, True, *PUBLIC_ROUNDS]
    elif number is not None:
        sql, params = _sql("round", tier), [*PUBLIC_ROUNDS, slug, True, number, *PUBLIC_ROUNDS]
    else:
        live = [*LIVE_ROUNDS, *LIVE_ROUNDS] if tier == "live" else []
        sql, params = _sql("tournament", tier), [Round.Status.PUBLISHED, Round.Status.IN_PLAY, *live, slug, True]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return hashlib.blake2b(repr(tuple(row)).encode(), digest_size=12).hexdigest()


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
