"""Tournament statistics: per-pair figures over confirmed games in the public rounds, and the headline
records (most hang jacks, most bullseyes, straight games, chalks from the kick, highest count for game).
"""

from __future__ import annotations

import dataclasses

from django.db.models import Prefetch

from tournaments.models import Entry, Game, Hand, Tournament
from tournaments.models.querysets import RoundQuerySet

from .public import tournament_entries


@dataclasses.dataclass
class PairStats:
    entry: Entry
    games: int = 0
    bullseyes: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    kicks: int = 0
    kick_chalks: int = 0
    jacks_kicked: int = 0
    highest_game_count: int = 0
    longest_straight: int = 0
    _streak: int = 0


@dataclasses.dataclass
class Record:
    """One headline figure: what, how many, by whom, where."""

    label: str
    value: int
    entries: list[Entry]
    detail: str = ""


def tournament_stats(tournament: Tournament) -> tuple[list[PairStats], list[Record]]:
    """Per-pair figures over confirmed games, and the headline records.

    Straight games: the longest run of games a pair won one after another, in playing order.
    """
    entries = tournament_entries(tournament)
    stats = {eid: PairStats(entry=e) for eid, e in entries.items()}
    games = (
        Game.objects.filter(
            board__round__tournament=tournament,
            board__round__status__in=RoundQuerySet.PUBLIC_STATUSES,
            status=Game.Status.FINISHED,
            confirmed=True,
        )
        .select_related("board", "board__round")
        .prefetch_related(Prefetch("hands", queryset=Hand.objects.filter(status=Hand.Status.ACTIVE).order_by("number")))
        .order_by("board__round__number", "board__table", "number")
    )
    best_count: tuple[int, list[Entry], str] = (0, [], "")
    for game in games:
        board = game.board
        side_entry = [board.pair_a_id, board.pair_b_id]
        for side in (0, 1):
            s = stats.get(side_entry[side] or -1)
            if s is None:
                continue
            s.games += 1
            if game.winner == side:
                s.bullseyes += 1
                s._streak += 1
                s.longest_straight = max(s.longest_straight, s._streak)
            elif game.winner is not None:
                s._streak = 0
        for hand in game.hands.all():
            for event in hand.events or []:
                side = event.get("side")
                if side not in (0, 1):
                    continue
                mine = stats.get(side_entry[side] or -1)
                theirs = stats.get(side_entry[1 - side] or -1)
                if event.get("kind") == "hang_jack":
                    if mine:
                        mine.hang_jacks_for += 1
                    if theirs:
                        theirs.hang_jacks_against += 1
                elif event.get("kind") == "kick" and mine:
                    mine.kicks += 1
                    mine.kick_chalks += int(event.get("points", 0))
                    if str(event.get("card", "")).upper().startswith("J"):
                        mine.jacks_kicked += 1
            counts = (hand.record or {}).get("game") if isinstance(hand.record, dict) else None
            if isinstance(counts, list) and len(counts) == 2:
                for side in (0, 1):
                    s = stats.get(side_entry[side] or -1)
                    value = counts[side] if isinstance(counts[side], int) else 0
                    if s is None:
                        continue
                    s.highest_game_count = max(s.highest_game_count, value)
                    where = f"round {board.round.number}, table {board.table}, game {game.number}, hand {hand.number}"
                    if value > best_count[0]:
                        best_count = (value, [s.entry], where)
                    elif value == best_count[0] and value and s.entry not in best_count[1]:
                        best_count = (value, [*best_count[1], s.entry], best_count[2])
    rows = sorted(stats.values(), key=lambda s: (-s.bullseyes, -s.hang_jacks_for, s.entry.pair.display_name))

    def leaders(attr: str, label: str) -> Record:
        top = max((getattr(s, attr) for s in rows), default=0)
        return Record(label, top, [s.entry for s in rows if top and getattr(s, attr) == top])

    records = [
        leaders("hang_jacks_for", "Most hang jacks"),
        leaders("bullseyes", "Most bullseyes"),
        leaders("longest_straight", "Most straight games"),
        leaders("kick_chalks", "Most chalks from the kick"),
        Record("Highest count for game", best_count[0], best_count[1], best_count[2]),
        leaders("hang_jacks_against", "Hanged most often"),
    ]
    return rows, records
