"""The organiser's league console (issue 15), through the pages as an organiser uses them: a league and a
season, a division, teams with rosters larger than K, a match day and a fixture entered by hand, line-ups,
a chalk sheet refused by the engine's plausibility check (the reason next to the field) then entered, the
match totals a captain submits and the other captain confirms, an import previewed and stored, the next
season with a promotion."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_user
from tournaments.models import Division, Game, League, Team, TeamMatch, Tournament
from tournaments.services.leagues import team_captains_set

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"web:{name}", args=args)


def post(client, where, data, status=302):
    response = client.post(where, data)
    body = response.content.decode()
    assert response.status_code == status, re.findall(r'class="field-error"[^>]*>([^<]*)<', body) or body[-2000:]
    return response


@pytest.fixture
def organiser():
    user = make_user("ligue")
    c = Client()
    c.force_login(user)
    return user, c


def make_season_by_pages(c) -> Tournament:
    post(c, url("console_leagues"), {"name": "North League"})
    league = League.objects.get(name="North League")
    post(c, url("console_league", league.slug), {"name": "North League 2026", "season": "2026", "boards": "2",
                                                   "race_to": "3"})
    season = Tournament.objects.get(league=league)
    assert season.team_format == {"boards": 2, "kind": "first_to_total", "n": 3}
    page = url("console_season", season.slug)
    post(c, page, {"action": "division", "name": "Premier"})
    division = Division.objects.get(tournament=season)
    for name in ("Couva Jacks", "Bay Boys"):
        post(c, page, {"action": "team", "name": name, "club": f"{name} AFC", "division": division.pk})
    for team in Team.objects.filter(tournament=season):
        for n in range(3):  # a roster of 3 pairs, 2 play a fixture
            post(c, url("console_season_team", season.slug, team.pk),
                 {"player_1": f"{team.name} {n}a", "player_2": f"{team.name} {n}b"})
    post(c, page, {"action": "match_day", "date": "2026-04-04", "venue": "Couva hall"})
    day = season.rounds.get()
    home, away = Team.objects.filter(tournament=season).order_by("id")
    post(c, page, {"action": "fixture", "round": day.pk, "home": home.pk, "away": away.pk})
    return season


def test_a_season_set_up_and_a_chalk_sheet_entered_through_the_console(organiser):
    user, c = organiser
    season = make_season_by_pages(c)
    match = TeamMatch.objects.get(round__tournament=season)
    page = url("console_season_fixture", season.slug, match.pk)
    # a fixture entered twice on the same day is refused next to the day
    home, away = match.team_a, match.team_b
    refused = post(c, url("console_season", season.slug),
                   {"action": "fixture", "round": match.round_id, "home": away.pk, "away": home.pk}, status=400)
    assert "would play twice" in refused.content.decode()
    for team in (home, away):
        roster = list(team.roster.order_by("id").values_list("pk", flat=True))
        post(c, page, {"action": "lineup", "team": team.pk, "slot_0": roster[0], "slot_1": roster[2]})
    boards = list(match.boards.order_by("slot"))
    assert len(boards) == 2
    body = c.get(page).content.decode()
    assert "Game 1 from the chalk sheet" in body
    # The engine's plausibility check: both sides at the target is refused, the reason next to the score
    refused = post(c, page, {"action": "paper_game", "board": boards[0].pk, "score_a": "14", "score_b": "15",
                             "hang_jacks_a": "0", "hang_jacks_b": "0"}, status=400)
    text = refused.content.decode()
    field = text.split(f'id="b{boards[0].pk}-score-a_error"')[1].split("</span>")[0]
    assert "Both sides at" in field
    assert 'value="15"' in text, "what was typed stays in the form"
    assert not Game.objects.filter(board=boards[0]).exists()
    post(c, page, {"action": "paper_game", "board": boards[0].pk, "score_a": "14", "score_b": "9",
                   "hang_jacks_a": "1", "hang_jacks_b": "0", "kicks_a": "2", "kicks_b": ""})
    game = Game.objects.get(board=boards[0])
    assert (game.score, game.result_source, game.confirmed, game.hang_jacks_a) == ([14, 9], "paper_game", True, 1)
    body = c.get(page).content.decode()
    assert re.search(r"Game 1: 14–9, hang jacks 1–0, kicks 2–0 ·\s*<span class=\"entered\">entered from paper by ligue", body)
    season_page = c.get(url("console_season", season.slug)).content.decode()
    assert "Couva Jacks v Bay Boys" in season_page and "Tables" in season_page


def test_a_captain_submits_totals_and_the_other_captain_confirms(organiser):
    user, c = organiser
    season = make_season_by_pages(c)
    match = TeamMatch.objects.get(round__tournament=season)
    home_captain, away_captain = make_user("homecap"), make_user("awaycap")
    team_page = url("console_season_team", season.slug, match.team_a.pk)
    refused = post(c, team_page, {"action": "captains", "captains": "homecap, nobody"}, status=400)
    assert "No account called nobody" in refused.content.decode()
    post(c, team_page, {"action": "captains", "captains": "homecap"})
    assert list(match.team_a.captains.all()) == [home_captain]
    team_captains_set(team=match.team_b, captains=[away_captain], user=user)
    page = url("console_season_fixture", season.slug, match.pk)
    home, away = Client(), Client()
    home.force_login(home_captain)
    away.force_login(away_captain)
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(page).status_code == 403
    body = home.get(page).content.decode()
    assert "Only the match totals" in body and "Organiser&#x27;s actions" not in body
    refused = post(home, page, {"action": "totals", "games_a": "4", "games_b": "1", "hang_jacks_a": "0",
                                "hang_jacks_b": "0"}, status=400)
    assert "race to 3" in refused.content.decode()
    post(home, page, {"action": "totals", "games_a": "3", "games_b": "1", "hang_jacks_a": "1", "hang_jacks_b": "0"})
    match.refresh_from_db()
    assert match.result_source == "match_totals" and not match.confirmed and match.entered_as == "captain_a"
    assert "waiting for the other captain" in home.get(page).content.decode()
    post(home, page, {"action": "confirm"}, status=400)  # not the captain who entered it
    post(away, page, {"action": "confirm"})
    match.refresh_from_db()
    assert match.confirmed and match.confirmed_by == away_captain
    assert "confirmed by awaycap" in away.get(page).content.decode()


def test_import_preview_then_store_and_the_next_season_with_a_promotion(organiser):
    user, c = organiser
    season = make_season_by_pages(c)
    teams = "team,club,division\nSiparia Jacks,Siparia AF,First\nMayaro Lows,Mayaro AF,First\n"
    results = ("round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks\n"
               "2,2026-04-11,First,Siparia Jacks,Mayaro Lows,3,0,1,0\n"
               "3,2026-04-18,,Mayaro Lows,Couva Jacks,4,0,0,0\n")
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = url("console_season_import", season.slug)
    response = c.post(page, {"teams_file": SimpleUploadedFile("teams.csv", teams.encode()),
                             "results_file": SimpleUploadedFile("results.csv", results.encode())})
    assert response.status_code == 400
    body = response.content.decode()
    assert re.findall(r'class="field-error">([^<]*)<', body) == ["home_games: A race to 3 ends when a team reaches 3: 4 "
                                                                  "games is past it."]
    assert "<button type=\"submit\">Import these rows" not in body
    assert not Team.objects.filter(tournament=season, name="Siparia Jacks").exists()
    results = results.replace("4,0,0,0", "3,2,0,0")
    response = c.post(page, {"teams_file": SimpleUploadedFile("teams.csv", teams.encode()),
                             "results_file": SimpleUploadedFile("results.csv", results.encode())})
    body = response.content.decode()
    assert response.status_code == 200 and "<button type=\"submit\">Import these rows" in body
    kept = dict(re.findall(r'name="(\w+_file_(?:data|name))" value="([^"]*)"', body))
    post(c, page, {"commit": "1", **kept})
    assert Team.objects.filter(tournament=season).count() == 4
    assert TeamMatch.objects.filter(round__tournament=season, result_source="match_totals", entered_as="import").count() == 2
    # the next season: Siparia Jacks promoted to Premier
    siparia = Team.objects.get(tournament=season, name="Siparia Jacks")
    premier = Division.objects.get(tournament=season, name="Premier")
    form = c.get(url("console_season_next", season.slug)).content.decode()
    assert f'name="team_{siparia.pk}"' in form
    data = {"name": "North League 2027", "season": "2027", "rosters": "on"}
    for team in Team.objects.filter(tournament=season).select_related("division"):
        data[f"team_{team.pk}"] = str(premier.pk if team.pk == siparia.pk else team.division_id)
    post(c, url("console_season_next", season.slug), data)
    new = Tournament.objects.get(name="North League 2027")
    assert Team.objects.get(tournament=new, name="Siparia Jacks").division.name == "Premier"
    assert Team.objects.get(tournament=new, name="Couva Jacks").roster.count() == 3
