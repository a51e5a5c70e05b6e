"""Standings as the pages, the console and the public API show them: the latest snapshot's rows
(confirmed games only), with the tournament's tie-break columns and their headings.

A snapshot is written by the standings service; these reads never compute standings, they only label and
format what the snapshot holds (ranks tied as ``3=``, differences derived when a row lacks them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection

from tournaments.formats import TIE_BREAKS
from tournaments.models import Club, Entry, StandingsSnapshot, Tournament

from .memo import Kept, active, remembered
from .public import tournament_entries

#: Standings columns: key -> (short heading, full name). Tie-break keys come from the tournament.
#: Standings columns that are not tie-breaks: key -> (short heading, full name). A tie-break's heading and
#: name come from the registry (tournaments/formats/tiebreaks.py).
COLUMN_LABELS: dict[str, tuple[str, str]] = {
    "played": ("P", "boards played"),
    "draws": ("D", "boards drawn"),
    "losses": ("L", "boards lost"),
}


def column_label(key: str) -> tuple[str, str]:
    """(short heading, full name) of a standings column."""
    if key in TIE_BREAKS:
        tie_break = TIE_BREAKS.get(key)
        return tie_break.short, tie_break.column
    return COLUMN_LABELS.get(key, (key.replace("_", " "), key.replace("_", " ")))


#: A club-team event's club table counts team matches, not boards.
TEAM_COLUMN_LABELS: dict[str, tuple[str, str]] = {
    "played": ("P", "team matches played"),
    "wins": ("W", "team matches won"),
    "draws": ("D", "team matches drawn"),
    "losses": ("L", "team matches lost"),
    "byes": ("Bye", "byes (not counted as played)"),
}


@dataclasses.dataclass
class StandingsRow:
    rank: int | str
    entry: Entry | None
    name: str
    club: str
    values: list[Any]
    raw: Mapping[str, Any]
    columns: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)
    #: The club of a club standings row (None in the pairs' table).
    club_ref: Club | None = None

    @property
    def cells(self) -> list[tuple[str, str, str, Any]]:
        """(key, short heading, full name, value) for each column."""
        return [(*c, v) for c, v in zip(self.columns, self.values, strict=False)]


@dataclasses.dataclass
class Standings:
    snapshot: StandingsSnapshot | None
    columns: list[tuple[str, str, str]]  # key, short heading, full name
    rows: list[StandingsRow]

    @property
    def after_round(self) -> int:
        return self.snapshot.after_round if self.snapshot else 0


def _entry_id(row: Mapping[str, Any]) -> int | None:
    for key in ("entrant_id", "entry_id", "entry", "id"):
        value = row.get(key)
        if isinstance(value, int):
            return value
        if isinstance(value, Mapping) and isinstance(value.get("id"), int):
            return int(value["id"])
    return None


def _value(row: Mapping[str, Any], key: str) -> Any:
    """A row's figure for a column; differences are derived when the row does not carry them."""
    if key in row:
        return row[key]
    pairs = {"bullseye_difference": ("bullseyes_won", "bullseyes_lost"), "chalk_difference": ("chalks_for", "chalks_against")}
    if key in pairs and all(isinstance(row.get(k), int | float) for k in pairs[key]):
        return row[pairs[key][0]] - row[pairs[key][1]]
    return ""


def _fmt_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return value


def latest_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    """The tournament's newest standings snapshot (read once per publisher's render: ``memo``; on PostgreSQL
    kept across renders while it is the newest and unchanged: ``_kept_snapshot``)."""
    def read() -> StandingsSnapshot | None:
        if active() and connection.vendor == "postgresql":
            return _kept_snapshot(tournament)
        return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()

    return remembered(("snapshot", tournament.pk), read)


# ---- the newest snapshot and its table kept across renders (the publisher's and the worker's processes) ----
#: A snapshot's rows at 1,000 pairs are about 300 kB of JSON: PostgreSQL took about 11 ms to hand them over
#: (353 calls in the national day's check of 2026-12-06 10:11, 3.9 s) and Python as long to decode them, and
#: the table made of them (``standings``: a row per pair, each figure formatted) about 40 ms more, in every
#: render, while a new snapshot comes with a confirmed game only. Inside a render on PostgreSQL the newest
#: snapshot's id and row version (``xmin`` and ``ctid``: a snapshot rewritten in place, a club merge, is another) are read
#: alone, and the snapshot and its table are kept while they are the same (and, for the table, while the
#: render's entries are the kept ones and the tie-breaks the same). Requests and SQLite never keep anything.
KEPT_EVENTS = 8
_kept_snapshots: Kept[int, tuple[str, StandingsSnapshot]] = Kept(KEPT_EVENTS)
_kept_tables: Kept[int, tuple[tuple[Any, ...], Mapping[int, Entry], Standings]] = Kept(KEPT_EVENTS)


def _kept_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    table = connection.ops.quote_name(StandingsSnapshot._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, xmin::text, ctid::text FROM {table} WHERE tournament_id = %s "  # noqa: S608 - our table
                       "ORDER BY created_at DESC, id DESC LIMIT 1", [tournament.pk])
        row = cursor.fetchone()
    if row is None:
        _kept_snapshots.pop(tournament.pk, None)
        return None
    version = f"{row[0]}:{row[1]}:{row[2]}"
    kept = _kept_snapshots.take(tournament.pk)
    if kept is not None and kept[0] == version:
        return kept[1]
    snapshot = StandingsSnapshot.objects.filter(pk=row[0]).first()
    if snapshot is not None:
        _kept_snapshots.keep(tournament.pk, (version, snapshot))
    return snapshot


