"""The league API beyond results (issue 15): leagues and seasons, divisions, teams, rosters, captains, match
days, fixtures moved, postponed, replayed, walked over and made void, point deductions, line-ups and
substitutions. A happy path and a refusal (in the one error shape) per family."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import make_season, make_team
from tournaments.models import League, PointDeduction, Team, TeamMatch

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert set(body) <= {"code", "message", "fields", "current"} and body["message"]
    return body


@pytest.fixture
def season():
    return make_season(team_format={"boards": 2, "kind": "first_to_total", "n": 17})


def test_leagues_list_create_and_a_season():
    user = make_user()
    c = client_of(user)
    made = c.post("/api/v1/leagues/", {"name": "North League"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json() | {"id": 0, "owner": 0} == {"id": 0, "owner": 0, "name": "North League", "slug": "north-league",
                                                    "seasons": []}
    assert error(c.post("/api/v1/leagues/", {"name": "North League"}, format="json"), 400)["code"] == "league_exists"
    assert error(c.post("/api/v1/leagues/", {}, format="json"), 400)["fields"] == {"name": "This field is required."}
    league = made.json()["id"]
    season = c.post(f"/api/v1/leagues/{league}/seasons/", {"name": "North League 2026", "season": "2026", "boards": 2,
                                                            "race_to": 18}, format="json")
    assert season.status_code == 201, season.json()
    assert season.json()["slug"] == "north-league-2026" and season.json()["league"] == league
    listed = c.get("/api/v1/leagues/").json()
    assert [(x["name"], [s["season"] for s in x["seasons"]]) for x in listed] == [("North League", ["2026"])]
    stranger = client_of(make_user())
    assert stranger.get("/api/v1/leagues/").json() == []
    assert error(stranger.post(f"/api/v1/leagues/{league}/seasons/", {"name": "Mine"}, format="json"), 403)
    assert error(c.post("/api/v1/leagues/999999/seasons/", {"name": "X"}, format="json"), 404)
    assert error(APIClient().get("/api/v1/leagues/"), 401)
    assert League.objects.count() == 1


def test_divisions_and_teams(season):
    t, user = season
    c = client_of(user)
    div = c.post(f"/api/v1/tournaments/{t.pk}/season/divisions/", {"name": "Premier", "race_target": 18}, format="json")
    assert div.status_code == 201 and div.json()["race_target"] == 18 and div.json()["order"] == 1
    assert error(c.post(f"/api/v1/tournaments/{t.pk}/season/divisions/", {"name": "Premier"}, format="json"),
                 400)["code"] == "division_exists"
    changed = c.patch(f"/api/v1/divisions/{div.json()['id']}/", {"name": "Premier A", "boards": 3}, format="json")
    assert changed.status_code == 200 and changed.json()["name"] == "Premier A" and changed.json()["boards"] == 3
    assert error(c.patch(f"/api/v1/divisions/{div.json()['id']}/", {"boards": 99}, format="json"),
                 400)["fields"] == {"boards": "1 to 30"}
    team = c.post(f"/api/v1/tournaments/{t.pk}/season/teams/", {"club": "Couva AFC", "name": "Couva Jacks",
                                                                "division": div.json()["id"]}, format="json")
    assert team.status_code == 201, team.json()
    assert team.json() | {"id": 0} == {"id": 0, "name": "Couva Jacks", "club": "Couva AFC", "division": div.json()["id"],
                                       "seed": None, "withdrawn": False, "captains": []}
    assert error(c.post(f"/api/v1/tournaments/{t.pk}/season/teams/", {"club": "Couva AFC", "name": "Couva Jacks"},
                        format="json"), 400)["code"] == "team_exists"
    renamed = c.patch(f"/api/v1/teams/{team.json()['id']}/", {"name": "Couva Kings", "division": None}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Couva Kings" and renamed.json()["division"] is None
    stranger = client_of(make_user())
    assert error(stranger.patch(f"/api/v1/teams/{team.json()['id']}/", {"name": "Mine"}, format="json"), 403)
    assert error(stranger.post(f"/api/v1/tournaments/{t.pk}/season/divisions/", {"name": "D"}, format="json"), 403)
    assert error(c.patch("/api/v1/teams/999999/", {"name": "X"}, format="json"), 404)


def test_rosters_and_captains(season):
    t, user = season
    c = client_of(user)
    home, away = make_team(t, user, "Home"), make_team(t, user, "Away")
    added = c.post(f"/api/v1/teams/{home.pk}/roster/", {"player_1": "Ravi", "player_2": "Sunil"}, format="json")
    assert added.status_code == 201, added.json()
    assert added.json()["team"] == home.pk and "Ravi" in added.json()["pair"]
    assert error(c.post(f"/api/v1/teams/{home.pk}/roster/", {"player_1": "Ravi"}, format="json"),
                 400)["fields"] == {"player_2": "This field is required."}
    moved = c.post(f"/api/v1/tournaments/{t.pk}/season/roster-moves/", {"entry": added.json()["id"], "team": away.pk},
                   format="json")
    assert moved.status_code == 200 and moved.json()["team"] == away.pk
    other = make_season()[0]
    assert error(c.post(f"/api/v1/tournaments/{t.pk}/season/roster-moves/", {"entry": added.json()["id"],
                                                                              "team": 999999}, format="json"),
                 400)["code"] == "team_not_in_season"
    assert other.pk != t.pk
    captain = make_user()
    saved = c.put(f"/api/v1/teams/{home.pk}/captains/", {"captains": [captain.username]}, format="json")
    assert saved.status_code == 200 and saved.json()["captains"] == [captain.username]
    assert error(c.put(f"/api/v1/teams/{home.pk}/captains/", {"captains": ["nobody-here"]}, format="json"),
                 400)["code"] == "unknown_account"


def _two_teams(t, user):
    return make_team(t, user, "Home", pairs=3), make_team(t, user, "Away", pairs=3)


def test_match_days_and_fixture_moves(season):
    t, user = season
    c = client_of(user)
    home, away = _two_teams(t, user)
    url = f"/api/v1/tournaments/{t.pk}/season/match-days/"
    one = c.post(url, {"date": "2026-04-18", "venue": "Couva hall"}, format="json").json()
    two = c.post(url, {"date": "2026-04-25"}, format="json").json()
    assert (one["number"], one["date"], one["venue"], two["number"]) == (1, "2026-04-18", "Couva hall", 2)
    assert error(c.post(url, {"date": "18/04"}, format="json"), 400)["fields"]["date"]
    changed = c.patch(f"/api/v1/match-days/{one['id']}/", {"venue": "Bay hall"}, format="json")
    assert changed.status_code == 200 and changed.json()["venue"] == "Bay hall" and changed.json()["date"] == "2026-04-18"
    assert error(client_of(make_user()).patch(f"/api/v1/match-days/{one['id']}/", {"venue": "X"}, format="json"), 403)
    fixture = c.post(f"/api/v1/tournaments/{t.pk}/season/fixtures/", {"round": one["id"], "home": home.pk,
                                                                      "away": away.pk}, format="json").json()
    other = c.post(f"/api/v1/tournaments/{t.pk}/season/fixtures/", {"round": two["id"], "home": away.pk,
                                                                    "away": home.pk}, format="json").json()
    # the second day moved onto the first's date: the same teams twice on one day
    assert error(c.patch(f"/api/v1/match-days/{two['id']}/", {"date": "2026-04-18"}, format="json"),
                 409)["code"] == "fixture_clash"
    postponed = c.post(f"/api/v1/fixtures/{fixture['id']}/postpone/", {"reason": "Hall flooded"}, format="json")
    assert postponed.status_code == 200 and postponed.json()["status"] == "postponed"
    assert error(c.post(f"/api/v1/fixtures/{fixture['id']}/move/", {"round": two["id"]}, format="json"),
                 409)["code"] == "fixture_clash"
    three = c.post(url, {"date": "2026-05-02"}, format="json").json()
    moved = c.post(f"/api/v1/fixtures/{fixture['id']}/move/", {"round": three["id"]}, format="json")
    assert moved.status_code == 200 and moved.json()["status"] == "scheduled" and moved.json()["round"] == 3
    assert error(c.post(f"/api/v1/fixtures/{fixture['id']}/replay/", {"round": three["id"]}, format="json"),
                 400)["fields"] == {"reason": "This field is required."}
    four = c.post(url, {"date": "2026-05-09"}, format="json").json()
    replay = c.post(f"/api/v1/fixtures/{fixture['id']}/replay/", {"round": four["id"], "reason": "Wrong pair"},
                    format="json")
    assert replay.status_code == 201 and replay.json()["round"] == 4 and replay.json()["id"] != fixture["id"]
    assert TeamMatch.objects.get(pk=fixture["id"]).status == "void"
    assert TeamMatch.objects.get(pk=replay.json()["id"]).replay_of_id == fixture["id"]
    walkover = c.post(f"/api/v1/fixtures/{other['id']}/walkover/", {"absent": "away"}, format="json")
    assert walkover.status_code == 200
    assert walkover.json()["status"] == "walkover" and walkover.json()["games"] == [17, 0]
    assert error(c.post(f"/api/v1/fixtures/{other['id']}/walkover/", {"absent": "home"}, format="json"),
                 409)["code"] == "fixture_has_result"
    assert error(c.post(f"/api/v1/fixtures/{other['id']}/walkover/", {"absent": "nobody"}, format="json"),
                 400)["fields"]["absent"]
    assert error(c.post(f"/api/v1/fixtures/{replay.json()['id']}/void/", {}, format="json"), 400)["code"] == "reason_required"
    void = c.post(f"/api/v1/fixtures/{replay.json()['id']}/void/", {"reason": "Cancelled by the league"}, format="json")
    assert void.status_code == 200 and void.json()["status"] == "void"
    assert error(client_of(make_user()).post(f"/api/v1/fixtures/{other['id']}/void/", {"reason": "x"},
                                             format="json"), 403)
    assert error(c.post("/api/v1/fixtures/999999/postpone/", {}, format="json"), 404)


def test_deductions(season):
    t, user = season
    c = client_of(user)
    home, _ = _two_teams(t, user)
    url = f"/api/v1/tournaments/{t.pk}/season/deductions/"
    assert error(c.post(url, {"team": home.pk, "reason": "Late"}, format="json"), 400)["code"] == "invalid_deduction"
    made = c.post(url, {"team": home.pk, "reason": "Unregistered pair", "bullseyes": 3}, format="json")
    assert made.status_code == 201
    assert made.json() | {"id": 0} == {"id": 0, "team": home.pk, "team_match": None, "match_points": 0, "bullseyes": 3,
                                       "reason": "Unregistered pair", "voided": False}
    other_season, other_user = make_season()
    foreign = make_team(other_season, other_user, "Elsewhere")
    assert error(c.post(url, {"team": foreign.pk, "reason": "x", "bullseyes": 1}, format="json"), 404)
    assert error(client_of(make_user()).post(f"/api/v1/deductions/{made.json()['id']}/void/"), 403)
    voided = c.post(f"/api/v1/deductions/{made.json()['id']}/void/")
    assert voided.status_code == 200 and voided.json()["voided"] is True
    assert PointDeduction.objects.get(pk=made.json()["id"]).voided


def test_lineups_and_substitutions(season):
    t, user = season
    c = client_of(user)
    home, away = _two_teams(t, user)
    day = c.post(f"/api/v1/tournaments/{t.pk}/season/match-days/", {}, format="json").json()
    fixture = c.post(f"/api/v1/tournaments/{t.pk}/season/fixtures/", {"round": day["id"], "home": home.pk,
                                                                      "away": away.pk}, format="json").json()
    url = f"/api/v1/fixtures/{fixture['id']}/lineup/"
    roster = {team: list(Team.objects.get(pk=team.pk).roster.order_by("pk").values_list("pk", flat=True))
              for team in (home, away)}
    assert error(c.put(url, {"team": home.pk, "entries": roster[away][:2]}, format="json"), 400)["code"] == "lineup_invalid"
    first = c.put(url, {"team": home.pk, "entries": roster[home][:2]}, format="json")
    assert first.status_code == 200 and first.json()["lineup_a"] == roster[home][:2] and first.json()["seated"] is False
    both = c.put(url, {"team": away.pk, "entries": roster[away][:2]}, format="json")
    assert both.json()["seated"] is True
    assert error(c.put(url, {"team": home.pk, "entries": roster[home][1:]}, format="json"), 409)["code"] == "lineup_fixed"
    sub_url = f"/api/v1/fixtures/{fixture['id']}/substitutions/"
    sub = c.post(sub_url, {"team": home.pk, "slot": 1, "entry": roster[home][2], "reason": "Late"}, format="json")
    assert sub.status_code == 201
    assert sub.json() | {"id": 0} == {"id": 0, "team": home.pk, "slot": 1, "out_entry": roster[home][1],
                                      "in_entry": roster[home][2], "reason": "Late"}
    assert error(c.post(sub_url, {"team": home.pk, "slot": 5, "entry": roster[home][1]}, format="json"),
                 400)["fields"] == {"slot": "0 to 1"}
    assert error(client_of(make_user()).post(sub_url, {"team": home.pk, "slot": 0, "entry": roster[home][1]},
                                             format="json"), 403)
