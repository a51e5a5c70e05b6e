"""A club's and a player's public history across events (issue 17): every published tournament they
played in, with the place the standings give (the final results of a finished event, else the latest
snapshot). Unpublished tournaments never appear; a club or player without a published event is not found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from tournaments.errors import NotFound
from tournaments.models import Club, Entry, Player, StandingsSnapshot, Tournament
from tournaments.models.events import entry_of_club

from . import final
from .memo import remembered
from .snapshots import latest_snapshot


@dataclass(frozen=True)
class HistoryLine:
    """One event of a club or player: the pair(s) that played and their places."""

    tournament: Tournament
    entries: list[Entry]
    places: list[tuple[Entry, Any, Any]]  # (entry, rank or None, match points or None)
    field_size: int

    @property
    def best(self) -> Any:
        ranks = [r for _e, r, _mp in self.places if r is not None]
        return min(ranks, key=lambda r: int(str(r).rstrip("=") or 0)) if ranks else None


def _snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    if final.is_final(tournament):
        return final.final_snapshot(tournament)
    return latest_snapshot(tournament)


def _row_entry(row: Mapping[str, Any]) -> int | None:
    for key in ("entrant_id", "entry_id", "entry"):
        value = row.get(key)
        if isinstance(value, int):
            return value
    return None


def _lines(entries: Sequence[Entry]) -> list[HistoryLine]:
    by_event: dict[int, list[Entry]] = {}
    events: dict[int, Tournament] = {}
    for e in entries:
        by_event.setdefault(e.tournament_id, []).append(e)
        events[e.tournament_id] = e.tournament
    out = []
    for tid, members in by_event.items():
        tournament = events[tid]
        rows, size = _event_places(tournament)
        places = [(e, rows.get(e.id, {}).get("rank"), rows.get(e.id, {}).get("match_points")) for e in members]
        out.append(HistoryLine(tournament, members, places, size))
    return sorted(out, key=lambda h: (h.tournament.starts_on is None, -(h.tournament.starts_on.toordinal()
                                      if h.tournament.starts_on else 0), h.tournament.name))


def _event_places(tournament: Tournament) -> tuple[dict[int | None, Mapping[str, Any]], int]:
    """The event's standings rows by entry and its field's size: once per event inside a render (a results
    pass renders 2,000 players' histories at 1,000 pairs, each of which made them again: about a sixth of the
    pass, benchmarks/render_profile.py --results)."""
    def read() -> tuple[dict[int | None, Mapping[str, Any]], int]:
        snapshot = _snapshot(tournament)
        rows = {_row_entry(r): r for r in (snapshot.rows if snapshot else []) if isinstance(r, Mapping)}
        return rows, Entry.objects.filter(tournament=tournament).count()

    return remembered(("history_places", tournament.pk), read)


def _public_entries(query: Q) -> list[Entry]:
    return list(Entry.objects.filter(query, tournament__published=True)
                .select_related("tournament", "pair__player_1", "pair__player_2", "pair__club"))


def club_history(club_id: int) -> tuple[Club, list[HistoryLine]]:
    club = Club.objects.filter(id=club_id).first()
    lines = _lines(_public_entries(entry_of_club(club_id))) if club else []
    if club is None or not lines:
        raise NotFound(message="No such club in a published event")
    return club, lines


def player_history(player_id: int) -> tuple[Player, list[HistoryLine]]:
    player = Player.objects.select_related("club").filter(id=player_id).first()
    lines = _lines(_public_entries(Q(pair__player_1_id=player_id) | Q(pair__player_2_id=player_id))) if player else []
    if player is None or not lines:
        raise NotFound(message="No such player in a published event")
    return player, lines
