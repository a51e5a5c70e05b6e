"""The league console's forms put a service's refusal at the field it names (``aria-invalid``, the message
linked by ``aria-describedby``), only in the form that was posted, with what was typed kept; a short summary
above links to the field; a refusal naming no field of the form is the summary itself. Typed figures the
pages used to drop (a date that is not one, a 0 replaced by the default) are refused at their field too."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.factories import make_user
from tests.web.test_league_console import make_season_by_pages, url
from tournaments.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_and_client():
    user = make_user("ligue")
    c = Client()
    c.force_login(user)
    return make_season_by_pages(c), c


def field(body: str, input_id: str) -> str:
    """The markup of the field (its ``<p class="field …">``) holding the input or select ``input_id``."""
    at = body.index(f'id="{input_id}"')
    start = body.rindex('<p class="field', 0, at)
    return body[start:body.index("</p>", at) + 4]


def assert_refused_at(body: str, input_id: str, text: str) -> None:
    markup = field(body, input_id)
    assert 'class="field invalid"' in markup, markup
    assert 'aria-invalid="true"' in markup and f'aria-describedby="{input_id}_error"' in markup, markup
    assert re.search(rf'id="{input_id}_error"[^>]*>[^<]*{re.escape(text)}', markup), markup


def summary(body: str) -> str:
    return body.split('class="refusal error-summary"')[1].split("</div>")[0]


def test_a_duplicate_team_name_is_refused_at_the_name_only_and_the_typing_is_kept(season_and_client):
    season, c = season_and_client
    division = season.divisions.get()
    r = c.post(url("console_season", season.slug), {"action": "team", "name": "Couva Jacks", "club": "Sando AFC",
                                                    "division": division.pk})
    assert r.status_code == 400
    body = r.content.decode()
    assert_refused_at(body, "team-name", "team called Couva Jacks already")
    assert 'value="Sando AFC"' in field(body, "team-club")
    assert f'<option value="{division.pk}" selected>' in field(body, "team-division")
    # the division form below has a "name" too: it shows neither the error nor the team's name
    other = field(body, "division-name")
    assert "invalid" not in other and "Couva Jacks" not in other
    # a summary above links to the field; the message is not repeated as a flash message
    assert 'href="#team-name"' in summary(body)
    assert '<li class="error">' not in body
    assert "{#" not in body and "{%" not in body  # no template comment or tag shows on the page
    assert Team.objects.filter(tournament=season).count() == 2


def test_an_empty_team_is_refused_at_its_field(season_and_client):
    season, c = season_and_client
    r = c.post(url("console_season", season.slug), {"action": "team", "name": "", "club": ""})
    assert r.status_code == 400
    body = r.content.decode()
    markup = field(body, "team-name") + field(body, "team-club")
    assert markup.count('aria-invalid="true"') == 1 and "field-error" in markup


def test_a_division_with_a_bad_race_target_is_refused_at_race_to(season_and_client):
    season, c = season_and_client
    r = c.post(url("console_season", season.slug), {"action": "division", "name": "Second", "boards": "2",
                                                    "race_to": "0"})
    assert r.status_code == 400
    body = r.content.decode()
    assert_refused_at(body, "division-race_to", "A whole number from 1 to 99")
    assert 'value="Second"' in field(body, "division-name") and 'value="2"' in field(body, "division-boards")
    assert "invalid" not in field(body, "team-name")


def test_a_fixture_of_a_team_against_itself_is_refused_at_away_with_the_choice_kept(season_and_client):
    season, c = season_and_client
    day = season.rounds.get()
    home = Team.objects.filter(tournament=season).order_by("id").last()
    r = c.post(url("console_season", season.slug), {"action": "fixture", "round": day.pk, "home": home.pk,
                                                    "away": home.pk})
    assert r.status_code == 400
    body = r.content.decode()
    assert_refused_at(body, "fixture-away", "A team cannot play itself")
    assert f'<option value="{home.pk}" selected>' in field(body, "fixture-home")
    assert f'<option value="{home.pk}" selected>' in field(body, "fixture-away")


def test_a_match_day_date_that_is_not_one_is_refused_not_dropped(season_and_client):
    season, c = season_and_client
    r = c.post(url("console_season", season.slug), {"action": "match_day", "date": "4th April", "venue": "Sando"})
    assert r.status_code == 400
    body = r.content.decode()
    assert_refused_at(body, "match_day-date", "YYYY-MM-DD")
    assert 'value="Sando"' in field(body, "match_day-venue")
    assert season.rounds.count() == 1


def test_a_division_edit_refused_shows_at_that_divisions_field(season_and_client):
    season, c = season_and_client
    division = season.divisions.get()
    r = c.post(url("console_season", season.slug), {"action": "division_update", "division": division.pk,
                                                    "name": "Premier", "order": "1", "race_to": "500"})
    assert r.status_code == 400
    body = r.content.decode()
    assert_refused_at(body, f"du-{division.pk}-race_to", "A whole number from 1 to 99")
    assert 'value="500"' in field(body, f"du-{division.pk}-race_to")
    assert '<details class="division-edit" open>' in body


def test_a_season_with_zero_boards_is_refused_at_boards_not_defaulted(season_and_client):
    season, c = season_and_client
    r = c.post(url("console_league", season.league.slug), {"name": "South 2026", "boards": "0", "race_to": "17"})
    assert r.status_code == 400
    body = r.content.decode()
    markup = field(body, "boards")
    assert 'aria-invalid="true"' in markup and 'value="0"' in markup
    assert "invalid" not in field(body, "race_to")
    assert 'value="South 2026"' in field(body, "name")


def test_a_refusal_naming_no_field_of_the_form_is_the_summary(season_and_client):
    season, c = season_and_client
    match = season.rounds.get().team_matches.get()
    # the same fixture again: the clash names the match day, which is a field of the form
    r = c.post(url("console_season", season.slug), {"action": "fixture", "round": match.round_id,
                                                    "home": match.team_b_id, "away": match.team_a_id})
    assert r.status_code == 400
    assert_refused_at(r.content.decode(), "fixture-round", "would play twice")
    # a captain that has no account: at the captains field of the team page
    team = match.team_a
    r = c.post(url("console_season_team", season.slug, team.pk), {"action": "captains", "captains": "nobody"})
    assert r.status_code == 400
    assert_refused_at(r.content.decode(), "captains", "No account called nobody")
    # a deduction that is not on the fixture names nothing on the form: the summary says it
    r = c.post(url("console_season_fixture", season.slug, match.pk), {"action": "void_deduction", "deduction": "999"})
    assert r.status_code == 400
    assert "No such deduction on this fixture." in summary(r.content.decode())


def test_the_roster_form_keeps_the_names_typed(season_and_client):
    season, c = season_and_client
    team = Team.objects.filter(tournament=season).first()
    r = c.post(url("console_season_team", season.slug, team.pk), {"player_1": "Ria Mohammed", "player_2": ""})
    assert r.status_code == 400
    body = r.content.decode()
    assert 'value="Ria Mohammed"' in field(body, "player_1")
    assert body.count('aria-invalid="true"') >= 1


def test_a_club_rename_refused_is_at_the_name_with_the_typing_kept(season_and_client):
    from tournaments.models import Club

    season, c = season_and_client
    club = Club.objects.get(name="Bay Boys AFC")
    r = c.post(url("console_club", club.pk), {"action": "rename", "name": "   "})
    assert r.status_code == 400
    body = r.content.decode()
    markup = field(body, "name")
    assert 'aria-invalid="true"' in markup and 'aria-describedby="name_error"' in markup
    assert 'href="#name"' in summary(body) and '<li class="error">' not in body
    club.refresh_from_db()
    assert club.name == "Bay Boys AFC"


def test_a_fixture_on_a_match_day_that_is_not_there_is_refused_at_its_field_not_a_500(season_and_client):
    season, c = season_and_client
    home, away = Team.objects.filter(tournament=season).order_by("id")[:2]
    r = c.post(url("console_season", season.slug), {"action": "fixture", "round": 999999, "home": home.pk,
                                                    "away": away.pk})
    assert r.status_code == 400
    assert_refused_at(r.content.decode(), "fixture-round", "No such match day in this season")
