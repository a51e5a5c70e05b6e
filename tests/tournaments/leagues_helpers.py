"""Builders for the league tests (tests/tournaments/test_leagues_*.py): a league of one organiser, a season,
its divisions and teams, roster pairs."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from tests.tournaments.factories import make_user
from tournaments.models import Club, Division, Pair, Player, Team, Tournament
from tournaments.services import organisation_personal
from tournaments.services.leagues import (
    division_create,
    league_create,
    roster_add,
    season_create,
    team_create,
)

_serial = itertools.count(1)
DAY1 = datetime.date(2026, 4, 4)


def day(n: int) -> datetime.date:
    """The date of match day ``n`` (Saturdays a week apart)."""
    return DAY1 + datetime.timedelta(days=7 * (n - 1))


def make_season(*, team_format: dict[str, Any] | None = None, user: Any = None, **settings: Any) -> tuple[Tournament, Any]:
    user = user or make_user()
    n = next(_serial)
    league = league_create(user=user, name=f"League {n}", slug=f"league-{n}")
    season = season_create(league=league, user=user, name=f"League {n} 2026", slug=f"league-{n}-2026", season="2026",
                           team_format=team_format or {"boards": 2, "kind": "first_to_total", "n": 5}, **settings)
    return season, user


def make_team(season: Tournament, user: Any, name: str, division: Division | None = None, *, pairs: int = 0,
              seed: int | None = None) -> Team:
    owner = organisation_personal(user=user)
    club = Club.objects.create(name=f"{name} club {next(_serial)}", owner=owner)
    team = team_create(tournament=season, club=club, user=user, name=name, division=division, seed=seed)
    for _ in range(pairs):
        add_pair(team, user)
    return team


def add_pair(team: Team, user: Any) -> Any:
    owner = organisation_personal(user=user)
    n = next(_serial)
    p1 = Player.objects.create(name=f"Player {n}a", club=team.club, owner=owner)
    p2 = Player.objects.create(name=f"Player {n}b", club=team.club, owner=owner)
    pair = Pair.objects.create(player_1=p1, player_2=p2, club=team.club, owner=owner)
    return roster_add(team=team, pair=pair, user=user)


def make_divisions(season: Tournament, user: Any, *names: str) -> list[Division]:
    return [division_create(tournament=season, user=user, name=name) for name in names]
