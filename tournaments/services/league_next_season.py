"""The next season starts from the last (issue 15): ``season_next`` copies a season's settings, divisions,
teams, rosters and captains into a new season of the same league, each team in the division the organiser
chose for it (promotion and relegation) or left out.

``season_next_plan(*, season)`` is what the console's form starts from: every team of the season (not
withdrawn) with its division and the overall place it finished in, and the season's divisions in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Division, Entry, Team, Tournament

from .audit import audit_record
from .errors import ValidationFailed
from .leagues import (
    division_create,
    league_standings,
    roster_add,
    season_create,
    team_captains_set,
    team_create,
)
from .leagues._base import organiser, require_season

#: What ``moves`` may say of a team instead of a division id: it does not play the next season.
LEAVES = "leaves"
#: The settings a new season takes from the last.
COPIED_SETTINGS = ("rules", "team_format", "tiebreaks", "bye_policy", "forfeit_policy", "time_called", "venue")


@dataclass
class PlannedTeam:
    team: Team
    division: Division | None
    place: int | None


def season_next_plan(*, season: Tournament) -> dict[str, Any]:
    """The season's teams (division, overall place) and divisions, for the next season's form."""
    require_season(season)
    try:
        places = {r["team_id"]: r["rank"] for r in league_standings(tournament=season)["rows"]}
    except ValidationFailed:
        places = {}
    teams = [PlannedTeam(t, t.division, places.get(t.pk))
             for t in Team.objects.filter(tournament=season, withdrawn=False).select_related("division", "club")]
    teams.sort(key=lambda p: (p.division.order if p.division else 999, p.place or 999, p.team.name))
    return {"teams": teams, "divisions": list(season.divisions.order_by("order", "id"))}


@transaction.atomic
def season_next(*, season: Tournament, user: Actor, name: str, slug: str, label: str = "",
                moves: Mapping[int, int | str | None] | None = None, rosters: bool = True) -> Tournament:
    """A new season of ``season``'s league with its settings and divisions; each team of ``season`` (not
    withdrawn) is entered again under the same name and club, in the division ``moves[team id]`` names (a
    division id of ``season``; default: the division it played in; ``None``: no division; ``"leaves"``: not
    entered), with its roster (``rosters``) and captains. 400 ``not_a_league_season``, ``invalid_move``; the
    refusals of ``season_create``, ``team_create`` and ``roster_add``."""
    organiser(user, season)
    require_season(season)
    if season.league_id is None:
        raise ValidationFailed("not_a_league_season", "Only a league's season has a next season.",
                               fields={"season": "a season of a league"})
    moves = dict(moves or {})
    old_divisions = {d.pk: d for d in season.divisions.all()}
    teams = list(Team.objects.filter(tournament=season, withdrawn=False).select_related("club", "division"))
    known = {t.pk for t in teams}
    for team_id, target in moves.items():
        if team_id not in known or not (target is None or target == LEAVES or target in old_divisions):
            raise ValidationFailed("invalid_move", "Each team goes to a division of the season, none, or leaves.",
                                   fields={f"moves.{team_id}": "a division of the season, none or leaves"})
    settings = {key: getattr(season, key) for key in COPIED_SETTINGS}
    new = season_create(league=season.league, user=user, name=name, slug=slug, season=label, **settings)
    divisions: dict[int, Division] = {}
    for old in sorted(old_divisions.values(), key=lambda d: (d.order, d.pk)):
        divisions[old.pk] = division_create(tournament=new, user=user, name=old.name, order=old.order,
                                            boards=old.boards, race_target=old.race_target,
                                            cross_overall_only=old.cross_overall_only)
    copied = []
    for team in sorted(teams, key=lambda t: (t.seed or 9999, t.pk)):
        target = moves.get(team.pk, team.division_id)
        if target == LEAVES:
            continue
        division = divisions[target] if isinstance(target, int) else None
        fresh = team_create(tournament=new, club=team.club, user=user, name=team.name, division=division,
                            seed=team.seed)
        if rosters:
            for entry in Entry.objects.filter(team=team, withdrawn=False).select_related("pair").order_by("seed", "id"):
                roster_add(team=fresh, pair=entry.pair, user=user, seed=entry.seed)
        captains = list(team.captains.all())
        if captains:
            team_captains_set(team=fresh, captains=captains, user=user)
        copied.append([team.pk, fresh.pk, division.pk if division else None])
    audit_record(action="season.next", obj=new, tournament_id=new.pk, user=user,
                 after={"from": season.pk, "teams": copied})
    return new
