"""The hall display's three lists as HTML, built in Python (``templates/public/hall.html`` places them).

The hall (a TV or projector: pairings, live boards and standings in turn) is rendered with every published
change of its event. At 1,000 pairs its three lists hold 500 boards, up to 500 live boards and 1,000 rows: through
Django's template engine about 0.11 s of CPU a render, a third of a whole change's. Here each item is a few
f-strings with the same markup and escaping as the template loops they replace
(tests/web/test_hall_rows.py holds them to those loops).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.safestring import SafeString, mark_safe

from tournaments.selectors import BoardSummary
from tournaments.selectors.snapshots import Standings
from web.standings_rows import _text

ITEM_END = "</li>\n  "  # each item as the template's loop wrote it (the newline and indent before the next)


def _name(entry: object) -> str:
    return _text(entry.pair.display_name) if entry is not None else ""  # type: ignore[attr-defined]


def _pairs(b: BoardSummary) -> str:
    return (f'<li><span class="hall-tno">{_text(b.table)}</span><span class="hall-pairs">'
            f'<span><span class="sidetag a">A</span> {_name(b.pair_a)}</span>'
            f'<span><span class="sidetag b">B</span> {_name(b.pair_b)}</span></span>')


def pairings(boards: Sequence[BoardSummary]) -> SafeString:
    """The round's boards (byes apart): table and both pairs."""
    return mark_safe("".join(_pairs(b) + ITEM_END for b in boards))  # noqa: S308 (every text escaped)


def live(boards: Sequence[BoardSummary]) -> SafeString:
    """The boards in play: both pairs, games won, the current game's score, the state."""
    out = []
    for b in boards:
        now = (f'<span class="now">game {_text(b.current_game)}: {_text(b.current_score[0])}-'
               f'{_text(b.current_score[1])}</span>') if b.current_score else ""
        out.append(f'{_pairs(b)}<span class="hall-score"><span class="games">{_text(b.games_won[0])}-'
                   f'{_text(b.games_won[1])}</span>{now}<span class="badge status-{_text(b.status)}">'
                   f'{_text(b.status_label)}</span></span>{ITEM_END}')
    return mark_safe("".join(out))  # noqa: S308 (every text escaped)


def standings(table: Standings, main_index: int | None) -> SafeString:
    """Rank, pair and club, and the table's main figure with its short name."""
    short = ""
    if main_index is not None and 0 <= main_index < len(table.columns):
        short = _text(table.columns[main_index][1])
    out = []
    for row in table.rows:
        club = f'<span class="club">{_text(row.club)}</span>' if row.club else ""
        figure = ""
        if main_index is not None:
            value = row.values[main_index] if 0 <= main_index < len(row.values) else ""
            figure = f'<span class="hall-score"><span class="games">{_text(value)}</span><span class="now">{short}</span></span>'
        out.append(f'<li><span class="hall-tno">{_text(row.rank)}</span><span class="hall-pairs"><span>'
                   f'{_text(row.name)}</span>{club}</span>{figure}{ITEM_END}')
    return mark_safe("".join(out))  # noqa: S308 (every text escaped)
