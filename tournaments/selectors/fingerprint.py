"""The public reads' fingerprint: what a page (or an API read) shows, as of the latest change, in one query.

For the tournament (or the round, or the board) it reads the latest standings snapshot, the boards' latest
``updated_at`` (every result, confirmation, seating and help call refreshes its board), the newest hand and
the latest undo or void in the rounds being played (a hand in mid-game touches no board), and the rounds'
state; for the tournament, also the event's status and end (finishing or reopening it). Any such change
gives a new fingerprint. The caches (``web.cache`` for pages, ``api.etag`` for the
public API) key their entries by it; their tiers' lifetimes are here too, so both read the same settings:

* ``live`` (5 s): what shows live scores; its fingerprint also sees hands in mid-game;
* ``results`` (30 s): what shows results, statuses and confirmed figures only.

A third tier, ``standings``, has no cache of its own: the publisher (``publishing.publish``) renders the
standings' JSON and whole table when it moves. It is the tournament's fingerprint without the boards and hands:
the latest snapshot, the rounds' and the event's states.

``settings.HANGJACK_PUBLIC_CACHE`` may override ``{"live": 5, "results": 30}`` (0 turns a tier off).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.conf import settings

from tournaments.models import Board, Game, Hand, Round, StandingsSnapshot, Tournament
from tournaments.models.querysets import RoundQuerySet

DEFAULT_SECONDS = {"live": 5, "results": 30}
PUBLIC = RoundQuerySet.PUBLIC_STATUSES
LIVE = RoundQuerySet.LIVE_STATUSES


def tier_seconds(tier: str) -> int:
    """How long a tier's entries live, in seconds (0: the tier is off)."""
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
            f"WHERE b.id = %s AND t.slug = %s AND t.published = %s AND r.status IN {_in(PUBLIC)}"
        )
    if scope == "round":
        return (
            f"SELECT r.tournament_id, t.created_at, r.status, "
            f"(SELECT MAX(b.updated_at) FROM {T['b']} b WHERE b.round_id = r.id), "
            f"(SELECT MAX(h.id) {hands_of_round}), (SELECT MAX(h.voided_at) {hands_of_round}), "
            # the page links the other published rounds
            f"(SELECT COUNT(*) FROM {T['r']} r2 WHERE r2.tournament_id = r.tournament_id "
            f"AND r2.status IN {_in(PUBLIC)}) "
            f"FROM {T['r']} r JOIN {T['t']} t ON r.tournament_id = t.id "
            f"WHERE t.slug = %s AND t.published = %s AND r.number = %s AND r.status IN {_in(PUBLIC)}"
        )
    rounds = f"FROM {T['r']} r WHERE r.tournament_id = t.id"
    boards = ("" if tier == "standings" else
              f"(SELECT MAX(b.updated_at) FROM {T['b']} b JOIN {T['r']} r ON b.round_id = r.id WHERE r.tournament_id = t.id), ")
    live_hands = ""
    if tier == "live":  # a hand in mid-game touches no board: the newest hand and the latest undo or void
        of_live = (f"FROM {T['h']} h JOIN {T['g']} g ON h.game_id = g.id JOIN {T['b']} b ON g.board_id = b.id "
                   f"JOIN {T['r']} r ON b.round_id = r.id WHERE r.tournament_id = t.id AND r.status IN {_in(LIVE)}")
        live_hands = f", (SELECT MAX(h.id) {of_live}), (SELECT MAX(h.voided_at) {of_live})"
    return (
        # the event's status and end: finishing or reopening changes what every page says
        f"SELECT t.id, t.created_at, t.status, t.finished_at, "
        f"(SELECT MAX(s.id) FROM {T['s']} s WHERE s.tournament_id = t.id), "
        f"{boards}"
        # the rounds: how many, how many published and in play (a published round starting play changes
        # only its status), the latest publication and closing
        f"(SELECT COUNT(*) {rounds}), (SELECT COUNT(*) {rounds} AND r.status = %s), "
        f"(SELECT COUNT(*) {rounds} AND r.status = %s), "
        f"(SELECT MAX(r.published_at) {rounds}), (SELECT MAX(r.closed_at) {rounds})"
        f"{live_hands} FROM {T['t']} t WHERE t.slug = %s AND t.published = %s"
    )


def fingerprint(slug: str, *, tier: str, number: int | None = None, board_id: int | None = None) -> str | None:
    """What the page (or read) shows, as of the latest change, in one query; None when the tournament
    (round, board) is not public (the view answers its 404 itself)."""
    from django.db import connection

    if board_id is not None:
        sql, params = _sql("board", tier), [board_id, slug, True, *PUBLIC]
    elif number is not None:
        sql, params = _sql("round", tier), [*PUBLIC, slug, True, number, *PUBLIC]
    else:
        live = [*LIVE, *LIVE] if tier == "live" else []
        sql, params = _sql("tournament", tier), [Round.Status.PUBLISHED, Round.Status.IN_PLAY, *live, slug, True]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return hashlib.blake2b(repr(tuple(row)).encode(), digest_size=12).hexdigest()


