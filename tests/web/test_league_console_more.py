"""The league console's smaller forms (issue 15): a match day's date and venue changed, a division and a team
edited, a substitution on a seated board, a chalk-sheet game set aside, a deduction cancelled. Each through
the page as the organiser posts it, with a refusal shown by the form."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import make_divisions, make_season, make_team
from tournaments.models import Game, LineupSubstitution, PointDeduction
from tournaments.services.leagues import (
    deduction_add,
    fixture_create,
    lineup_set,
    match_day_create,
    paper_game_enter,
)

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"web:{name}", args=args)


@pytest.fixture
def setup():
    season, user = make_season(team_format={"boards": 2, "kind": "first_to_total", "n": 17})
    division = make_divisions(season, user, "Premier")[0]
    home = make_team(season, user, "Home", division, pairs=3)
    away = make_team(season, user, "Away", division, pairs=3)
    day = match_day_create(tournament=season, user=user, date=datetime.date(2026, 4, 18), venue="Couva hall")
    match = fixture_create(round=day, home=home, away=away, user=user)
    c = Client()
    c.force_login(user)
    return season, user, division, home, away, day, match, c


def test_match_day_and_division_forms(setup):
    season, user, division, home, away, day, match, c = setup
    page = url("console_season", season.slug)
    body = c.get(page).content.decode()
    assert 'value="match_day_update"' in body and 'value="division_update"' in body
    assert 'value="2026-04-18"' in body  # the date form starts from the day's date
    r = c.post(page, {"action": "match_day_update", "round": day.pk, "date": "2026-04-25", "venue": "Bay hall"})
    assert r.status_code == 302
    day.refresh_from_db()
    assert (day.date, day.venue) == (datetime.date(2026, 4, 25), "Bay hall")
    r = c.post(page, {"action": "match_day_update", "round": day.pk, "date": "25 April", "venue": "Bay hall"})
    assert r.status_code == 400 and "A date as YYYY-MM-DD." in r.content.decode()
    r = c.post(page, {"action": "division_update", "division": division.pk, "name": "Premier A", "order": "2",
                      "boards": "3", "race_to": ""})
    assert r.status_code == 302
    division.refresh_from_db()
    assert (division.name, division.order, division.boards, division.race_target) == ("Premier A", 2, 3, None)
    r = c.post(page, {"action": "division_update", "division": division.pk, "name": "Premier A", "boards": "99"})
    assert r.status_code == 400 and "A whole number from 1 to 30." in r.content.decode()
    stranger = Client()
    stranger.force_login(make_user())
    r = stranger.post(page, {"action": "division_update", "division": division.pk, "name": "Mine"})
    assert r.status_code in (403, 404)
    division.refresh_from_db()
    assert division.name == "Premier A"


def test_team_form(setup):
    season, user, division, home, away, day, match, c = setup
    page = url("console_season_team", season.slug, home.pk)
    assert 'value="team_update"' in c.get(page).content.decode()
    r = c.post(page, {"action": "team_update", "name": "Home Kings", "division": ""})
    assert r.status_code == 302
    home.refresh_from_db()
    assert (home.name, home.division_id, home.withdrawn) == ("Home Kings", None, False)
    r = c.post(page, {"action": "team_update", "name": "Away", "division": division.pk})
    assert r.status_code == 400 and "The season has a team of that name." in r.content.decode()
    home.refresh_from_db()
    assert home.name == "Home Kings"


def test_substitution_set_aside_and_deduction_forms(setup):
    season, user, division, home, away, day, match, c = setup
    page = url("console_season_fixture", season.slug, match.pk)
    rosters = {t: list(t.roster.order_by("seed", "id").values_list("pk", flat=True)) for t in (home, away)}
    for team in (home, away):
        lineup_set(team_match=match, team=team, entries=rosters[team][:2], user=user)
    body = c.get(page).content.decode()
    assert 'value="substitute"' in body and "Record the substitution" in body
    r = c.post(page, {"action": "substitute", "team": home.pk, "slot": "2", "entry": rosters[home][2], "reason": "Late"})
    assert r.status_code == 302
    sub = LineupSubstitution.objects.get(team_match=match)
    assert (sub.slot, sub.out_entry_id, sub.in_entry_id, sub.reason) == (1, rosters[home][1], rosters[home][2], "Late")
    r = c.post(page, {"action": "substitute", "team": home.pk, "slot": "1", "entry": rosters[away][2]})
    assert r.status_code == 400  # a pair of the other team's roster
    board = match.boards.order_by("slot").first()
    game = paper_game_enter(board=board, user=user, score=[14, 9], hang_jacks=[1, 0])
    body = c.get(page).content.decode()
    assert "Set game 1 aside" in body and f'name="game" value="{game.pk}"' in body
    r = c.post(page, {"action": "void_game", "game": game.pk, "reason": ""})
    assert r.status_code == 400
    r = c.post(page, {"action": "void_game", "game": game.pk, "reason": "Wrong sheet"})
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.VOIDED
    row = deduction_add(team=home, user=user, reason="Late start", bullseyes=2, team_match=match)
    body = c.get(page).content.decode()
    assert "Cancel this deduction" in body and f'name="deduction" value="{row.pk}"' in body
    r = c.post(page, {"action": "void_deduction", "deduction": 999999})
    assert r.status_code == 400 and "No such deduction on this fixture." in r.content.decode()
    r = c.post(page, {"action": "void_deduction", "deduction": row.pk})
    assert r.status_code == 302
    assert PointDeduction.objects.get(pk=row.pk).voided
    assert "Cancel this deduction" not in c.get(page).content.decode()
