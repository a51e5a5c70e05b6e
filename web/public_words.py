"""What every public page says about its event, in a spectator's words (issue 17): the dates, the state
("Round 3 in play", "Finished"), the rules by their label, when the page was made ("Updated 14:05" in the
venue's time zone), the standings' legend and caption, pairings by name ("where do I sit?") and a board's
result without internal words ("No game finished yet" rather than "level 0-0").

The pages are rendered once and served as files (the publishing app), so nothing here depends on who
reads: every sentence is true for any reader until the next render.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone

from tournaments.formats import TIE_BREAKS
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import BoardSummary
from tournaments.selectors.clock import venue_zone
from web.setup_forms import preset_label

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _day(d: dt.date, *, month: bool = True, year: bool = True) -> str:
    out = str(d.day)
    if month:
        out += f" {_MONTHS[d.month - 1]}"
    if year:
        out += f" {d.year}"
    return out


def event_dates(tournament: Tournament) -> str:
    """``5 December 2026``, ``5–6 December 2026``, ``30 November – 1 December 2026``; "" without a date."""
    start, end = tournament.starts_on, tournament.ends_on
    if start is None:
        return _day(end) if end else ""
    if end is None or end <= start:
        return _day(start)
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}–{_day(end)}"
    if start.year == end.year:
        return f"{_day(start, year=False)} – {_day(end)}"
    return f"{_day(start)} – {_day(end)}"


#: A public round's status as a spectator says it.
ROUND_STATE = {
    Round.Status.PUBLISHED: "pairings out, play starts soon",
    Round.Status.IN_PLAY: "in play",
    Round.Status.CLOSED: "finished",
}


def round_state(round_: Round) -> str:
    return ROUND_STATE.get(round_.status, "not yet drawn")


def event_state(tournament: Tournament, rounds: Sequence[Round], *, final: bool) -> str:
    """``Upcoming``, ``Round 3 in play``, ``Round 3: pairings out, play starts soon``, ``Round 2 finished, round
    3 to come`` or ``Finished``. Only public rounds count: a drafted round is never said started."""
    if final or tournament.status == Tournament.Status.FINISHED:
        return "Finished"
    live = [r for r in rounds if r.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)]
    if live:
        r = live[-1]
        if r.status == Round.Status.IN_PLAY:
            return f"Round {r.number} in play"
        return f"Round {r.number}: pairings out, play starts soon"
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    if closed:
        last = closed[-1].number
        if tournament.rounds_planned and last >= tournament.rounds_planned:
            return f"All {last} rounds played, final results to come"
        return f"Round {last} finished, round {last + 1} to come"
    return "Upcoming"


def updated_at(tournament: Tournament, now: dt.datetime | None = None) -> str:
    """``14:05``: when the page was made, in the venue's time zone."""
    moment = timezone.localtime(now or timezone.now(), venue_zone(tournament))
    return moment.strftime("%H:%M")


def rules_label(tournament: Tournament) -> str:
    """The rules by their preset's label (``Trinidad tournament sheet``), ``… with changes`` when options
    were changed; ``house rules`` for rules without a preset."""
    rules: Any = tournament.rules
    if isinstance(rules, str):
        return preset_label(rules)
    if isinstance(rules, dict):
        preset = rules.get("preset")
        changed = [k for k in rules if k != "preset"]
        if isinstance(preset, str) and preset:
            return preset_label(preset) + (" with changes" if changed else "")
    return "house rules"


def event_context(tournament: Tournament, rounds: Sequence[Round], *, final: bool) -> dict[str, Any]:
    """The words of the head every public tournament page carries."""
    return {
        "event_dates": event_dates(tournament),
        "event_state": event_state(tournament, rounds, final=final),
        "updated_at": updated_at(tournament),
        "rules_label": rules_label(tournament),
    }


# ---- standings ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class LegendItem:
    short: str
    name: str
    sentence: str


def legend(columns: Iterable[tuple[str, str, str]]) -> list[LegendItem]:
    """Every standings heading in words: the registry's label and sentence for a tie-break, the column's
    name for the others (P, D, L)."""
    out = [LegendItem("#", "Place", "Equal places are shown as 3=.")]
    for key, short, full in columns:
        if key in TIE_BREAKS:
            tb = TIE_BREAKS.get(key)
            out.append(LegendItem(short, tb.label, tb.explanation))
        else:
            out.append(LegendItem(short, full[:1].upper() + full[1:], ""))
    return out


