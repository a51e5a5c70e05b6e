"""A round's pairings rows and its players A to Z as HTML, built in Python (``templates/public/_pairings_rows.html``
and ``pairings.html`` place them).

The row is the markup ``templates/public/_pairings_row.html`` wrote (tests/web/test_pairings_rows.py holds it
against that template): at 1,000 pairs a round's 500 rows through the template engine cost about 0.13 s of
CPU a render, most of it a ``{% url %}`` and an include per pair. Here a row is a few f-strings, with every
text escaped and the board and pair addresses reversed once per event.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Entry
from tournaments.selectors import BoardSummary
from tournaments.selectors.memo import Kept, kept_with
from web.presenters import forfeit_words
from web.public_words import Seat
from web.standings_rows import STAND_IN_ID, with_id


@lru_cache(maxsize=256)
def _reversed(slug: str, prefix: str) -> tuple[str, str]:
    return reverse("web:board", args=[slug, STAND_IN_ID]), reverse("web:pair", args=[slug, STAND_IN_ID])


def _patterns(slug: str) -> tuple[str, str]:
    """The board's and pair's addresses of the event with a stand-in id (the script prefix in the key)."""
    return _reversed(slug, get_script_prefix())


def _e(value: object) -> str:
    return str(conditional_escape(value))


def pair_names(entry: Entry, pair_pattern: str) -> str:
    """A pair's names once (``_pair_names.html``): its name linked, its players and club under it."""
    pair = entry.pair
    link = with_id(pair_pattern, entry.id)
    out = f'<a href="{link}">{_e(pair.display_name)}</a>'
    club = entry.club_label
    if pair.name or club:
        players = f"{_e(pair.player_1.name)} &amp; {_e(pair.player_2.name)}" if pair.name else ""
        out += f'<span class="players">{players}{" · " if pair.name and club else ""}{_e(club)}</span>'
    return out


def _games(b: BoardSummary) -> str:
    board = b.board
    status = _e(b.status)
    if board.forfeited is not None:
        return (f'<span class="games">{_e(board.bullseyes_a)}-{_e(board.bullseyes_b)}</span>'
                f'<span class="now">{_e(forfeit_words(board))}</span><span class="badge status-{status}">forfeit</span>')
    if b.is_bye:
        return ""
    a, c = b.games_won
    out = f'<span class="games" aria-label="games {a} to {c}">{a}-{c}</span>'
    if b.current_score:
        out += f'<span class="now">now {b.current_score[0]}-{b.current_score[1]}</span>'
    out += f'<span class="badge status-{status}">{_e(b.status_label)}</span>'
    if b.help_called:
        out += ' <span class="badge help">help</span>'
    return out


def pairing_row(b: BoardSummary, slug: str) -> SafeString:
    """One board of the round (a bye: the pair and no table) as a list item; inside a render, kept across
    renders while the board's summary is the same (``memo.kept_with``: 500 rows at 1,000 pairs, about twenty of
    them changed a render)."""
    board_pattern, pair_pattern = _patterns(slug)
    return kept_with(b, ("pairing_row", b.board.id, board_pattern), lambda: _row(b, board_pattern, pair_pattern))


def _row(b: BoardSummary, board_pattern: str, pair_pattern: str) -> SafeString:
    if b.is_bye:
        number = '<span class="bye-word">bye</span>'
    else:
        link = with_id(board_pattern, b.board.id)
        number = f'<a href="{link}" aria-label="Table {_e(b.table)} scorecard">{_e(b.table)}</a>'
    side_b = (f'<p class="pl"><span class="sidetag b" aria-label="pair B">B</span> {pair_names(b.pair_b, pair_pattern)}</p>'
              if b.pair_b else '<p class="pl"><em>bye: no table this round</em></p>')
    html = (f'<li class="tbl{" bye" if b.is_bye else ""} status-row-{_e(b.status)}" data-search="{_e(b.names().lower())}">\n'
            f'  <span class="tno">{number}</span>\n  <div class="pairs">\n'
            f'    <p class="pl"><span class="sidetag a" aria-label="pair A">A</span> {pair_names(b.pair_a, pair_pattern)}</p>\n'
            f'    {side_b}\n  </div>\n  <div class="gm">{_games(b)}</div>\n</li>\n')
    return mark_safe(html)  # noqa: S308 - every text above is escaped


#: "Where do I sit?" lists kept by what they show (``seat_items``): a round's seating changes when it is
#: drafted, not with its hands, and at 1,000 pairs its 2,000 items took about 20 ms of CPU a render.
KEPT_SEAT_LISTS = 8
_kept_seats: Kept[tuple[object, ...], SafeString] = Kept(KEPT_SEAT_LISTS)


def seat_items(seats: Iterable[Seat], slug: str) -> SafeString:
    """"Where do I sit?": every player A to Z as list items (the template's markup, 2,000 of them at 1,000
    pairs), each table linked to its board; kept while the same seats are asked for."""
    board_pattern, _pair = _patterns(slug)
    listed = list(seats)
    key = (board_pattern, tuple((s.name, s.table, s.side, s.seats, s.board_id) for s in listed))
    kept = _kept_seats.take(key)
    return kept if kept is not None else _kept_seats.keep(key, _seat_items(listed, board_pattern))


def _seat_items(seats: list[Seat], board_pattern: str) -> SafeString:
    out = []
    for s in seats:
        name = _e(s.name)
        if s.table:
            link = with_id(board_pattern, s.board_id)
            where = f'<a href="{link}">table {_e(s.table)}</a> · {_e(s.side)}, seat {_e(s.seats)}'
        else:
            where = "bye this round"
        out.append(f'<li data-name="{name}"><span class="who">{name}</span> <span class="where">{where}</span></li>')
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped
