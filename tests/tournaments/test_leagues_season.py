"""A test season (docs/leagues-model.md): three divisions, an odd one with byes, a cross-division fixture, a
postponed match; tables checked against expectations computed by hand (below, with the working) under three
tie-break orders and four bye policies.

The season: race to 5 games (team format first_to_total 5), results entered as match totals by the
organiser. Division 1 (A1, A2, A3) is generated (Berger tables: day 1 A2 v A3, A1 bye; day 2 A1 v A2, A3 bye;
day 3 A3 v A1, A2 bye); divisions 2 (B1, B2) and 3 (C1, C2) play day 1; day 4 has the cross-division fixture
A1 v B1 and C2 v C1; B1 v B2 is postponed from day 1, refused on day 4 (B1 plays A1 there), played on day 5.

Results (home first; games, then hang jacks):
  day 1  A2 v A3 5-3 (2-1)    C1 v C2 5-4 (1-3)    B1 v B2 postponed
  day 2  A1 v A2 5-2 (3-0)
  day 3  A3 v A1 5-4 (2-2)
  day 4  A1 v B1 3-5 (0-1)    C2 v C1 5-1 (2-0)
  day 5  B1 v B2 5-0 (4-0)
C2 has 2 match points and 1 bullseye deducted ("fielded a pair not on its roster").
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.leagues_helpers import day, make_divisions, make_season, make_team
from tournaments.formats import BYE_PRESETS
from tournaments.models import TeamMatch
from tournaments.services import Conflict, ValidationFailed, tournament_update
from tournaments.services.leagues import (
    deduction_add,
    division_update,
    fixture_create,
    fixture_move,
    fixture_postpone,
    fixtures_generate,
    league_standings,
    league_tables,
    match_day_create,
    match_totals_enter,
)

pytestmark = pytest.mark.django_db

LEAGUE_ORDER = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]


def _fixture(season, home, away):
    return TeamMatch.objects.get(round__tournament=season, team_a=home, team_b=away)


def _totals(match, games, hang_jacks, user):
    return match_totals_enter(team_match=match, user=user, games=games, hang_jacks=hang_jacks)


@pytest.fixture
def season():
    season, user = make_season()
    d1, d2, d3 = make_divisions(season, user, "Division 1", "Division 2", "Division 3")
    teams = {}
    for seed, (name, division) in enumerate([("A1", d1), ("A2", d1), ("A3", d1), ("B1", d2), ("B2", d2),
                                             ("C1", d3), ("C2", d3)], start=1):
        teams[name] = make_team(season, user, name, division, seed=seed)
    made = fixtures_generate(tournament=season, user=user, dates=[day(1), day(2), day(3)], venue="Couva")
    t = teams
    # the Berger tables of docs/pairing.md: three days for division 1, one for divisions 2 and 3
    assert sorted((m.round.number, m.team_a.name, m.team_b.name if m.team_b else None) for m in made) == [
        (1, "A1", None), (1, "A2", "A3"), (1, "B1", "B2"), (1, "C1", "C2"),
        (2, "A1", "A2"), (2, "A3", None), (3, "A2", None), (3, "A3", "A1")]
    day4 = match_day_create(tournament=season, user=user, date=day(4), venue="San Fernando")
    day5 = match_day_create(tournament=season, user=user, date=day(5), venue="Couva")
    cross = fixture_create(round=day4, home=t["A1"], away=t["B1"], user=user)
    fixture_create(round=day4, home=t["C2"], away=t["C1"], user=user)
    postponed = fixture_postpone(team_match=_fixture(season, t["B1"], t["B2"]), user=user, reason="flooded hall")
    _totals(_fixture(season, t["A2"], t["A3"]), [5, 3], [2, 1], user)
    _totals(_fixture(season, t["C1"], t["C2"]), [5, 4], [1, 3], user)
    _totals(_fixture(season, t["A1"], t["A2"]), [5, 2], [3, 0], user)
    _totals(_fixture(season, t["A3"], t["A1"]), [5, 4], [2, 2], user)
    _totals(cross, [3, 5], [0, 1], user)
    _totals(_fixture(season, t["C2"], t["C1"]), [5, 1], [2, 0], user)
    return {"season": season, "user": user, "teams": t, "divisions": (d1, d2, d3), "postponed": postponed,
            "day4": day4, "day5": day5}


def _rows(table, *fields):
    return [tuple([row["team"], row["rank"], *(row[f] for f in fields)]) for row in table["rows"]]


def _finish(s):
    """Move the postponed fixture: refused on day 4 (B1 plays A1 there), played on day 5; C2's deduction."""
    user, t = s["user"], s["teams"]
    with pytest.raises(Conflict) as refused:
        fixture_move(team_match=s["postponed"], round=s["day4"], user=user)
    assert refused.value.code == "fixture_clash"
    assert "B1 would play twice on 2026-04-25" in refused.value.message
    assert "round 4 (2026-04-25): A1 v B1" in refused.value.message and "B1 v B2" in refused.value.message
    moved = fixture_move(team_match=s["postponed"], round=s["day5"], user=user)
    _totals(moved, [5, 0], [4, 0], user)
    deduction_add(team=t["C2"], user=user, reason="fielded a pair not on its roster", match_points=2, bullseyes=1)


