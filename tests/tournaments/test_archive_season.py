"""The archive of a league season (docs/archive.md, "Leagues"): a small season (two divisions, an odd one with
byes, a cross-division fixture, a postponed and a walked-over fixture, match totals, a fixture played on two
boards from paper chalk sheets, a deduction, a line-up substitution) exported, the database emptied, imported
by another organiser, and every table, fixture and board equal; a changed paper figure is refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from tests.tournaments.leagues_helpers import day, make_divisions, make_season, make_team
from tournaments import adapters, selectors
from tournaments.models import Board, League, Team, TeamMatch, Tournament
from tournaments.services.archive import archive_export, archive_import
from tournaments.services.archive.schema import _validator
from tournaments.services.errors import ValidationFailed
from tournaments.services.leagues import (
    deduction_add,
    fixture_create,
    fixture_postpone,
    fixture_walkover,
    fixtures_generate,
    league_tables,
    lineup_set,
    lineup_substitute,
    match_day_create,
    match_totals_enter,
    paper_game_enter,
)

from .archive_helpers import organiser

pytestmark = pytest.mark.django_db


def _fixture(season: Tournament, home: Team, away: Team) -> TeamMatch:
    return TeamMatch.objects.get(round__tournament=season, team_a=home, team_b=away)


def build_season() -> Tournament:
    season, user = make_season()
    north, south = make_divisions(season, user, "North", "South")
    t = {name: make_team(season, user, name, division, pairs=3, seed=seed)
         for seed, (name, division) in enumerate([("A1", north), ("A2", north), ("A3", north), ("B1", south),
                                                  ("B2", south)], start=1)}
    fixtures_generate(tournament=season, user=user, dates=[day(1), day(2), day(3)], venue="Couva")
    day4 = match_day_create(tournament=season, user=user, date=day(4), venue="San Fernando")
    cross = fixture_create(round=day4, home=t["A1"], away=t["B1"], user=user)
    match_totals_enter(team_match=_fixture(season, t["A2"], t["A3"]), user=user, games=[5, 3], hang_jacks=[2, 1])
    match_totals_enter(team_match=_fixture(season, t["A3"], t["A1"]), user=user, games=[5, 4], hang_jacks=[2, 2])
    fixture_walkover(team_match=_fixture(season, t["A1"], t["A2"]), absent="away", user=user, reason="no team")
    fixture_postpone(team_match=_fixture(season, t["B1"], t["B2"]), user=user, reason="flooded hall")
    # the cross-division fixture from two boards' chalk sheets (a race to 5 over 2 boards)
    home = list(t["A1"].roster.order_by("id"))
    away = list(t["B1"].roster.order_by("id"))
    lineup_set(team_match=cross, team=t["A1"], entries=home[:2], user=user)
    lineup_set(team_match=cross, team=t["B1"], entries=away[:2], user=user)
    lineup_substitute(team_match=cross, team=t["B1"], slot=1, entry=away[2], user=user, reason="late")
    target = adapters.rules_for_tournament(season).target
    boards = list(Board.objects.filter(team_match=cross).order_by("slot"))
    for board, sides in ((boards[0], [0, 1, 0, 0]), (boards[1], [1, 0, 0])):
        for side in sides:
            board.refresh_from_db()
            if board.decided:
                break
            score = [target, target - 5] if side == 0 else [target - 3, target]
            paper_game_enter(board=board, user=user, score=score, hang_jacks=[1 - side, side], kicks=[2, 1])
    deduction_add(team=t["B2"], user=user, reason="late line-up", match_points=1, bullseyes=0)
    return season


def season_view(season: Tournament) -> dict[str, Any]:
    """Every table by team names, every fixture and every board's games, keyed by names and numbers."""
    tables = league_tables(tournament=season)

    def rows(table: dict[str, Any]) -> list[Any]:
        return [{k: v for k, v in r.items() if k not in ("team_id", "club_id", "division_id", "deductions")}
                | {"deductions": [(d["match_points"], d["bullseyes"], d["reason"]) for d in r["deductions"]]}
                for r in table["rows"]]

    fixtures = sorted(
        (m.round.number, m.round.date, m.round.venue, m.team_a.name, m.team_b.name if m.team_b else None, m.status,
         m.result_source, m.bullseyes_a, m.bullseyes_b, m.hang_jacks_a, m.hang_jacks_b, m.decided, m.winner,
         m.walkover_by, m.confirmed, m.entered_as, [len(m.lineup_a), len(m.lineup_b)], m.substitutions.count(),
         m.deductions.count())
        for m in TeamMatch.objects.filter(round__tournament=season).select_related("round", "team_a", "team_b"))
    boards = {}
    for board in Board.objects.filter(round__tournament=season).select_related("round", "team_match"):
        games = [(g.number, g.status, g.result_source, g.score, g.winner, g.hang_jacks_a, g.hang_jacks_b, g.kicks_a,
                  g.kicks_b, g.game_counts_a, g.confirmed) for g in selectors.scorecard_games(board)]
        boards[(board.round.number, board.table)] = (board.pair_a.pair.display_name, board.pair_b.pair.display_name,
                                                     board.result_source, board.bullseyes_a, board.bullseyes_b,
                                                     board.hang_jacks_a, board.hang_jacks_b, board.decided, games)
    return {"overall": rows(tables["overall"]), "divisions": [rows(d) for d in tables["divisions"]],
            "division_names": [d["division"]["name"] for d in tables["divisions"]], "fixtures": fixtures,
            "boards": boards, "label": season.season, "league": season.league.name}


