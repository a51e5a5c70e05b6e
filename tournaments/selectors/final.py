"""The end of an event as it is read: the final results frozen by ``tournament_finish``, the final report
(standings with how ties were broken, prizes, payout, statistics, a crosstable) and the results as plain
text for a message app.

``final_results_data`` builds what finishing freezes (``Tournament.final_results``, plain JSON):

    {"version": 1, "finished_at": ISO, "after_round": n, "currency": "TTD",
     "tie_breaks": [{"name", "label", "short", "explanation"}, ...],
     "standings": [snapshot row + "name", "club", "players"], "clubs": [club row + "name"],
     "prizes": [Award.to_dict()], "payout": Payout.to_dict(), "records": [{"label", "value", "names", "detail"}],
     "one_prize_per_pair": bool, "prize_ties": "tie_breaks" | "split"}

Reopening the event keeps it and adds ``"reopened_at"`` (ISO): the results are then superseded and the
pages read the live standings again, until the event is finished again (which freezes new results).

``final_report`` reads the frozen results of a finished event, else the standings and prizes as they stand
(``provisional``); ``results_text`` writes the short text; ``crosstable`` the pairs against the rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tournaments.formats import TIE_BREAKS, FormatError
from tournaments.models import Board, StandingsSnapshot, Tournament
from tournaments.models.querysets import RoundQuerySet
from tournaments.selectors.clock import venue_zone

from .prizes import Award, Payout, award_from_dict, money, ordinal, payout_from_awards, prizes_award
from .public import tournament_entries
from .snapshots import Standings, club_standings, latest_snapshot, standings
from .statistics import Record, tournament_stats

FINAL_VERSION = 1


def is_final(tournament: Tournament) -> bool:
    """Whether the tournament is finished with final results that stand (not reopened since)."""
    results = tournament.final_results
    return (tournament.status == Tournament.Status.FINISHED and isinstance(results, Mapping)
            and not results.get("reopened_at"))


def tie_break_explanations(tournament: Tournament) -> list[dict[str, str]]:
    """The tournament's tie-breaks in order, each with its label and its sentence for players."""
    try:
        names = tournament.tie_break_order()
    except FormatError:
        names = ()
    out = []
    for name in names:
        tb = TIE_BREAKS.get(name)
        out.append({"name": tb.name, "label": tb.label, "short": tb.short, "explanation": tb.explanation})
    return out


def _records_data(records: Sequence[Record]) -> list[dict[str, Any]]:
    return [{"label": r.label, "value": r.value, "names": [e.pair.display_name for e in r.entries],
             "detail": r.detail} for r in records]


def final_results_data(tournament: Tournament, snapshot: StandingsSnapshot | None,
                       *, finished_at: datetime) -> dict[str, Any]:
    """What finishing freezes (see the module): final standings with names, the tie-break order with its
    explanations, the prizes awarded, the payout and the statistics' records."""
    entries = tournament_entries(tournament)
    rows: list[dict[str, Any]] = []
    for raw in (snapshot.rows if snapshot else []) or []:
        if not isinstance(raw, Mapping):
            continue
        entry = entries.get(raw.get("entry_id", raw.get("entrant_id")) or -1)
        rows.append({**raw, "name": entry.pair.display_name if entry else str(raw.get("name") or ""),
                     "club": entry.club_label if entry else "",
                     "players": (f"{entry.pair.player_1.name} & {entry.pair.player_2.name}" if entry else "")})
    club_table = club_standings(tournament, snapshot=snapshot)
    clubs = [{**row.raw, "name": row.name} for row in club_table.rows]
    awards = prizes_award(tournament, snapshot) if snapshot is not None else []
    payout = payout_from_awards(tournament, awards)
    _, records = tournament_stats(tournament)
    return {
        "version": FINAL_VERSION, "finished_at": finished_at.isoformat(),
        "after_round": snapshot.after_round if snapshot else 0, "currency": tournament.currency,
        "tie_breaks": tie_break_explanations(tournament), "standings": rows, "clubs": clubs,
        "prizes": [a.to_dict() for a in awards], "payout": payout.to_dict(), "records": _records_data(records),
        "one_prize_per_pair": tournament.one_prize_per_pair, "prize_ties": tournament.prize_ties,
    }


# ---- the crosstable --------------------------------------------------------------------------------------


@dataclass
class CrossCell:
    """One pair's board in one round: the result from its side (W, L, D, F: it forfeited, bye, or "" while
    undecided), the games (bullseyes) won and lost, and the opponent's line in the table."""

    round: int
    result: str
    score: str = ""
    opponent: str = ""
    opponent_line: int | None = None
    by_forfeit: bool = False

    @property
    def text(self) -> str:
        """Compact: ``W 2-1 v 5``, ``W (F) v 3``, ``bye``."""
        if self.result == "bye":
            return "bye"
        mark = "W (F)" if self.by_forfeit else (self.result or "…")
        against = f" v {self.opponent_line}" if self.opponent_line else ""
        return f"{mark}{' ' + self.score if self.score and not self.by_forfeit else ''}{against}"


