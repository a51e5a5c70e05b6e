"""Importing a past season (issue 15): a teams CSV and a results CSV (3 divisions, an odd one with byes, a
cross-division fixture, a postponed match), previewed with per-row errors and stored only when every row is
good; the same teams from an XLSX made here with openpyxl."""

from __future__ import annotations

import io

import openpyxl
import pytest

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import make_season
from tournaments.errors import DomainError
from tournaments.models import AuditEvent, Club, Division, Team, TeamMatch
from tournaments.services.league_import import season_import
from tournaments.services.leagues import league_standings

pytestmark = pytest.mark.django_db

TEAMS = """team,club,division
Couva Jacks,Couva All Fours Club,Premier
Bay Boys,Bay Boys AFC,Premier
Sangre Grande,Sangre Grande AF,Premier
Point Kickers,Point Fortin Kickers,Premier
Arima Aces,Arima Aces,Championship
Tobago Trumps,Tobago Trumps,Championship
Chaguanas Hi,Chaguanas AF,Championship
Mayaro Lows,Mayaro AF,First
Siparia Jacks,Siparia AF,First
"""

RESULTS = """round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks,status,played_on
1,2026-04-04,Premier,Couva Jacks,Bay Boys,17,9,2,1,,
1,2026-04-04,Premier,Sangre Grande,Point Kickers,16,17,0,3,,
1,2026-04-04,Championship,Arima Aces,Tobago Trumps,17,12,1,0,,
1,2026-04-04,Championship,Chaguanas Hi,,,,,,,
1,2026-04-04,First,Mayaro Lows,Siparia Jacks,10,17,0,2,,
2,2026-04-11,Premier,Couva Jacks,Sangre Grande,17,5,4,0,,
2,2026-04-11,Premier,Bay Boys,Point Kickers,,,,,postponed,
2,2026-04-11,Championship,Arima Aces,Chaguanas Hi,8,17,0,1,,
2,2026-04-11,Championship,Tobago Trumps,,,,,,,
3,2026-04-18,,Chaguanas Hi,Mayaro Lows,17,14,1,1,,2026-04-19
"""


def _season():
    user = make_user()
    season, user = make_season(user=user, team_format={"boards": 3, "kind": "first_to_total", "n": 17})
    return season, user


def test_the_preview_stores_nothing_and_names_what_each_row_will_do():
    season, user = _season()
    audit_before = AuditEvent.objects.count()
    answer = season_import(tournament=season, user=user, teams=(TEAMS.encode(), "teams.csv"),
                           results=(RESULTS.encode(), "results.csv"))
    assert answer.ok and not answer.stored
    assert Team.objects.filter(tournament=season).count() == 0 and not Division.objects.filter(tournament=season)
    assert AuditEvent.objects.count() == audit_before
    assert answer.teams[0].outcome == "New team, new club Couva All Fours Club, new division Premier."
    assert answer.results[0].outcome == "New fixture: Couva Jacks 17-9 Bay Boys, hang jacks 2-1."
    assert answer.results[3].outcome == "Bye for Chaguanas Hi on match day 1."
    assert answer.results[6].outcome == "New fixture, postponed."
    assert answer.counts == {"teams": 9, "results": 10, "rows_with_errors": 0, "teams_new": 9, "fixtures_new": 8,
                             "byes": 2, "postponed": 1, "results_entered": 7}


def test_committing_stores_the_season_and_its_tables_count_byes_as_byes():
    season, user = _season()
    answer = season_import(tournament=season, user=user, teams=(TEAMS.encode(), "teams.csv"),
                           results=(RESULTS.encode(), "results.csv"), commit=True)
    assert answer.stored
    assert Team.objects.filter(tournament=season).count() == 9
    assert list(season.divisions.order_by("order").values_list("name", flat=True)) == ["Premier", "Championship", "First"]
    postponed = TeamMatch.objects.get(round__tournament=season, team_a__name="Bay Boys")
    assert postponed.status == TeamMatch.Status.POSTPONED
    first = TeamMatch.objects.get(round__tournament=season, round__number=1, team_a__name="Couva Jacks")
    assert (first.bullseyes_a, first.bullseyes_b, first.hang_jacks_a, first.hang_jacks_b) == (17, 9, 2, 1)
    assert first.result_source == "match_totals" and first.entered_as == "import" and first.confirmed
    cross = TeamMatch.objects.get(round__tournament=season, round__number=3)
    assert str(cross.played_on) == "2026-04-19" and str(cross.round.date) == "2026-04-18"
    championship = Division.objects.get(tournament=season, name="Championship")
    table = league_standings(tournament=season, division=championship)
    rows = {r["team"]: r for r in table["rows"]}
    assert rows["Chaguanas Hi"]["byes"] == 1 and rows["Chaguanas Hi"]["played"] == 1, "the cross-division match is overall only"
    assert rows["Tobago Trumps"]["byes"] == 1 and rows["Tobago Trumps"]["played"] == 1
    overall = {r["team"]: r for r in league_standings(tournament=season)["rows"]}
    assert overall["Chaguanas Hi"]["played"] == 2 and overall["Couva Jacks"]["wins"] == 2