@pytest.fixture(scope="module")
def trip(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:
    with django_db_blocker.unblock():
        try:
            season = build_season()
            before = season_view(season)
            document = json.loads(json.dumps(archive_export(tournament=season)))
            call_command("flush", "--no-input", verbosity=0)  # an empty server
            user = organiser()
            imported = archive_import(document=copy.deepcopy(document), user=user)
            yield {"document": document, "before": before, "after": season_view(imported), "user": user,
                   "imported": imported}
        finally:
            call_command("flush", "--no-input", verbosity=0)


def test_the_season_round_trip_gives_every_table_fixture_and_board_equal(trip):
    before, after = trip["before"], trip["after"]
    assert before["division_names"] == after["division_names"] == ["North", "South"]
    assert after["overall"] == before["overall"] and len(before["overall"]) == 5
    assert after["divisions"] == before["divisions"]
    assert after["fixtures"] == before["fixtures"]
    assert after["boards"] == before["boards"] and len(before["boards"]) == 2
    assert (after["label"], after["league"]) == (before["label"], before["league"])
    statuses = {f[5] for f in before["fixtures"]}
    assert {"played", "walkover", "postponed"} <= statuses
    assert {f[6] for f in before["fixtures"]} >= {"match_totals", "forfeit", "bye", "hands"}


def test_the_season_archive_carries_the_league_parts(trip):
    document = trip["document"]
    assert list(_validator().iter_errors(document)) == []  # the published schema, records included
    assert "@" not in json.dumps(document)
    assert document["league"]["season"] == "2026" and len(document["divisions"]) == 2 and len(document["teams"]) == 5
    assert [d["reason"] for d in document["deductions"]] == ["late line-up"]
    assert [s["reason"] for s in document["lineup_substitutions"]] == ["late"]
    paper = [g for g in document["games"] if g["result_source"] == "paper_game"]
    assert paper and all(g["paper"]["kicks"] == [2, 1] for g in paper)
    assert document["standings"]["league_tables"]["overall"]
    assert League.objects.get().owner == trip["user"].personal_organisation


def test_a_changed_paper_figure_or_total_is_refused(trip):
    document = copy.deepcopy(trip["document"])
    paper = next(g for g in document["games"] if g["result_source"] == "paper_game" and g["status"] == "finished")
    paper["result"]["score"] = [paper["result"]["score"][0] + 40, paper["result"]["score"][1]]
    with pytest.raises(ValidationFailed) as refused:
        archive_import(document=document, user=trip["user"])
    assert refused.value.code == "archive_mismatch" and "the engine's rules refuse it" in refused.value.message
    document = copy.deepcopy(trip["document"])
    totals = next(m for m in document["team_matches"] if m["result_source"] == "match_totals")
    totals["result"]["bullseyes"] = [6, 3]
    with pytest.raises(ValidationFailed) as refused:
        archive_import(document=document, user=trip["user"])
    assert refused.value.code == "archive_mismatch" and "its totals are refused" in refused.value.message
    document = copy.deepcopy(trip["document"])
    document["standings"]["league_tables"]["overall"][0]["match_points"] += 3
    with pytest.raises(ValidationFailed, match="the overall table, row 1"):
        archive_import(document=document, user=trip["user"])