@dataclass
class CrossRow:
    line: int
    rank: str
    entry_id: int
    name: str
    cells: list[CrossCell | None]
    points: Any = ""


@dataclass
class Crosstable:
    rounds: list[int]
    rows: list[CrossRow]


def crosstable(tournament: Tournament, order: Sequence[Mapping[str, Any]] | None = None) -> Crosstable:
    """Every pair (in the standings' order, ``order`` rows when given) against every public round."""
    entries = tournament_entries(tournament)
    if order is None:
        snapshot = latest_snapshot(tournament)
        order = [r for r in (snapshot.rows if snapshot else []) if isinstance(r, Mapping)]
    ids: list[int] = []
    meta: dict[int, Mapping[str, Any]] = {}
    for row in order:
        entry_id = row.get("entry_id", row.get("entrant_id"))
        if isinstance(entry_id, int) and entry_id not in meta:
            ids.append(entry_id)
            meta[entry_id] = row
    for entry_id in sorted(entries, key=lambda e: (entries[e].seed or 0, e)):
        if entry_id not in meta:
            ids.append(entry_id)
            meta[entry_id] = {}
    line = {entry_id: i for i, entry_id in enumerate(ids, 1)}
    boards = list(Board.objects.filter(round__tournament=tournament, round__status__in=RoundQuerySet.PUBLIC_STATUSES)
                  .filter(Q(pair_a__isnull=False)).select_related("round").order_by("round__number", "table", "id"))
    rounds = sorted({b.round.number for b in boards})
    cells: dict[int, dict[int, CrossCell]] = {entry_id: {} for entry_id in ids}
    for b in boards:
        number = b.round.number
        if b.pair_b_id is None:
            cells.setdefault(b.pair_a_id, {})[number] = CrossCell(number, "bye")
            continue
        for side, me, them in ((0, b.pair_a_id, b.pair_b_id), (1, b.pair_b_id, b.pair_a_id)):
            won = (b.bullseyes_a, b.bullseyes_b)[side]
            lost = (b.bullseyes_a, b.bullseyes_b)[1 - side]
            result = ""
            by_forfeit = False
            if b.forfeited is not None:
                if b.forfeited in (side, 2):
                    result = "F"
                else:
                    result, by_forfeit = "W", True
            elif b.decided:
                result = "D" if b.is_draw or b.winner is None else ("W" if b.winner == side else "L")
            opponent = entries.get(them)
            cells.setdefault(me, {})[number] = CrossCell(
                number, result, f"{won}-{lost}", opponent.pair.display_name if opponent else "", line.get(them), by_forfeit)
    rows = []
    for entry_id in ids:
        row = meta[entry_id]
        entry = entries.get(entry_id)
        rank = row.get("rank")
        rows.append(CrossRow(
            line=line[entry_id], rank=(f"{rank}=" if row.get("tied") else str(rank)) if rank is not None else "",
            entry_id=entry_id, name=entry.pair.display_name if entry else str(row.get("name") or ""),
            cells=[cells.get(entry_id, {}).get(n) for n in rounds], points=row.get("match_points", ""),
        ))
    return Crosstable(rounds=rounds, rows=rows)


# ---- the report ----------------------------------------------------------------------------------------


@dataclass
class FinalReport:
    tournament: Tournament
    #: The frozen results of a finished event (False: as things stand, provisional).
    final: bool
    #: Reopened since it was finished: the frozen results no longer stand.
    reopened_at: str | None
    finished_at: datetime | None
    standings: Standings
    club_table: Standings
    tie_breaks: list[dict[str, str]]
    awards: list[Award]
    payout: Payout
    records: list[Record] = field(default_factory=list)
    crosstable: Crosstable | None = None

    @property
    def provisional(self) -> bool:
        return not self.final


def _frozen_snapshot(tournament: Tournament, results: Mapping[str, Any]) -> StandingsSnapshot:
    """The frozen rows as an unsaved snapshot, so the standings' labelling reads them as any other."""
    return StandingsSnapshot(tournament=tournament, after_round=int(results.get("after_round") or 0),
                             source_hash="final", rows=list(results.get("standings") or []),
                             clubs=list(results.get("clubs") or []))


def final_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    """The final standings of a finished event as a snapshot (unsaved), else None."""
    return _frozen_snapshot(tournament, tournament.final_results or {}) if is_final(tournament) else None


def final_awards(tournament: Tournament) -> list[Award]:
    """The prizes as frozen at the end of a finished event, else as they stand now."""
    if is_final(tournament):
        return [award_from_dict(a) for a in (tournament.final_results or {}).get("prizes") or []]
    return prizes_award(tournament)