def test_a_postponed_fixture_counts_nowhere_until_it_is_played(season):
    table = league_standings(tournament=season["season"], division=season["divisions"][1])
    assert _rows(table, "played", "byes", "bullseyes_won") == [("B1", 1, 0, 0, 0), ("B2", 1, 0, 0, 0)]
    assert season["postponed"].status == "postponed"
    _finish(season)
    table = league_standings(tournament=season["season"], division=season["divisions"][1])
    assert _rows(table, "played", "wins", "bullseyes_won", "bullseyes_lost") == [("B1", 1, 1, 1, 5, 0),
                                                                                 ("B2", 2, 1, 0, 0, 5)]


# Division 1, from play alone (each team played 2):
#   A1: beat A2 5-2 (HJ 3-0), lost to A3 4-5 (HJ 2-2): won 9, lost 7, HJ for 5, against 2
#   A2: beat A3 5-3 (HJ 2-1), lost to A1 2-5 (HJ 0-3): won 7, lost 8, HJ for 2, against 4
#   A3: lost to A2 3-5 (HJ 1-2), beat A1 5-4 (HJ 2-2): won 8, lost 9, HJ for 3, against 4
# League bye (a win; the race target 5 for; own average against: A1 7/2, A2 8/2, A3 9/2):
#   A1 won 14, lost 10.5; A2 won 12, lost 12; A3 won 13, lost 13.5; each 2 wins, 1 loss, 1 bye, 4 points
LEAGUE_BYE_D1 = [("A1", 14, Fraction(21, 2), 2, 1, 2, 1, 4, 5, 2),
                 ("A3", 13, Fraction(27, 2), 2, 1, 2, 1, 4, 3, 4),
                 ("A2", 12, 12, 2, 1, 2, 1, 4, 2, 4)]


def test_division_table_with_the_league_bye_shows_the_bye_as_a_bye(season):
    table = league_standings(tournament=season["season"], division=season["divisions"][0])
    got = [(r["team"], r["bullseyes_won"], r["bullseyes_lost"], r["played"], r["byes"], r["wins"], r["losses"],
            r["match_points"], r["hang_jacks_for"], r["hang_jacks_against"]) for r in table["rows"]]
    expected = [(name, float(w), float(lost), played, byes, wins, losses, mp, hf, ha)
                for name, w, lost, played, byes, wins, losses, mp, hf, ha in LEAGUE_BYE_D1]
    assert got == expected
    assert [r["rank"] for r in table["rows"]] == [1, 2, 3]
    # a bye is not a played match: 2 played, 1 bye, 2 wins (one of them the bye) and 1 loss
    assert all(r["played"] + r["byes"] == r["wins"] + r["losses"] for r in table["rows"])
    assert table["rows"][0]["sources"] == {"bye": 1, "match_totals": 2}
    assert table["rows"][0]["chalks_for"] is None  # match totals hold no game scores


@pytest.mark.parametrize(("order", "expected"), [
    # bullseyes won: A1 14, A3 13, A2 12
    (LEAGUE_ORDER, [("A1", 1, False), ("A3", 2, False), ("A2", 3, False)]),
    # bullseyes lost, fewer first: A1 10.5, A2 12, A3 13.5
    (["bullseyes_lost", "wins"], [("A1", 1, False), ("A2", 2, False), ("A3", 3, False)]),
    # hang jacks against, fewer first: A1 2; A2 and A3 4 each, still level: they share 2nd (seed order)
    (["hang_jacks_against"], [("A1", 1, False), ("A2", 2, True), ("A3", 2, True)]),
])
def test_division_table_under_three_tie_break_orders(season, order, expected):
    tournament_update(tournament=season["season"], user=season["user"], tiebreaks=order)
    table = league_standings(tournament=season["season"], division=season["divisions"][0])
    assert [(r["team"], r["rank"], r["tied"]) for r in table["rows"]] == expected
    assert table["tie_breaks"] == order