_UNSET: Any = object()


def _columns(tournament: Tournament, raw_rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, str]]:
    keys: list[str] = []
    for key in ["played", *(tournament.tiebreaks or [])]:
        if key in keys:
            continue
        if key == "played" and raw_rows and "played" not in raw_rows[0]:
            continue
        keys.append(key)
    for key in ("chalks_for", "chalks_against", "hang_jacks_against"):
        if raw_rows and key in raw_rows[0] and key not in keys:
            keys.append(key)
    return [(k, *column_label(k)) for k in keys]


def standings(
    tournament: Tournament, entries: Mapping[int, Entry] | None = None, snapshot: StandingsSnapshot | None = _UNSET,
) -> Standings:
    """The latest snapshot's rows (confirmed games only), with the tournament's tie-break columns (made once
    per publisher's render and snapshot when ``entries`` is not given: ``memo``)."""
    if snapshot is _UNSET:
        snapshot = latest_snapshot(tournament)
    if entries is None and active() and snapshot is not None and snapshot.pk is not None:
        return remembered(("standings", tournament.pk, snapshot.pk), lambda: _kept_table(tournament, snapshot))
    return _standings(tournament, entries if entries is not None else tournament_entries(tournament), snapshot)


def _kept_table(tournament: Tournament, snapshot: StandingsSnapshot) -> Standings:
    """The table of ``snapshot``, kept from an earlier render when made of the same snapshot (the kept one:
    the same instance), entries (the kept ones: the same mapping) and tie-breaks (``_kept_snapshot``)."""
    entries = tournament_entries(tournament)
    kept_snapshot = _kept_snapshots.get(tournament.pk, ("", None))[1]
    key = (snapshot.pk, tuple(tournament.tiebreaks or ()))
    kept = _kept_tables.take(tournament.pk)
    if kept is not None and kept[0] == key and kept[1] is entries and kept_snapshot is snapshot:
        return kept[2]
    table = _standings(tournament, entries, snapshot)
    if kept_snapshot is snapshot:  # only a kept snapshot's table is kept
        _kept_tables.keep(tournament.pk, (key, entries, table))
    return table


def _standings(tournament: Tournament, entries: Mapping[int, Entry], snapshot: StandingsSnapshot | None) -> Standings:
    raw_rows: list[Mapping[str, Any]] = [r for r in (snapshot.rows if snapshot else []) if isinstance(r, Mapping)]
    columns = _columns(tournament, raw_rows)
    keys = [c[0] for c in columns]
    rows: list[StandingsRow] = []
    for i, raw in enumerate(raw_rows, 1):
        entry = entries.get(_entry_id(raw) or -1)
        name = entry.pair.display_name if entry else str(raw.get("name") or raw.get("pair") or "?")
        club = entry.club_label if entry else str(raw.get("club") or "")
        rank = raw.get("rank", i)
        rows.append(
            StandingsRow(
                rank=f"{rank}=" if raw.get("tied") else rank,
                entry=entry,
                name=name,
                club=club,
                values=[_fmt_value(_value(raw, k)) for k in keys],
                raw=raw,
                columns=columns,
            )
        )
    return Standings(snapshot=snapshot, columns=columns, rows=rows)


def club_standings(tournament: Tournament, snapshot: StandingsSnapshot | None = _UNSET) -> Standings:
    """The latest snapshot's club rows: from team matches in a club-team event, from the pairs' rows
    summed per club otherwise (confirmed games only). Rows carry ``club_ref`` for links."""
    if snapshot is _UNSET:
        snapshot = latest_snapshot(tournament)
    raw_rows: list[Mapping[str, Any]] = [r for r in (snapshot.clubs if snapshot else []) or [] if isinstance(r, Mapping)]
    columns = _columns(tournament, raw_rows)
    if tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS:
        if any(r.get("byes") for r in raw_rows):
            # A bye is shown as a bye: its own column beside the matches played (which never count it),
            # so a team with a bye does not read "0 played, 1 won" (issue 15).
            at = next((i + 1 for i, (k, _, _) in enumerate(columns) if k == "played"), 0)
            columns.insert(at, ("byes", "", ""))
        columns = [(k, *TEAM_COLUMN_LABELS.get(k, (short, full))) for k, short, full in columns]
    keys = [c[0] for c in columns]
    ids = {r.get("club_id", r.get("entrant_id")) for r in raw_rows}
    clubs = Club.objects.in_bulk([i for i in ids if isinstance(i, int)]) if ids else {}
    # The name each club played this event under (recorded on its entries; docs/leagues-model.md).
    played_as = dict(Entry.objects.filter(tournament=tournament, club_id__in=list(clubs)).exclude(club_name="")
                     .order_by("id").values_list("club_id", "club_name")) if clubs else {}
    rows: list[StandingsRow] = []
    for i, raw in enumerate(raw_rows, 1):
        club_id = raw.get("club_id", raw.get("entrant_id"))
        club = clubs.get(club_id) if isinstance(club_id, int) else None
        rank = raw.get("rank", i)
        rows.append(
            StandingsRow(
                rank=f"{rank}=" if raw.get("tied") else rank,
                entry=None,
                name=played_as.get(club.pk, club.name) if club else str(raw.get("name") or "?"),
                club="",
                values=[_fmt_value(_value(raw, k)) for k in keys],
                raw=raw,
                columns=columns,
                club_ref=club,
            )
        )
    return Standings(snapshot=snapshot, columns=columns, rows=rows)
