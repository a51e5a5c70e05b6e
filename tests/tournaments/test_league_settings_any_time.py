"""A league season may change its tie-breaks, bye policy and forfeit policy while a match day is in play
(docs/leagues-model.md, "Season"): its fixtures are fixed in advance, no draw reads the table, and postponed
fixtures can keep a match day open for weeks. The other between-rounds settings still wait, and an ordinary
event still refuses them all while a round is in play."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_entries, make_organiser, make_round, make_tournament, open_round
from tests.tournaments.leagues_helpers import day, make_season, make_team
from tournaments.services import Conflict
from tournaments.services.events import tournament_update
from tournaments.services.leagues import fixture_create, lineup_set, match_day_create

pytestmark = pytest.mark.django_db


def _season_in_play():
    season, organiser = make_season(team_format={"boards": 1, "kind": "first_to_total", "n": 2})
    home = make_team(season, organiser, "Couva Kings", pairs=1)
    away = make_team(season, organiser, "Penal Jacks", pairs=1)
    match_day = match_day_create(tournament=season, user=organiser, date=day(1), venue="Couva")
    match = fixture_create(round=match_day, home=home, away=away, user=organiser)
    lineup_set(team_match=match, team=home, entries=list(home.roster.all()), user=organiser)
    lineup_set(team_match=match, team=away, entries=list(away.roster.all()), user=organiser)
    open_round(match_day)
    return season, organiser


def test_a_season_changes_its_tie_breaks_and_bye_policy_with_a_match_day_in_play():
    season, organiser = _season_in_play()
    season = tournament_update(tournament=season, user=organiser,
                               tiebreaks=["match_points", "bullseye_difference"], bye_policy="league")
    assert season.tiebreaks[:2] == ["match_points", "bullseye_difference"]


def test_a_season_still_waits_for_the_other_between_rounds_settings():
    season, organiser = _season_in_play()
    with pytest.raises(Conflict) as refused:
        tournament_update(tournament=season, user=organiser, round_minutes=90)
    assert refused.value.code == "settings_between_rounds"


def test_an_ordinary_event_still_refuses_tie_breaks_while_a_round_is_in_play():
    tournament = make_tournament()
    organiser = make_organiser(tournament)
    a, b = make_entries(tournament, 2)
    make_round(tournament, [(a, b)])  # in play
    with pytest.raises(Conflict) as refused:
        tournament_update(tournament=tournament, user=organiser, tiebreaks=["wins"])
    assert refused.value.code == "settings_between_rounds"