def final_report(tournament: Tournament, *, with_crosstable: bool = True) -> FinalReport:
    """The final report's data: frozen when the event is finished, else the standings as they stand."""
    results = tournament.final_results if isinstance(tournament.final_results, Mapping) else {}
    final = is_final(tournament)
    snapshot = _frozen_snapshot(tournament, results) if final else latest_snapshot(tournament)
    entries = tournament_entries(tournament)
    table = standings(tournament, entries, snapshot=snapshot)
    clubs = club_standings(tournament, snapshot=snapshot)
    awards = final_awards(tournament)
    _, records = tournament_stats(tournament)
    cross = crosstable(tournament, [r.raw for r in table.rows]) if with_crosstable else None
    return FinalReport(
        tournament=tournament, final=final, reopened_at=results.get("reopened_at"),
        finished_at=tournament.finished_at, standings=table, club_table=clubs,
        tie_breaks=list(results.get("tie_breaks") or []) if final else tie_break_explanations(tournament),
        awards=awards, payout=payout_from_awards(tournament, awards), records=records, crosstable=cross,
    )


# ---- results as plain text ---------------------------------------------------------------------------


def _day(d: date) -> str:
    return f"{d.day} {d:%b %Y}"


def event_dates(tournament: Tournament) -> str:
    """"14 Feb 2026", "14 Feb 2026 to 15 Feb 2026", or the day it finished."""
    if tournament.starts_on:
        if tournament.ends_on and tournament.ends_on != tournament.starts_on:
            return f"{_day(tournament.starts_on)} to {_day(tournament.ends_on)}"
        return _day(tournament.starts_on)
    when = tournament.finished_at or timezone.now()
    return _day(when.astimezone(venue_zone(tournament)).date())


def public_path(tournament: Tournament) -> str:
    """The public page's address (a path: the caller may make it absolute)."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("web:tournament", args=[tournament.slug])
    except NoReverseMatch:
        return f"/t/{tournament.slug}/"


#: How many places the text lists at least (more when more places carry a prize), and at most.
TEXT_PLACES = 3
TEXT_PLACES_MAX = 10


def results_text(tournament: Tournament, *, link: str | None = None, report: FinalReport | None = None) -> str:
    """The results as plain text for a message app: the event, its date, the top places with their records
    and points, the prizes with winners and amounts, and the public page. Short lines, no tables."""
    report = report or final_report(tournament, with_crosstable=False)
    currency = tournament.currency
    head = "final results" if report.final else (
        f"standings after round {report.standings.after_round}" if report.standings.after_round
        else "standings so far")
    lines = [f"{tournament.name}: {head}"]
    where = ", ".join(x for x in (tournament.venue, event_dates(tournament)) if x)
    if where:
        lines.append(where)
    if not report.final:
        lines.append("Provisional: the event is not finished.")
    places = sum(1 for a in report.awards if a.category == "place")
    shown = min(TEXT_PLACES_MAX, max(TEXT_PLACES, places))
    # a club-team event is won by a club: its top places are the club table's
    table = report.club_table if tournament.is_club_teams and report.club_table.rows else report.standings
    rows = table.rows[:shown]
    if rows:
        lines.append("")
        for row in rows:
            raw = row.raw
            bits = []
            if raw.get("record"):
                bits.append(str(raw["record"]))
            if raw.get("match_points") is not None:
                points = raw["match_points"]
                points = int(points) if isinstance(points, float) and points.is_integer() else points
                bits.append(f"{points} pts")
            rank = raw.get("rank")
            place = f"{'=' if raw.get('tied') else ''}{ordinal(rank)}" if isinstance(rank, int) else str(row.rank)
            club = f" ({row.club})" if row.club else ""
            lines.append(f"{place} {row.name}{club}" + (f": {', '.join(bits)}" if bits else ""))
    if report.awards:
        lines.append("")
        lines.append("Prizes")
        for award in report.awards:
            amount = f" ({money(award.amount, currency)})" if award.amount is not None else ""
            if not award.winners:
                lines.append(f"{award.title}{amount}: not awarded")
                continue
            if len(award.winners) == 1:
                lines.append(f"{award.title}{amount}: {award.winners[0].name}")
            else:
                shares = {w.amount for w in award.winners}
                each = f", {money(award.winners[-1].amount, currency)} each" if len(shares) == 1 and None not in shares else ""
                lines.append(f"{award.title}{amount}, shared{each}:")
                lines.extend(f"- {w.name}" + (f" {money(w.amount, currency)}" if not each and w.amount is not None else "")
                             for w in award.winners)
    lines.append("")
    lines.append(f"Full results: {link or public_path(tournament)}")
    return "\n".join(lines) + "\n"


__all__ = [
    "CrossCell", "CrossRow", "Crosstable", "FinalReport", "crosstable", "event_dates", "final_awards",
    "final_report", "final_results_data", "final_snapshot", "is_final", "public_path", "results_text",
    "tie_break_explanations", "venue_zone",
]
