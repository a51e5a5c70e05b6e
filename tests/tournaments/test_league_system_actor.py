"""The league services' system actor is explicit (``tournaments.services.system.SYSTEM``): a call with
``user=None`` is refused like any caller without a role, a call as ``SYSTEM`` runs the season and is recorded
as nobody's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.tournaments.factories import open_round
from tests.tournaments.leagues_helpers import day, make_season, make_team
from tournaments.models import AuditEvent, TeamMatch
from tournaments.services import NotAllowed
from tournaments.services.leagues import (
    deduction_add,
    fixture_create,
    lineup_set,
    match_day_create,
    match_totals_enter,
    paper_game_enter,
)
from tournaments.services.system import SYSTEM, is_system, passed_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    season, organiser = make_season(team_format={"boards": 2, "kind": "games", "n": 1})
    home = make_team(season, organiser, "Couva Kings", pairs=2)
    away = make_team(season, organiser, "Penal Jacks", pairs=2)
    return season, organiser, home, away


def test_only_the_sentinel_is_the_system():
    assert is_system(SYSTEM)
    assert not is_system(None)
    assert not is_system(AnonymousUser())
    assert passed_on(SYSTEM) is None
    assert str(SYSTEM) == "the system"


def test_a_league_service_called_with_no_user_is_refused(season):
    season, _organiser, home, away = season
    with pytest.raises(NotAllowed) as refused:
        match_day_create(tournament=season, user=None, date=day(1))
    assert refused.value.code == "not_organiser"
    assert not season.rounds.exists()
    with pytest.raises(NotAllowed):
        deduction_add(team=home, user=None, reason="late", match_points=1)


def test_the_system_runs_a_season_and_is_recorded_as_nobody(season):
    season, _organiser, home, away = season
    match_day = match_day_create(tournament=season, user=SYSTEM, date=day(1))
    match = fixture_create(round=match_day, home=home, away=away, user=SYSTEM)
    match = match_totals_enter(team_match=match, user=SYSTEM, games=[2, 0], hang_jacks=[1, 0])
    assert (match.status, match.entered_as, match.confirmed, match.entered_by) == ("played", "organiser", True, None)
    assert deduction_add(team=away, user=SYSTEM, reason="late", match_points=1).match_points == 1
    event = AuditEvent.objects.filter(action="match_day.create", tournament_id=season.pk).get()
    assert event.user is None


def test_results_refuse_no_user_where_a_captain_or_the_organiser_enters_them(season):
    season, organiser, home, away = season
    match_day = match_day_create(tournament=season, user=organiser, date=day(1))
    match = fixture_create(round=match_day, home=home, away=away, user=organiser)
    with pytest.raises(NotAllowed) as refused:
        match_totals_enter(team_match=match, user=None, games=[1, 0], hang_jacks=[0, 0])
    assert refused.value.code == "not_captain"
    lineup_set(team_match=match, team=home, entries=list(home.roster.order_by("id")), user=SYSTEM)
    lineup_set(team_match=match, team=away, entries=list(away.roster.order_by("id")), user=SYSTEM)
    open_round(match_day)
    board = match.boards.order_by("slot").first()
    with pytest.raises(NotAllowed):
        paper_game_enter(board=board, user=None, score=[14, 3], hang_jacks=[0, 0])
    game = paper_game_enter(board=board, user=SYSTEM, score=[14, 3], hang_jacks=[0, 0])
    assert (game.entered_as, game.confirmed) == ("organiser", True)
    assert TeamMatch.objects.get(pk=match.pk).status == "scheduled"  # one board of two decided


def test_the_system_sets_up_a_league_and_no_user_is_refused():
    from tournaments.models import Club, Pair, Player
    from tournaments.services.leagues import league_create, roster_add, season_create, team_create

    with pytest.raises(NotAllowed) as refused:
        league_create(user=None, name="Central League", slug="central")
    assert refused.value.code == "not_owner"
    league = league_create(user=SYSTEM, name="Central League", slug="central")
    with pytest.raises(NotAllowed):
        season_create(league=league, user=None, name="Central 2026", slug="central-2026")
    season = season_create(league=league, user=SYSTEM, name="Central 2026", slug="central-2026", season="2026")
    club = Club.objects.create(name="Couva Kings", owner_id=league.owner_id)
    with pytest.raises(NotAllowed):
        team_create(tournament=season, club=club, user=None)
    team = team_create(tournament=season, club=club, user=SYSTEM)
    players = [Player.objects.create(name=n, club=club, owner_id=league.owner_id) for n in ("Ann", "Bob")]
    pair = Pair.objects.create(player_1=players[0], player_2=players[1], club=club, owner_id=league.owner_id)
    with pytest.raises(NotAllowed) as refused:
        roster_add(team=team, pair=pair, user=None)
    assert refused.value.code == "not_organiser"
    entry = roster_add(team=team, pair=pair, user=SYSTEM)
    assert (entry.team_id, entry.tournament_id) == (team.pk, season.pk)


def test_the_system_adds_clubs_teams_and_pairs_by_name_through_the_shared_services(season):
    """``SYSTEM`` reaches the registry's shared services (clubs, players, pairs) as the system, not as an
    anonymous caller refused 403 ``not_owner``: a job importing a season adds its people."""
    from tournaments.services.league_people import roster_add_by_names, team_add_by_club_name

    s, _organiser, _home, _away = season
    team = team_add_by_club_name(tournament=s, user=SYSTEM, club="Siparia Stars", name="Siparia A")
    entry = roster_add_by_names(team=team, user=SYSTEM, player_1="Ann Ramlal", player_2="Bea Ramlal")
    assert team.club.name == "Siparia Stars" and entry.team_id == team.pk


def test_league_create_refuses_none_and_an_empty_address_with_a_field_error():
    from tournaments.models import League
    from tournaments.services import ValidationFailed
    from tournaments.services.leagues import league_create

    with pytest.raises(NotAllowed):
        league_create(user=None, name="Nobody's League", slug="nobodys-league")
    league = league_create(user=SYSTEM, name="System League", slug="system-league")
    assert League.objects.filter(pk=league.pk).exists()
    with pytest.raises(ValidationFailed) as refused:  # a name of no Latin letters slugifies to "" (was a 500)
        league_create(user=SYSTEM, name="!!!", slug="")
    assert "slug" in (refused.value.fields or {})
