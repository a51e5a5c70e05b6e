"""The pairs' standings rows as HTML, built once per table and shared by every page of a render.

A 1,000-pair event's standings page lists each pair twice (the phone's list of rows and the wide table), and
its ``live/`` and ``table/`` fragments list them again. Through Django's template engine that was most of a
published change's CPU (about 0.8 s at 1,000 pairs: a ``{% url %}`` and a localised number per cell). Here
each row is put together in Python with the same markup and the same escaping as the template it replaces
(``templates/public/_standings_table.html`` keeps the caption and the empty table's sentence), the pair
address is reversed once per table, and inside the publisher's render memo (``tournaments.selectors.memo``)
the rows of one table are built once for all the pages that show them, and across renders the rows built
are kept while what they show is the same (``_KEPT``): a large event's whole table changes with a new
snapshot (a confirmed game), not with each hand, and every change's render shows it on the standings page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.selectors.memo import Kept, remembered
from tournaments.selectors.snapshots import Standings, StandingsRow

STAND_IN_ID = 987654321  # reversed once, then replaced by each pair's id (web.pairings_rows too)

#: Rows built, kept across renders by a digest of everything they show (``_digest``): at 1,000 pairs a table's
#: rows take about 70 ms of CPU to build and its digest about 4. A few tables (two per event: the whole table
#: and its top), each up to about 2 MB of text.
KEPT_TABLES = 8
_KEPT: Kept[str, tuple[str, str]] = Kept(KEPT_TABLES)


def with_id(pattern: str, object_id: int) -> str:
    """An address reversed with the stand-in ``STAND_IN_ID``, for ``object_id``: the last occurrence only (a slug may
    hold the same digits)."""
    head, _sep, tail = pattern.rpartition(str(STAND_IN_ID))
    return f"{head}{object_id}{tail}"


def _text(value: Any) -> str:
    """``{{ value }}`` as the template engine writes it: localised, escaped (an int needs neither here)."""
    if type(value) is int:
        return str(value)
    return str(conditional_escape(localize(value)))


def _forfeits(raw: Any) -> str:
    won, lost = raw.get("forfeits_won"), raw.get("forfeits_lost")
    parts = []
    if won:
        parts.append(f"{_text(won)} won by forfeit")
    if lost:
        parts.append(f"{_text(lost)} forfeited")
    return " · ".join(parts)


def _phone_row(row: StandingsRow, name: str, club: str, link: str | None, main: str, mark: bool) -> str:
    figures = "".join(f"<div><dt>{_text(short)}</dt><dd>{_text(value)}</dd></div>"
                      for _key, short, _full, value in row.cells)
    forfeits = _forfeits(row.raw)
    return "".join([
        f'  <li class="rank-row{" mark" if mark else ""}">\n  <details>\n',
        f'    <summary><span class="rank">{_text(row.rank)}</span><span class="who">{name}{club}</span>{main}</summary>\n',
        f'    <dl class="row-figures">{figures}</dl>\n',
        f'    <p class="small">{forfeits}</p>\n' if forfeits else "",
        f'    <p class="row-link"><a href="{link}">{name}: every board</a></p>\n' if link else "",
        "  </details>\n  </li>\n",
    ])


def _wide_row(row: StandingsRow, name: str, club: str, link: str | None, mark: bool) -> str:
    forfeits = _forfeits(row.raw)
    who = f'<a href="{link}">{name}</a>' if link else name
    tail = f'<span class="club forfeits">{forfeits}</span>' if forfeits else ""
    cells = "".join(f'<td class="num">{_text(v)}</td>' for v in row.values)
    attrs = ' class="mark"' if mark else ""
    return (f'    <tr{attrs}>\n      <td class="num">{_text(row.rank)}</td>\n'
            f'      <th scope="row">{who}{club}{tail}</th>\n      {cells}\n    </tr>\n')


def _build(standings: Standings, slug: str, main_index: int | None, highlight: int | None,
           limit: int | None) -> tuple[str, str]:
    pattern = reverse("web:pair", args=[slug, STAND_IN_ID])
    label = ""
    if main_index is not None and 0 <= main_index < len(standings.columns):
        label = _text(standings.columns[main_index][1])
    phone: list[str] = []
    wide: list[str] = []
    rows: Sequence[StandingsRow] = standings.rows if limit is None else standings.rows[:limit]
    for row in rows:
        name = _text(row.name)
        club = f'<span class="club">{_text(row.club)}</span>' if row.club else ""
        link = with_id(pattern, row.entry.id) if row.entry else None
        mark = bool(highlight and row.entry and row.entry.id == highlight)
        main = ""
        if main_index is not None:
            value = row.values[main_index] if 0 <= main_index < len(row.values) else ""
            main = (f'<span class="main"><span class="fig">{_text(value)}</span> '
                    f'<span class="fig-label">{label}</span></span>')
        phone.append(_phone_row(row, name, club, link, main, mark))
        wide.append(_wide_row(row, name, club, link, mark))
    return "".join(phone), "".join(wide)


def _digest(rows: Sequence[StandingsRow], columns: Sequence[Any], slug: str, main_index: int | None,
            highlight: int | None) -> str:
    """A digest of what ``_build`` reads: the columns, the address's parts and each row's rank, names, pair,
    figures and forfeits (the language is the process's, so it is not in it)."""
    digest = hashlib.blake2b(repr((list(columns), slug, get_script_prefix(), main_index, highlight)).encode(),
                             digest_size=16)
    for row in rows:
        raw = row.raw
        digest.update(repr((row.rank, row.name, row.club, row.entry.id if row.entry else None, row.values,
                            raw.get("forfeits_won"), raw.get("forfeits_lost"))).encode())
    return digest.hexdigest()


def _kept_build(standings: Standings, slug: str, main_index: int | None, highlight: int | None,
                limit: int | None) -> tuple[str, str]:
    rows = standings.rows if limit is None else standings.rows[:limit]
    key = _digest(rows, standings.columns, slug, main_index, highlight)
    kept = _KEPT.take(key)
    return kept if kept is not None else _KEPT.keep(key, _build(standings, slug, main_index, highlight, limit))


def standings_rows(standings: Standings, *, slug: str, main_index: int | None, highlight: int | None = None,
                   limit: int | None = None) -> tuple[SafeString, SafeString]:
    """(the phone's ``<li>`` rows, the wide table's ``<tr>`` rows) of the first ``limit`` rows (all when
    None); made once per table and arguments inside a render memo, and kept across renders while what they
    show is the same."""
    key = ("standings_rows", id(standings), slug, main_index, highlight, limit)
    # the table is kept with its rows, so its id is not reused while the memo holds them
    _table, phone, wide = remembered(key, lambda: (standings, *_kept_build(standings, slug, main_index, highlight, limit)))
    return mark_safe(phone), mark_safe(wide)  # noqa: S308 - every text above is escaped
