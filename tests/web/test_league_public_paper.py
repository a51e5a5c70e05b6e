"""Results from paper are labelled on the public pages (issue 15): a chalk-sheet game on the board page and
a fixture's match totals on the board page and the standings say they came from paper and who entered them
(a full name, else the capacity: never a username or an e-mail address)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import make_season, make_team
from tournaments.models import Round, Tournament
from tournaments.services.leagues import (
    fixture_create,
    lineup_set,
    match_day_create,
    match_totals_enter,
    paper_game_enter,
    team_captains_set,
)

pytestmark = pytest.mark.django_db


def test_paper_results_are_labelled_on_the_board_page_and_the_standings():
    user = make_user()
    user.first_name, user.last_name, user.email = "Asha", "Ramdeen", "asha@example.org"
    user.save()
    season, _ = make_season(user=user, team_format={"boards": 2, "kind": "first_to_total", "n": 17})
    home, away = make_team(season, user, "Home", pairs=2), make_team(season, user, "Away", pairs=2)
    other_a, other_b = make_team(season, user, "Third", pairs=2), make_team(season, user, "Fourth", pairs=2)
    day = match_day_create(tournament=season, user=user, date=datetime.date(2026, 4, 18))
    match = fixture_create(round=day, home=home, away=away, user=user)
    totals = fixture_create(round=day, home=other_a, away=other_b, user=user)
    for team in (home, away):
        lineup_set(team_match=match, team=team, entries=list(team.roster.values_list("pk", flat=True)), user=user)
    board = match.boards.order_by("slot").first()
    paper_game_enter(board=board, user=user, score=[14, 9], hang_jacks=[1, 0])
    captain = make_user()
    team_captains_set(team=other_a, captains=[captain], user=user)
    match_totals_enter(team_match=totals, user=captain, games=[17, 11], hang_jacks=[2, 1])
    Tournament.objects.filter(pk=season.pk).update(published=True)
    Round.objects.filter(pk=day.pk).update(status="in_play")

    c = Client()
    page = c.get(reverse("web:board", args=[season.slug, board.pk])).content.decode()
    assert "From the chalk sheet, entered by Asha Ramdeen · hang jacks 1–0." in page
    assert "The chalk sheet gives the final score only: no hand is recorded." in page
    assert "asha@example.org" not in page and user.username not in page

    standings = c.get(reverse("web:standings", args=[season.slug])).content.decode()
    assert "From the chalk sheet:" in standings
    assert "round 1, Home v Away (games' final scores, entered by Asha Ramdeen)" in standings
    assert "round 1, Third v Fourth (match totals only, entered by the home team's captain)" in standings
    assert captain.username not in standings and "asha@example.org" not in standings
    # the same HTML for a signed-in organiser: nothing of the viewer
    signed_in = Client()
    signed_in.force_login(user)
    again = signed_in.get(reverse("web:standings", args=[season.slug])).content.decode()
    assert again.count("From the chalk sheet:") == 1