# bare_win: a win, no figures: A1 won 9 lost 7, A3 8/9, A2 7/8 (2 wins each).
# nothing: a loss, no figures: the same bullseyes, 1 win and 2 losses each.
# round_average (per round over the division's decided boards, capped at the average winner's):
#   day 1 (A1's bye): A2 v A3 5-3, HJ 2-1: average 4 games, 1.5 HJ; a winner's 5 for / 3 against, 2 / 1
#     -> for min(4, 5) = 4, against max(4, 3) = 4; HJ for min(1.5, 2) = 1.5, against max(1.5, 1) = 1.5
#   day 2 (A3's bye): A1 v A2 5-2, HJ 3-0 -> 3.5 / 3.5 games, 1.5 / 1.5 HJ
#   day 3 (A2's bye): A3 v A1 5-4, HJ 2-2 -> 4.5 / 4.5 games, 2 / 2 HJ
#   A1 13 / 11, HJ 6.5 / 3.5; A2 11.5 / 12.5, HJ 4 / 6; A3 11.5 / 12.5, HJ 4.5 / 5.5
#   league order: A1; A2 and A3 level on won, lost and wins; hang jacks for: A3 4.5 before A2 4
@pytest.mark.parametrize(("preset", "expected"), [
    ("bare_win", [("A1", 9, 7, 2, 1, 0, 0), ("A3", 8, 9, 2, 1, 0, 0), ("A2", 7, 8, 2, 1, 0, 0)]),
    ("nothing", [("A1", 9, 7, 1, 2, 0, 0), ("A3", 8, 9, 1, 2, 0, 0), ("A2", 7, 8, 1, 2, 0, 0)]),
    ("round_average", [("A1", 13, 11, 2, 1, 1.5, 1.5), ("A3", 11.5, 12.5, 2, 1, 1.5, 1.5),
                       ("A2", 11.5, 12.5, 2, 1, 2, 2)]),
])
def test_division_table_under_other_bye_policies(season, preset, expected):
    tournament_update(tournament=season["season"], user=season["user"], bye_policy=BYE_PRESETS[preset].policy.to_dict())
    table = league_standings(tournament=season["season"], division=season["divisions"][0])
    played_hj = {"A1": (5, 2), "A2": (2, 4), "A3": (3, 4)}
    got = [(r["team"], r["bullseyes_won"], r["bullseyes_lost"], r["wins"], r["losses"],
            r["hang_jacks_for"] - played_hj[r["team"]][0], r["hang_jacks_against"] - played_hj[r["team"]][1])
           for r in table["rows"]]
    assert got == expected
    assert [r["byes"] for r in table["rows"]] == [1, 1, 1]
    assert [r["played"] for r in table["rows"]] == [2, 2, 2]


# Overall (league bye, league order), every fixture:
#   A1 played 3 (+ lost to B1 3-5, HJ 0-1): won 12, lost 12 -> own average against 4; bye: 17 / 16, 2 W 2 L
#   A2 12 / 12; A3 13 / 13.5 (as in the division)
#   B1 beat A1 5-3 and B2 5-0: 10 / 3; B2 0 / 5
#   C1 beat C2 5-4, lost to C2 1-5: 6 / 9, 2 points
#   C2 9 / 6 less 1 deducted bullseye = 8, 2 points less 2 deducted = 0
OVERALL = [("A1", 1, 17, 16, 3, 1, 2, 2, 4), ("A3", 2, 13, 13.5, 2, 1, 2, 1, 4), ("A2", 3, 12, 12, 2, 1, 2, 1, 4),
           ("B1", 4, 10, 3, 2, 0, 2, 0, 4), ("C2", 5, 8, 6, 2, 0, 1, 1, 0), ("C1", 6, 6, 9, 2, 0, 1, 1, 2),
           ("B2", 7, 0, 5, 1, 0, 0, 1, 0)]


def test_overall_table_counts_the_cross_division_fixture_and_the_deduction(season):
    _finish(season)
    tables = league_tables(tournament=season["season"])
    assert _rows(tables["overall"], "bullseyes_won", "bullseyes_lost", "played", "byes", "wins", "losses",
                 "match_points") == OVERALL
    c2 = next(r for r in tables["overall"]["rows"] if r["team"] == "C2")
    assert c2["deductions"] == [{"match_points": 2, "bullseyes": 1, "reason": "fielded a pair not on its roster",
                                 "team_match": None}]
    d1, d2, d3 = tables["divisions"]
    assert [r["team"] for r in d1["rows"]] == ["A1", "A3", "A2"]  # the cross fixture is not in division 1
    assert _rows(d2, "played", "bullseyes_won") == [("B1", 1, 1, 5), ("B2", 2, 1, 0)]
    assert _rows(d3, "match_points", "bullseyes_won") == [("C2", 1, 0, 8), ("C1", 2, 2, 6)]


def test_a_division_may_count_its_cross_division_fixtures(season):
    _finish(season)
    d2 = division_update(division=season["divisions"][1], user=season["user"], cross_overall_only=False)
    table = league_standings(tournament=season["season"], division=d2)
    # B1 now counts its win over A1 (5-3): 2 played, 10 won, 3 lost; A1 is not a row of division 2
    assert _rows(table, "played", "bullseyes_won", "bullseyes_lost") == [("B1", 1, 2, 10, 3), ("B2", 2, 1, 0, 5)]


def test_a_chalk_tie_break_is_refused_for_a_season_of_match_totals(season):
    tournament_update(tournament=season["season"], user=season["user"], tiebreaks=["match_points", "chalk_difference"])
    with pytest.raises(ValidationFailed) as refused:
        league_standings(tournament=season["season"])
    assert refused.value.code == "tie_break_not_fed"
    assert "Chalk difference needs each game's score" in refused.value.message
    assert "tiebreaks" in refused.value.fields