__all__ = ["DEFAULT_SECONDS", "board_version", "fingerprint", "tier_seconds"]


# ---- the tablet's board read -------------------------------------------------------------------------------


@functools.cache
def _board_version_sql(with_team_match: bool) -> str:
    """One query over the board's hands, games, confirmations, entries and team match: one aggregate pass
    over each table (not a scalar subquery per figure: PostgreSQL planned twelve of them, more CPU than
    running them), the figures in the order the digest has always taken them."""
    from django.db import connection

    from tournaments.models import Entry, GameConfirmation, TeamMatch

    q = connection.ops.quote_name
    h, g, c, e, tm = (q(m._meta.db_table) for m in (Hand, Game, GameConfirmation, Entry, TeamMatch))
    hands = (  # a hand entered (a new id), corrected (a new version: a new id), undone or voided, restored
        f"(SELECT MAX(h.id) AS h1, MAX(h.voided_at) AS h2, SUM(CASE WHEN h.status = %s THEN h.id ELSE 0 END) AS h3 "
        f"FROM {h} h JOIN {g} g ON h.game_id = g.id WHERE g.board_id = %s) hs"
    )
    games = (  # the games: started, finished, awarded, confirmed by the organiser, their first dealers, a void
        f"(SELECT COUNT(*) AS g1, MAX(g.id) AS g2, SUM(CASE WHEN g.status = %s THEN g.id ELSE 0 END) AS g3, "
        f"SUM(CASE WHEN g.confirmed THEN g.id ELSE 0 END) AS g4, SUM(CASE WHEN g.awarded THEN g.id ELSE 0 END) AS g5, "
        f"SUM(g.first_dealer * 7 + COALESCE(g.winner, 5)) AS g6 FROM {g} g WHERE g.board_id = %s AND g.status <> %s) gs"
    )
    words = (  # the pairs' words (a confirmation, a refusal) and their clearing by a correction
        f"(SELECT MAX(c.id) AS c1, SUM(CASE WHEN c.cleared THEN 0 ELSE c.id END) AS c2 "
        f"FROM {c} c JOIN {g} g ON c.game_id = g.id WHERE g.board_id = %s) cs"
    )
    subs = f"(SELECT SUM(e.substitutions_count) AS e1 FROM {e} e WHERE e.id IN (%s, %s)) es"  # a substitute recorded
    figures = "hs.h1, hs.h2, hs.h3, gs.g1, gs.g2, gs.g3, gs.g4, gs.g5, gs.g6, cs.c1, cs.c2, es.e1"
    if with_team_match:  # another board of the match finishing moves the match's bullseyes
        figures += (f", (SELECT tm.bullseyes_a * 4096 + tm.bullseyes_b * 4 + (CASE WHEN tm.decided THEN 2 ELSE 0 END) "
                    f"+ COALESCE(tm.winner, 9) * 1000003 FROM {tm} tm WHERE tm.id = %s)")
    return f"SELECT {figures} FROM {hands}, {games}, {words}, {subs}"


def board_version(board: Board) -> str:
    """A digest of what ``board_state(board)`` is made of, without building it (the tablet's ETag, api/etag.py).

    ``board`` is the row ``board_for_table`` read (with its round), so its own columns and its round's status
    and clock (``ends_at``: the organiser moving the clock or calling time; ``closed_at``) are already here;
    one more query reads the board's hands, games, confirmations, the pairs' substitutes and the team match.
    The clock's seconds left are left out on purpose: they are computed on read, and the tablet counts them
    down itself from the read that gave them (a 304 keeps that read). Player and club renames are not seen
    until the board next changes.
    """
    round_ = board.round
    own = [getattr(board, f.attname) for f in Board._meta.concrete_fields]
    row = board_version_row(board.pk, board.team_match_id, board.pair_a_id, board.pair_b_id)
    return version_digest(own, (round_.pk, round_.number, round_.status, round_.ends_at, round_.closed_at), row)


def board_version_row(board_id: int, team_match_id: int | None, pair_a_id: int | None,
                      pair_b_id: int | None) -> tuple[Any, ...]:
    """The figures of the board's hands, games, confirmations, substitutes and team match (one query)."""
    from django.db import connection

    params: list[Any] = [
        *([team_match_id] if team_match_id is not None else []),
        Hand.Status.ACTIVE, board_id, Game.Status.FINISHED, board_id, Game.Status.VOIDED, board_id,
        pair_a_id, pair_b_id,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_board_version_sql(team_match_id is not None), params)
        return tuple(cursor.fetchone())


def version_digest(own: list[Any], round_: tuple[Any, ...], row: tuple[Any, ...]) -> str:
    """The digest of a board's own columns (in ``Board._meta.concrete_fields`` order), its round's id, number,
    status, end and close, and ``board_version_row``'s figures."""
    from tournaments.selectors.tablet import BOARD_STATE_SHAPE

    made_of = (BOARD_STATE_SHAPE, own, *round_, row)
    return hashlib.blake2b(repr(made_of).encode(), digest_size=12).hexdigest()
