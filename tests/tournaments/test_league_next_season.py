"""The next season starts from the last (issue 15): settings, divisions, teams, rosters and captains copied,
promotion and relegation as the organiser chooses, a team that leaves left out."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import add_pair
from tests.tournaments.test_league_import import RESULTS, TEAMS, _season
from tournaments.errors import DomainError
from tournaments.models import Entry, Team
from tournaments.services.league_import import season_import
from tournaments.services.league_next_season import LEAVES, season_next, season_next_plan
from tournaments.services.leagues import team_captains_set

pytestmark = pytest.mark.django_db


def test_the_next_season_copies_the_last_with_promotion_and_relegation():
    season, user = _season()
    season_import(tournament=season, user=user, teams=(TEAMS.encode(), "t.csv"), results=(RESULTS.encode(), "r.csv"),
                  commit=True)
    couva = Team.objects.get(tournament=season, name="Couva Jacks")
    pairs = [add_pair(couva, user) for _ in range(4)]  # a roster larger than K = 3
    captain = make_user()
    team_captains_set(team=couva, captains=[captain], user=user)
    plan = season_next_plan(season=season)
    assert [d.name for d in plan["divisions"]] == ["Premier", "Championship", "First"]
    assert plan["teams"][0].team.name == "Couva Jacks" and plan["teams"][0].place == 2  # behind Chaguanas Hi (a bye win)
    divisions = {d.name: d.pk for d in plan["divisions"]}
    arima = Team.objects.get(tournament=season, name="Arima Aces")
    mayaro = Team.objects.get(tournament=season, name="Mayaro Lows")
    point = Team.objects.get(tournament=season, name="Point Kickers")
    siparia = Team.objects.get(tournament=season, name="Siparia Jacks")
    new = season_next(season=season, user=user, name="League 2027", slug="league-2027", label="2027",
                      moves={arima.pk: divisions["Premier"], point.pk: divisions["Championship"], mayaro.pk: LEAVES})
    assert new.league_id == season.league_id and new.season == "2027" and new.team_format == season.team_format
    assert new.tiebreaks == season.tiebreaks and new.bye_policy == season.bye_policy
    assert list(new.divisions.order_by("order").values_list("name", flat=True)) == ["Premier", "Championship", "First"]
    placed = {t.name: t.division.name for t in Team.objects.filter(tournament=new).select_related("division")}
    assert placed["Arima Aces"] == "Premier" and placed["Point Kickers"] == "Championship"
    assert placed["Siparia Jacks"] == "First" and "Mayaro Lows" not in placed and len(placed) == 8
    new_couva = Team.objects.get(tournament=new, name="Couva Jacks")
    assert sorted(e.pair_id for e in Entry.objects.filter(team=new_couva)) == sorted(p.pair_id for p in pairs)
    assert list(new_couva.captains.all()) == [captain]
    assert not new.rounds.exists(), "no fixtures copied: the new season draws or imports its own"
    assert siparia.tournament_id == season.pk


def test_a_move_to_a_division_of_another_season_is_refused():
    season, user = _season()
    season_import(tournament=season, user=user, teams=(TEAMS.encode(), "t.csv"), commit=True)
    team = Team.objects.filter(tournament=season).first()
    with pytest.raises(DomainError) as refused:
        season_next(season=season, user=user, name="X", slug="x-2027", moves={team.pk: 999999})
    assert refused.value.code == "invalid_move"
