"""The league API (issue 15): a season's import (preview with per-row errors, then stored), its tables, a
fixture entered, a chalk sheet's game (the engine's refusal names the field), match totals a captain enters
and the other captain confirms; every refusal in the one error shape."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import add_pair, make_season
from tests.tournaments.test_league_import import RESULTS, TEAMS
from tournaments.models import Team, TeamMatch
from tournaments.services.leagues import lineup_set, team_captains_set

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def season():
    return make_season(team_format={"boards": 2, "kind": "first_to_total", "n": 17})


def test_import_preview_then_commit_and_the_tables(season):
    t, user = season
    c = client_of(user)
    url = f"/api/v1/tournaments/{t.pk}/season/import/"
    bad = RESULTS + "3,2026-04-18,Premier,Couva Jacks,Bay Boys,18,9,0,0,,\n"
    answer = c.post(url, {"teams_file": SimpleUploadedFile("t.csv", TEAMS.encode()),
                          "results_file": SimpleUploadedFile("r.csv", bad.encode()), "commit": "true"},
                    format="multipart").json()
    assert answer["ok"] is False and answer["stored"] is False
    assert answer["results"][-1]["errors"] == {"home_games": "A race to 17 ends when a team reaches 17: 18 games is past it."}
    assert not Team.objects.filter(tournament=t).exists()
    answer = c.post(url, {"teams_file": SimpleUploadedFile("t.csv", TEAMS.encode()),
                          "results_file": SimpleUploadedFile("r.csv", RESULTS.encode()), "commit": "true"},
                    format="multipart").json()
    assert answer["stored"] is True and answer["counts"]["results_entered"] == 7
    tables = c.get(f"/api/v1/tournaments/{t.pk}/season/tables/").json()
    assert [d["division"]["name"] for d in tables["divisions"]] == ["Premier", "Championship", "First"]
    row = next(r for r in tables["divisions"][1]["rows"] if r["team"] == "Chaguanas Hi")
    assert row["byes"] == 1 and row["sources"]["bye"] == 1
    unreadable = c.post(url, {"results_file": SimpleUploadedFile("r.csv", b"home\nA\n")}, format="multipart")
    assert unreadable.status_code == 400 and "results_file" in unreadable.json()["error"]["fields"]
    stranger = client_of(make_user()).get(f"/api/v1/tournaments/{t.pk}/season/tables/")
    assert stranger.status_code == 403


def _fixture(t, user):
    home, away = (Team.objects.create(tournament=t, club=_club(user, n), name=n) for n in ("Home", "Away"))
    for team in (home, away):
        for _ in range(3):
            add_pair(team, user)
    c = client_of(user)
    day = t.rounds.create(number=1)
    created = c.post(f"/api/v1/tournaments/{t.pk}/season/fixtures/", {"round": day.pk, "home": home.pk,
                                                                      "away": away.pk}, format="json")
    assert created.status_code == 201, created.json()
    clash = c.post(f"/api/v1/tournaments/{t.pk}/season/fixtures/", {"round": day.pk, "home": away.pk, "away": home.pk},
                   format="json")
    assert clash.status_code == 409 and clash.json()["error"]["code"] == "fixture_clash"
    return TeamMatch.objects.get(pk=created.json()["id"]), home, away


def _club(user, name):
    from tournaments.models import Club
    from tournaments.services import organisation_personal

    return Club.objects.create(name=f"{name} AFC", owner=organisation_personal(user=user))


def test_a_chalk_sheet_game_through_the_api(season):
    t, user = season
    match, home, away = _fixture(t, user)
    for team in (home, away):
        lineup_set(team_match=match, team=team, entries=list(team.roster.values_list("pk", flat=True))[:2], user=user)
    board = match.boards.order_by("slot").first()
    c = client_of(user)
    url = f"/api/v1/fixtures/{match.pk}/paper-games/"
    refused = c.post(url, {"board": board.pk, "score": [14, 15], "hang_jacks": [0, 0]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "implausible_result" and "score" in refused.json()["error"]["fields"]
    game = c.post(url, {"board": board.pk, "score": [14, 9], "hang_jacks": [1, 0], "kicks": [2, 0]}, format="json")
    assert game.status_code == 201
    assert game.json() | {"id": 0, "board": 0} == {"id": 0, "board": 0, "number": 1, "score": [14, 9], "winner": 0,
                                                    "result_source": "paper_game", "entered_as": "organiser",
                                                    "confirmed": True}


def test_a_captain_enters_totals_and_the_other_confirms(season):
    t, user = season
    match, home, away = _fixture(t, user)
    cap_a, cap_b = make_user(), make_user()
    team_captains_set(team=home, captains=[cap_a], user=user)
    team_captains_set(team=away, captains=[cap_b], user=user)
    entered = client_of(cap_a).post(f"/api/v1/fixtures/{match.pk}/totals/", {"games": [17, 11], "hang_jacks": [1, 2]},
                                    format="json")
    assert entered.status_code == 200 and entered.json()["confirmed"] is False
    assert entered.json()["entered_as"] == "captain_a"
    same = client_of(cap_a).post(f"/api/v1/fixtures/{match.pk}/confirm/")
    assert same.status_code == 403 and same.json()["error"]["code"] == "not_other_captain"
    other = client_of(make_user()).post(f"/api/v1/fixtures/{match.pk}/confirm/")
    assert other.status_code == 403
    done = client_of(cap_b).post(f"/api/v1/fixtures/{match.pk}/confirm/")
    assert done.status_code == 200 and done.json()["confirmed"] is True


def test_a_paired_tablet_cannot_enter_or_confirm_a_paper_result(season):
    """A tablet's token is not a person: the services read a missing user as the system (no permission
    check), so the paper-result endpoints must refuse a tablet before any service runs."""
    import secrets

    from tournaments.models import Device
    from tournaments.services.devices import digest

    t, user = season
    match, home, away = _fixture(t, user)
    for team in (home, away):
        lineup_set(team_match=match, team=team, entries=list(team.roster.values_list("pk", flat=True))[:2], user=user)
    board = match.boards.order_by("slot").first()
    token = secrets.token_urlsafe(24)
    Device.objects.create(tournament=t, table=board.table, token_digest=digest(token), token_prefix=token[:8])
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Device {token}")
    assert tablet.get("/api/v1/tablet/board/").status_code != 401  # a real, paired tablet (its token is known)
    answers = [
        tablet.post(f"/api/v1/fixtures/{match.pk}/paper-games/", {"board": board.pk, "score": [14, 9],
                                                                  "hang_jacks": [1, 0]}, format="json"),
        tablet.post(f"/api/v1/fixtures/{match.pk}/totals/", {"games": [17, 9], "hang_jacks": [0, 0]}, format="json"),
        tablet.post(f"/api/v1/fixtures/{match.pk}/confirm/", format="json"),
    ]
    assert [a.status_code for a in answers] == [403, 403, 403], [a.content for a in answers]
    match.refresh_from_db()
    assert not match.boards.filter(games__result_source="paper_game").exists() and match.result_source != "match_totals"