def standings_caption(after_round: int, has_snapshot: bool, rounds: Sequence[Round], *, final: bool) -> str:
    """What the table counts, said so: ``After round 2, with round 3 in play (its confirmed games count
    too)``. The standings count every public round's confirmed games, the one in play included."""
    if not has_snapshot:
        return "No confirmed game yet"
    live = [r.number for r in rounds if r.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
            and r.number > after_round]
    if final:
        return f"Final standings after round {after_round}" if after_round else "Final standings"
    head = f"After round {after_round}" if after_round else "Before any round is finished"
    if live:
        which = ", ".join(str(n) for n in live)
        return f"{head}, with round {which} in play: confirmed games only, round {which}'s included"
    return f"{head}: confirmed games only"


# ---- pairings -----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Seat:
    """One player's place in a round: "where do I sit?"."""

    name: str
    table: int | None
    side: str
    seats: str
    pair: Entry
    board_id: int


def seats_by_name(boards: Iterable[BoardSummary]) -> list[Seat]:
    """Every player of the round, A to Z, with the table, side and seats (a bye: no table)."""
    out = []
    for b in boards:
        for entry, side, seats in ((b.pair_a, "A", ("1", "3")), (b.pair_b, "B", ("2", "4"))):
            if entry is None:
                continue
            for i, player in enumerate((entry.pair.player_1, entry.pair.player_2)):
                out.append(Seat(player.name, None if b.is_bye else b.table, side, seats[i], entry, b.board.id))
    return sorted(out, key=lambda s: (s.name.casefold(), s.table or 0))


def board_result(summary: BoardSummary) -> str:
    """A board's result as a spectator reads it: ``No game finished yet``, ``1 game each``, ``A leads 1-0``,
    ``A won 2-1``: never ``level 0-0``."""
    from web.presenters import board_result as result_words

    if summary.is_bye:
        return "Bye: no game to play"
    if summary.board.forfeited is None and not summary.board.decided:
        a, b = summary.games_won
        if a == b == 0:
            return "No game finished yet" if summary.current_score or summary.hands_played else "Not started"
        if a == b:
            return f"{a} game{'s' if a != 1 else ''} each"
    text = result_words(summary)
    return text[:1].upper() + text[1:]


# ---- share as text (a message app) ---------------------------------------------------------------------


def main_column(columns: Sequence[tuple[str, str, str]]) -> int | None:
    """The index of the main score: the first tie-break (match points in most events)."""
    for i, (key, _short, _full) in enumerate(columns):
        if key in TIE_BREAKS:
            return i
    return None


def standings_text(tournament: Tournament, table: Any, caption: str, updated: str) -> str:
    """The standings as plain text for a message: a line per entrant, the main score and the next two."""
    lines = [f"{tournament.name}: standings", f"{caption}. Updated {updated}.", ""]
    start = main_column(table.columns)
    shown = list(range(start, min(start + 3, len(table.columns)))) if start is not None else []
    for row in table.rows:
        figures = " · ".join(f"{table.columns[i][1]} {row.values[i]}" for i in shown if i < len(row.values))
        club = f" ({row.club})" if row.club else ""
        lines.append(f"{row.rank}. {row.name}{club}" + (f": {figures}" if figures else ""))
    if not table.rows:
        lines.append("No confirmed game yet.")
    return "\n".join(lines)


def pairings_text(*, tournament: Tournament, round_: Round, boards: Sequence[BoardSummary], updated: str) -> str:
    """Round N's pairings as plain text: a line per table (A first), the byes last."""
    lines = [f"{tournament.name}: round {round_.number} pairings ({round_state(round_)})",
             f"A sits in seats 1 and 3, B in seats 2 and 4. Updated {updated}.", ""]
    for b in boards:
        if b.is_bye:
            continue
        score = f" [{b.games_won[0]}-{b.games_won[1]}]" if b.games_finished else ""
        lines.append(f"Table {b.table}: A {b.pair_a.pair.display_name} v B {b.pair_b.pair.display_name if b.pair_b else ''}{score}")
    byes = [b.pair_a.pair.display_name for b in boards if b.is_bye]
    if byes:
        lines.append("Bye: " + ", ".join(byes))
    return "\n".join(lines)