def test_a_second_file_fills_in_fixtures_already_there_and_clubs_are_reused():
    season, user = _season()
    season_import(tournament=season, user=user, teams=(TEAMS.encode(), "t.csv"), commit=True)
    fixtures = "round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks\n" \
               "1,2026-04-04,Premier,Couva Jacks,Bay Boys,,,,\n"
    season_import(tournament=season, user=user, results=(fixtures.encode(), "f.csv"), commit=True)
    filled = "round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks\n" \
             "1,2026-04-04,Premier,Couva Jacks,Bay Boys,17,3,1,0\n"
    answer = season_import(tournament=season, user=user, results=(filled.encode(), "r.csv"), commit=True)
    assert answer.results[0].outcome.startswith("Fixture already in the season: Couva Jacks 17-3 Bay Boys")
    assert TeamMatch.objects.filter(round__tournament=season).count() == 1
    assert Club.objects.filter(name="Couva All Fours Club").count() == 1


def test_rows_with_errors_are_named_by_column_and_nothing_is_stored():
    season, user = _season()
    bad = RESULTS + "\n".join([
        "3,2026-04-18,Premier,Couva Jacks,Bay Boys,18,9,0,0,,",  # past the race to 17
        "3,2026-04-18,Premier,Couva Jacks,Nobody FC,17,9,0,0,,",  # no such team
        "3,2026-04-18,Premier,Point Kickers,,17,0,0,0,,",  # a bye with figures
        "4,not a date,Premier,Point Kickers,Bay Boys,17,2,0,0,,",
        "4,2026-04-25,Premier,Sangre Grande,Bay Boys,17,2,0,0,finished,",
        "3,2026-04-18,Premier,Chaguanas Hi,Couva Jacks,17,2,0,0,,",  # Chaguanas Hi plays twice on 04-18
        "5,2026-05-02,Premier,=HYPERLINK(1),Bay Boys,17,2,0,0,,",
    ]) + "\n"
    answer = season_import(tournament=season, user=user, teams=(TEAMS.encode(), "t.csv"),
                           results=(bad.encode(), "r.csv"), commit=True)
    assert not answer.stored and Team.objects.filter(tournament=season).count() == 0
    errors = [(r.line, sorted(r.errors)) for r in answer.results if r.errors]
    assert errors == [(12, ["home_games"]), (13, ["away"]), (14, ["home_games"]), (15, ["date"]), (16, ["status"]),
                      (17, ["round"]), (18, ["home"])]
    assert "race to 17" in answer.results[10].errors["home_games"]
    assert "twice" in answer.results[15].errors["round"]


def test_the_teams_from_an_xlsx_made_with_openpyxl():
    season, user = _season()
    book = openpyxl.Workbook()
    sheet = book.active
    for line in TEAMS.strip().splitlines():
        sheet.append(line.split(","))
    buffer = io.BytesIO()
    book.save(buffer)
    answer = season_import(tournament=season, user=user, teams=(buffer.getvalue(), "teams.xlsx"), commit=True)
    assert answer.stored and Team.objects.filter(tournament=season).count() == 9


def test_a_file_without_the_columns_is_refused_as_a_whole():
    season, user = _season()
    with pytest.raises(DomainError) as refused:
        season_import(tournament=season, user=user, results=(b"home,away\nA,B\n", "r.csv"))
    assert refused.value.code == "import_unreadable" and "results_file" in refused.value.fields
