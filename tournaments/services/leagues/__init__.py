"""Leagues (issue 15; docs/leagues-model.md, docs/services.md "Leagues"): leagues, seasons, divisions, teams
and rosters (``setup``); match days, fixtures, walkovers, deductions, line-ups (``fixtures``, ``deductions``, ``lineups``); results from
paper (``results``, checked by ``plausible``); tables and statistics (``standings``)."""

from .deductions import deduction_add, deduction_void
from .fixtures import (
    fixture_create,
    fixture_move,
    fixture_postpone,
    fixture_replay,
    fixture_void,
    fixture_walkover,
    fixtures_generate,
    match_day_create,
    match_day_update,
)
from .lineups import lineup_set, lineup_substitute
from .plausible import check_game, check_match, max_event_points
from .results import (
    match_result_confirm,
    match_totals_enter,
    paper_game_confirm,
    paper_game_enter,
    paper_game_void,
)
from .setup import (
    division_create,
    division_update,
    league_create,
    league_update,
    roster_add,
    roster_move,
    season_create,
    team_captains_set,
    team_create,
    team_update,
)
from .standings import league_standings, league_statistics, league_tables, season_tie_breaks_check

__all__ = [
    "check_game", "check_match", "deduction_add", "deduction_void", "division_create", "division_update",
    "fixture_create", "fixture_move", "fixture_postpone", "fixture_replay", "fixture_void", "fixture_walkover",
    "fixtures_generate", "league_create", "league_standings", "league_statistics", "league_tables", "league_update",
    "lineup_set", "lineup_substitute", "match_day_create", "match_day_update", "match_result_confirm",
    "match_totals_enter", "max_event_points", "paper_game_confirm", "paper_game_enter", "paper_game_void", "roster_add",
    "roster_move", "season_create", "season_tie_breaks_check", "team_captains_set", "team_create", "team_update",
]
