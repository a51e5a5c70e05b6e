"""The league console's newest pages in Chromium, as a club's organiser sees them at 360 px (phone), 768 px
(tablet) and 1366 px (laptop): the clubs list, a club's page (rename, merge a spelling variant, and the
preview of what a merge moves), a player's page, the season page, a team's page with its roster, a fixture
entered with the same team twice (the refusal at the Away field), a chalk sheet, the match-totals form and a
season import's preview. At every width: no sideways scroll of the page and axe-core clean.

Screenshots go to test-artifacts/league-identity/, or with KEEP_SCREENSHOTS=1 to
docs/screenshots/league-identity/ (the judged copies; that folder's README says what a person made of each).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.conftest import chromium_path
from tests.web.tablet_browser import wait_until
from tournaments.models import Club, Team, TeamMatch, Tournament
from tournaments.services import club_create, organisation_personal, pair_create, player_create
from tournaments.services.leagues import (
    division_create,
    fixture_create,
    league_create,
    lineup_set,
    match_day_create,
    roster_add,
    season_create,
    team_create,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]
WIDTHS = (360, 768, 1366)
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"
#: The elements reaching past the viewport's right edge (outside a scrolling region), for the failure message.
WIDE = """(() => { const clipped = e => { for (let a = e.parentElement; a; a = a.parentElement) {
  if (a !== document.body && a !== document.documentElement && getComputedStyle(a).overflowX !== 'visible') return true; }
  return false; };
  return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > innerWidth + 1
  && !clipped(e)).slice(0, 6).map(e => e.tagName + '.' + e.className + ' ' + Math.round(
  e.getBoundingClientRect().right) + ': ' + (e.textContent || '').trim().slice(0, 40)); })()"""
AXE_IGNORE = {"region"}
PASSWORD = "North-League-2026"

TOWNS = {"Couva Jacks": "Couva", "Sangre Grande All Fours": "Sangre Grande", "Point Fortin Kickers": "Point Fortin"}
PLAYERS = {
    "Couva Jacks": ["Kenrick Baptiste", "Ria Mohammed", "Anil Ramdass", "Joel Ali", "Marcia De Freitas", "Dev Persad"],
    "Sangre Grande All Fours": ["Curtis Charles", "Shelly-Ann Joseph", "Vishnu Maharaj", "Gerard Lezama",
                                "Nalini Rampersad", "Terrence Alleyne"],
    "Point Fortin Kickers": ["Wendell Phillip", "Sharda Boodoo", "Ronald Noel", "Asha Seepersad", "Keston Roberts",
                             "Lystra Hosein"],
}


def _folder() -> Path:
    keep = os.environ.get("KEEP_SCREENSHOTS")
    folder = ROOT / ("docs/screenshots/league-identity" if keep else "test-artifacts/league-identity")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _season() -> tuple[Tournament, TeamMatch, TeamMatch, Club, Club]:
    """A season of three teams (rosters of three pairs, two boards a fixture, a race to 3): one fixture with
    its line-ups in (its chalk sheets open), one without (its match totals open); a club with a spelling
    variant to merge."""
    user = User.objects.create_user("ligue", password=PASSWORD)
    league = league_create(user=user, name="North League", slug="north-league")
    season = season_create(league=league, user=user, name="North League 2026", slug="north-2026", season="2026",
                           team_format={"boards": 2, "kind": "first_to_total", "n": 3})
    premier = division_create(tournament=season, user=user, name="Premier")
    division_create(tournament=season, user=user, name="Championship", race_target=5)
    owner = organisation_personal(user=user)
    teams = []
    for name, people in PLAYERS.items():
        club = Club.objects.create(name=name, owner=owner, town=TOWNS[name])
        team = team_create(tournament=season, club=club, user=user, division=premier)
        for i in range(0, 6, 2):
            one = player_create(name=people[i], club=club, user=user)
            two = player_create(name=people[i + 1], club=club, user=user)
            roster_add(team=team, pair=pair_create(player_1=one, player_2=two, club=club, user=user), user=user)
        teams.append(team)
    variant = club_create(name="Couva AFC", user=user)
    pair_create(player_1=player_create(name="Kenrick Baptist", club=variant, user=user),
                player_2=player_create(name="Ria Mohamed", club=variant, user=user), club=variant, user=user)
    day = match_day_create(tournament=season, user=user, date=datetime.date(2026, 4, 4), venue="Couva community hall")
    chalk = fixture_create(round=day, home=teams[0], away=teams[1], user=user)
    for team in teams[:2]:
        lineup_set(team_match=chalk, team=team, entries=list(team.roster.order_by("id").values_list("pk", flat=True))[:2],
                   user=user)
    later = match_day_create(tournament=season, user=user, date=datetime.date(2026, 4, 18), venue="Sangre Grande")
    totals = fixture_create(round=later, home=teams[1], away=teams[2], user=user)
    fixture_create(round=later, home=teams[0], away=None, user=user)
    return season, chalk, totals, teams[0].club, variant


def _axe(page: Any, name: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    violations = [v for v in Axe().run(page).response["violations"] if v["id"] not in AXE_IGNORE]
    assert not violations, f"{name}: axe found " + "; ".join(
        f"{v['id']} ({len(v['nodes'])}: {v['nodes'][0]['target']})" for v in violations)


def test_the_identity_pages_and_league_forms_fit_every_width(live_server, tmp_path):
    from playwright.sync_api import sync_playwright

    season, chalk, totals, club, variant = _season()
    base, folder = live_server.url, _folder()
    player = club.players.order_by("id").first()
    pages = [
        ("clubs", reverse("web:console_clubs")),
        ("club", reverse("web:console_club", args=[club.pk])),
        ("club-merge-preview", reverse("web:console_club", args=[club.pk]) + f"?variant={variant.pk}"),
        ("player", reverse("web:console_player", args=[player.pk])),
        ("season", reverse("web:console_season", args=[season.slug])),
        ("team", reverse("web:console_season_team", args=[season.slug, chalk.team_a_id])),
        ("fixture-chalk-sheet", reverse("web:console_season_fixture", args=[season.slug, chalk.pk])),
        ("fixture-match-totals", reverse("web:console_season_fixture", args=[season.slug, totals.pk])),
    ]
    teams_csv = tmp_path / "teams.csv"
    teams_csv.write_text("team,club,division\nCouva Jacks,Couva Jacks,Premier\nSiparia Stars,Siparia All Fours,"
                         "Championship\nMayaro Hang Jacks,Mayaro AFC,Championship\nSiparia Stars,Siparia All Fours,\n")
    results_csv = tmp_path / "results.csv"
    results_csv.write_text("round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks\n"
                           "3,2026-05-02,Championship,Siparia Stars,Mayaro Hang Jacks,3,1,2,0\n"
                           "3,2026-05-02,Championship,Mayaro Hang Jacks,,,,,\n")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        def look(name: str) -> None:
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 780 if width < 400 else 900})
                assert "{#" not in page.inner_text("body") and "{%" not in page.inner_text("body"), name
                assert page.evaluate(NO_SIDEWAYS), f"{name} at {width} px scrolls sideways: {page.evaluate(WIDE)}"
                _axe(page, f"{name}-{width}")
                page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
            page.set_viewport_size({"width": 1366, "height": 900})

        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", "ligue")
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        for name, path in pages:
            response = page.goto(base + path)
            assert response is not None and response.status == 200, (name, response and response.status)
            look(name)

        # the merge preview says what moves; the season page refuses a team against itself at the Away field
        page.goto(base + pages[2][1])
        assert "Merging Couva AFC into Couva Jacks moves" in page.inner_text(".merge-preview")
        page.goto(base + pages[4][1])
        home = Team.objects.get(tournament=season, name="Point Fortin Kickers")
        page.select_option("#fixture-home", str(home.pk))
        page.select_option("#fixture-away", str(home.pk))
        page.click("#fixture button[type=submit]")
        assert "A team cannot play itself" in page.inner_text("#fixture-away_error")
        wait_until(page, "document.activeElement && document.activeElement.id === 'fixture-away'")
        assert page.input_value("#fixture-home") == str(home.pk)
        look("season-fixture-refused")

        # the import's preview: one good team, one repeated, a result and a bye
        page.goto(base + reverse("web:console_season_import", args=[season.slug]))
        page.set_input_files("#teams_file", str(teams_csv))
        page.set_input_files("#results_file", str(results_csv))
        page.click("form.league-form button[type=submit]")
        assert page.is_visible("#preview-h")
        look("import-preview")
        assert not errors, errors
        browser.close()
