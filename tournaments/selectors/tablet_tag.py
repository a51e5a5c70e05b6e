"""The tablet's board version straight from its token: the unchanged board read (a 304) in two plain queries.

A paired tablet reads its board every 10 s with the ETag of the state it shows, and nearly every answer is
304: at a national day's 500 tables, 50 a second, the largest share of the web tier's CPU. Through the usual
path each costs the device with its tournament, the table's board with its round (Django compiling both:
about 2 ms of CPU) and the version query. Here the device, its tournament's status, the live round and the
board at the device's table are one prepared-once SQL statement, and the version the same query and digest as
``fingerprint.board_version`` (so the tags are the same, tests/api/test_tablet_fast_304.py).

It answers only the common case and never decides anything else: no active device for the token, a finished
tournament, no board at the table, or a device not seen for ``LAST_SEEN_RESOLUTION`` (whose visit the usual
path records) give None, and the view takes the usual path, which answers every other case as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.models import Board, Device, Round, Tournament
from tournaments.models.querysets import RoundQuerySet

from .fingerprint import board_version_row, version_digest

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class TabletTag:
    device_id: int
    board_id: int
    version: str  # fingerprint.board_version of the board


@functools.cache
def _statement(vendor: str) -> tuple[str, list[tuple[int, list[Converter], Any]]]:
    """The SQL, and for each column that needs one the converters Django's compiler would apply (JSON
    fields, SQLite's dates), so the values are the ones a model instance holds."""
    from django.db import connection

    q = connection.ops.quote_name
    board_fields = list(Board._meta.concrete_fields)
    round_fields = [Round._meta.pk, *(Round._meta.get_field(n) for n in ("number", "status", "ends_at", "closed_at"))]
    columns = ([f"d.{q('id')}", f"d.{q('last_seen_at')}"] + [f"r.{q(f.column)}" for f in round_fields]
               + [f"b.{q(f.column)}" for f in board_fields])
    sql = (f"SELECT {', '.join(columns)} FROM {q(Device._meta.db_table)} d "
           f"JOIN {q(Tournament._meta.db_table)} t ON t.{q('id')} = d.{q('tournament_id')} "
           f"JOIN {q(Round._meta.db_table)} r ON r.{q('tournament_id')} = d.{q('tournament_id')} "
           f"AND r.{q('status')} IN ({', '.join(['%s'] * len(RoundQuerySet.LIVE_STATUSES))}) "
           f"JOIN {q(Board._meta.db_table)} b ON b.{q('round_id')} = r.{q('id')} AND b.{q('table')} = d.{q('table')} "
           f"WHERE d.{q('token_digest')} = %s AND d.{q('revoked_at')} IS NULL AND t.{q('status')} <> %s "
           f"ORDER BY r.{q('number')} DESC LIMIT 1")
    fields = [Device._meta.pk, Device._meta.get_field("last_seen_at"), *round_fields, *board_fields]
    converters = []
    for i, field in enumerate(fields):
        col = field.get_col(field.model._meta.db_table)
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if found:
            converters.append((i, found, col))
    return sql, converters


def _convert(row: Sequence[Any], converters: list[tuple[int, list[Converter], Any]]) -> list[Any]:
    from django.db import connection

    values = list(row)
    for i, found, col in converters:
        for convert in found:
            values[i] = convert(values[i], col, connection)
    return values


def tablet_board_tag(token_digest: str, *, seen_after: datetime) -> TabletTag | None:
    """The version of the board at the table of the active device holding ``token_digest`` (its tournament
    not finished; the live round's board, the latest round first), or None: no such device or board, or the
    device last seen before ``seen_after``."""
    from django.db import connection

    sql, converters = _statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*RoundQuerySet.LIVE_STATUSES, token_digest, Tournament.Status.FINISHED])
        row = cursor.fetchone()
    if row is None:
        return None
    values = _convert(row, converters)
    device_id, last_seen_at = values[0], values[1]
    if last_seen_at is None or last_seen_at < seen_after:
        return None
    round_ = tuple(values[2:7])
    own = values[7:]
    board = dict(zip((f.attname for f in Board._meta.concrete_fields), own, strict=True))
    version_row = board_version_row(board["id"], board["team_match_id"], board["pair_a_id"], board["pair_b_id"])
    return TabletTag(device_id=device_id, board_id=board["id"], version=version_digest(own, round_, version_row))
