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

from tournaments.selectors.fingerprint import fingerprint, tier_seconds

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

#: Bump when the board state's shape changes, so a tablet's kept ETag never answers for an older shape.
BOARD_STATE_SHAPE = "1"


@functools.cache
def _board_version_sql(with_team_match: bool) -> str:
    """One query of scalar subqueries over the board's hands, games, confirmations, entries and team match."""
    from django.db import connection

    from tournaments.models import Entry, Game, GameConfirmation, Hand, TeamMatch

    q = connection.ops.quote_name
    h, g, c, e, tm = (q(m._meta.db_table) for m in (Hand, Game, GameConfirmation, Entry, TeamMatch))
    hands = f"FROM {h} h JOIN {g} g ON h.game_id = g.id WHERE g.board_id = %s"
    games = f"FROM {g} g WHERE g.board_id = %s AND g.status <> %s"
    words = f"FROM {c} c JOIN {g} g ON c.game_id = g.id WHERE g.board_id = %s"
    parts = [
        # a hand entered (a new id), corrected (a new version: a new id), undone or voided (voided_at), restored
        f"(SELECT MAX(h.id) {hands})", f"(SELECT MAX(h.voided_at) {hands})",
        f"(SELECT SUM(CASE WHEN h.status = %s THEN h.id ELSE 0 END) {hands})",
        # the games: started, finished, awarded, confirmed by the organiser, their first dealers, a void
        f"(SELECT COUNT(*) {games})", f"(SELECT MAX(g.id) {games})",
        f"(SELECT SUM(CASE WHEN g.status = %s THEN g.id ELSE 0 END) {games})",
        f"(SELECT SUM(CASE WHEN g.confirmed THEN g.id ELSE 0 END) {games})",
        f"(SELECT SUM(CASE WHEN g.awarded THEN g.id ELSE 0 END) {games})",
        f"(SELECT SUM(g.first_dealer * 7 + COALESCE(g.winner, 5)) {games})",
        # the pairs' words (a confirmation, a refusal) and their clearing by a correction
        f"(SELECT MAX(c.id) {words})", f"(SELECT SUM(CASE WHEN c.cleared THEN 0 ELSE c.id END) {words})",
        # a substitute recorded for either pair
        f"(SELECT SUM(e.substitutions_count) FROM {e} e WHERE e.id IN (%s, %s))",
    ]
    if with_team_match:  # another board of the match finishing moves the match's bullseyes
        parts.append(f"(SELECT tm.bullseyes_a * 4096 + tm.bullseyes_b * 4 + (CASE WHEN tm.decided THEN 2 ELSE 0 END) "
                     f"+ COALESCE(tm.winner, 9) * 1000003 FROM {tm} tm WHERE tm.id = %s)")
    return "SELECT " + ", ".join(parts)


def board_etag(board: Any) -> str:
    """The ETag of ``board_state(board)`` without building it: a weak tag of what the state is made of.

    ``board`` is the row ``board_for_table`` read (with its round), so its own columns and its round's status
    and clock (``ends_at``: the organiser moving the clock or calling time; ``closed_at``) are already here;
    one more query reads the board's hands, games, confirmations, the pairs' substitutes and the team match.
    The clock's seconds left are left out on purpose: they are computed on read, and the tablet counts them
    down itself from the read that gave them (a 304 keeps that read). Player and club renames are not seen
    until the board next changes.
    """
    from django.db import connection

    from tournaments.models import Board, Game, Hand

    round_ = board.round
    own = [getattr(board, f.attname) for f in Board._meta.concrete_fields]
    params: list[Any] = [
        board.pk, board.pk, Hand.Status.ACTIVE, board.pk,
        *([board.pk, Game.Status.VOIDED] * 2), Game.Status.FINISHED, board.pk, Game.Status.VOIDED,
        board.pk, Game.Status.VOIDED, board.pk, Game.Status.VOIDED, board.pk, Game.Status.VOIDED,
        board.pk, board.pk, board.pair_a_id, board.pair_b_id,
    ]
    if board.team_match_id is not None:
        params.append(board.team_match_id)
    with connection.cursor() as cursor:
        cursor.execute(_board_version_sql(board.team_match_id is not None), params)
        row = cursor.fetchone()
    made_of = (BOARD_STATE_SHAPE, own, round_.pk, round_.number, round_.status, round_.ends_at, round_.closed_at, row)
    return f'W/"b{board.pk}-' + hashlib.blake2b(repr(made_of).encode(), digest_size=12).hexdigest() + '"'
