"""Reads of the domain, by concern; the pages (``web``) and the API call these and never query models
for what they show.

- ``tablet``: the live round, a table's board in it, the board's state as the tablet (and every 409/412)
  sees it, one hand as JSON.
- ``public``: published tournaments and the rounds, boards, pairs and clubs the public may see.
- ``boards``: boards summarised as they stand, live (``BoardSummary``), a round's boards, a pair's boards.
- ``snapshots``: standings as the latest snapshot holds them, pairs' and clubs' tables, labelled.
- ``statistics``: per-pair figures and headline records over confirmed games.
- ``organiser``: the console's reads (any status, no publication check; the caller checks the role).
- ``fingerprint``: what a public read shows, as of the latest change, in one query (the caches' key),
  and the cache tiers' lifetimes; import it from ``tournaments.selectors.fingerprint``.

Which rounds a reader sees is said once, on the round queryset: ``Round.objects.live()`` (published, in
play) and ``.public()`` (also closed), and ``RoundQuerySet.LIVE_STATUSES`` / ``PUBLIC_STATUSES``.
A lookup that finds nothing raises ``tournaments.errors.NotFound``.
"""

from .boards import (
    STATUS_LABELS,
    BoardSummary,
    PairBoard,
    board_summary,
    entry_boards,
    entry_players,
    round_boards,
    round_team_matches,
    summarise,
)
from .organiser import (
    active_hand_at,
    active_hands,
    active_version,
    board_game,
    board_hand,
    has_role,
    organised_tournaments,
    results_games,
    round_number_taken,
    round_tables,
    round_to_run,
    tournament_board,
    tournament_by_slug,
    tournament_device,
    tournament_devices,
    tournament_round,
    tournament_rounds,
)
from .public import (
    active_entry_count,
    public_board,
    public_club,
    public_entry,
    public_round,
    public_rounds,
    public_tournament,
    published_tournaments,
    published_tournaments_query,
    round_to_show,
    scorecard_games,
    seat_names,
    tournament_clubs,
    tournament_entries,
)
from .snapshots import (
    COLUMN_LABELS,
    TEAM_COLUMN_LABELS,
    Standings,
    StandingsRow,
    club_standings,
    latest_snapshot,
    standings,
)
from .statistics import PairStats, Record, tournament_stats
from .tablet import board_for_table, board_state, hand_data, live_round

__all__ = [
    "BoardSummary", "COLUMN_LABELS", "PairBoard", "PairStats", "Record", "STATUS_LABELS", "Standings",
    "StandingsRow", "TEAM_COLUMN_LABELS", "active_entry_count", "active_hand_at", "active_hands",
    "active_version", "board_for_table", "board_game", "board_hand", "board_state", "board_summary",
    "club_standings", "entry_boards", "entry_players", "hand_data", "has_role", "latest_snapshot",
    "live_round", "organised_tournaments", "public_board", "public_club", "public_entry", "public_round",
    "public_rounds", "public_tournament", "published_tournaments", "published_tournaments_query",
    "results_games", "round_boards", "round_number_taken", "round_tables", "round_team_matches",
    "round_to_run", "round_to_show", "scorecard_games", "seat_names", "standings", "summarise",
    "tournament_board", "tournament_by_slug", "tournament_clubs", "tournament_device", "tournament_devices",
    "tournament_entries", "tournament_round", "tournament_rounds", "tournament_stats",
]
