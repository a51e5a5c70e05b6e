"""Leagues, seasons, divisions, teams, rosters and captains (docs/leagues-model.md).

Every function runs in one transaction, checks who may act (a league: the members of its organisation; a
season: its organisers) and writes an audit event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from tournaments.actors import Actor
from tournaments.formats import BYE_PRESETS, LEAGUE_TIE_BREAKS, EntrantType, PairingSystem, TeamKind
from tournaments.models import Club, Division, Entry, League, Organisation, Pair, Team, TeamMatch, Tournament

from .._rules import model_clean
from ..audit import audit_record
from ..errors import Conflict, NotAllowed, ValidationFailed
from ..events import entry_create, tournament_create
from ..organisations import owner_for, require_member
from ..system import is_system, passed_on
from ._base import division_of, organiser, require_season, team_of

DEFAULT_LEAGUE_TEAM_FORMAT = {"boards": 3, "kind": TeamKind.FIRST_TO_TOTAL.value, "n": 17}


def _name(value: Any, field: str, max_length: int = 120) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text or not any(ch.isprintable() and not ch.isspace() for ch in text) or len(text) > max_length:
        raise ValidationFailed("invalid_name", f"A name of 1 to {max_length} visible characters.",
                               fields={field: "a visible name"})
    if any(not ch.isprintable() for ch in text):
        raise ValidationFailed("invalid_name", "A name without control characters.", fields={field: "no control characters"})
    return text


# ---- leagues -------------------------------------------------------------------------------------------
def _member(user: Actor, organisation_id: int, **kwargs: Any) -> None:
    """403 ``not_owner`` unless ``user`` is a member of the organisation or ``SYSTEM`` (``None`` is refused)."""
    if user is None:
        raise NotAllowed("not_owner", "Only a member of the league's organisation (or the system) may do this.")
    if not is_system(user):
        require_member(user, organisation_id, **kwargs)


@transaction.atomic
def league_create(*, user: Actor, name: str, slug: str, owner: Organisation | int | None = None) -> League:
    """A league of ``owner`` (default: the user's personal organisation; 403 ``not_owner`` when the user is
    not a member of the one named). 400 ``league_exists`` for a name the owner already uses or a taken slug."""
    if user is None:  # the organisation's membership is checked by owner_for (the system: any organisation)
        _member(user, 0)
    owner_id = owner_for(passed_on(user), owner)
    name = _name(name, "name", 200)
    if League.objects.filter(owner_id=owner_id, name=name).exists() or League.objects.filter(slug=slug).exists():
        raise ValidationFailed("league_exists", "A league of that name or address exists already.",
                               fields={"name": "already used", "slug": "already used"})
    league = League(owner_id=owner_id, name=name, slug=slug)
    model_clean(league, exclude=["owner"])
    league.save()
    audit_record(action="league.create", obj=league, tournament_id=None, user=user,
                 after={"name": name, "slug": slug, "owner": owner_id})
    return league


@transaction.atomic
def league_update(*, league: League, user: Actor, **changes: Any) -> League:
    """Rename a league (``name``, ``slug``); 403 ``not_owner`` for a non-member."""
    league = League.objects.select_for_update().get(pk=league.pk)
    _member(user, league.owner_id, what="This league")
    unknown = set(changes) - {"name", "slug"}
    if unknown:
        raise ValidationFailed("unknown_field", "Only name and slug change here.", fields={k: "unknown" for k in unknown})
    if "name" in changes:
        league.name = _name(changes["name"], "name", 200)
    if "slug" in changes:
        league.slug = changes["slug"]
    model_clean(league, exclude=["owner"])
    try:
        with transaction.atomic():
            league.save()
    except IntegrityError:
        raise ValidationFailed("league_exists", "A league of that name or address exists already.",
                               fields={"name": "already used"}) from None
    audit_record(action="league.update", obj=league, tournament_id=None, user=user, after=changes)
    return league


@transaction.atomic
def season_create(*, league: League, user: Actor, name: str, slug: str, season: str = "", **settings: Any) -> Tournament:
    """A new season of ``league``: a club-team tournament played as a round robin, with the league's
    defaults unless ``settings`` say otherwise (``team_format`` 3 boards, first to 17; the ``league`` bye
    policy when the format is a race; ``formats.LEAGUE_TIE_BREAKS``). Any other ``tournament_create`` setting may be given. The user
    becomes its organiser; 403 ``not_owner`` unless a member of the league's organisation."""
    _member(user, league.owner_id, what="This league")
    settings.setdefault("entrant_type", EntrantType.CLUB_TEAMS.value)
    settings.setdefault("pairing_system", PairingSystem.ROUND_ROBIN.value)
    settings.setdefault("team_format", DEFAULT_LEAGUE_TEAM_FORMAT)
    if (settings["team_format"] or {}).get("kind") == TeamKind.FIRST_TO_TOTAL.value:  # the league's bye awards the race target
        settings.setdefault("bye_policy", BYE_PRESETS["league"].policy.to_dict())
    settings.setdefault("tiebreaks", list(LEAGUE_TIE_BREAKS))
    tournament = tournament_create(user=passed_on(user), name=name, slug=slug, **settings)
    tournament.league, tournament.season = league, season[:60]
    tournament.save(update_fields=["league", "season"])
    audit_record(action="season.create", obj=tournament, tournament_id=tournament.pk, user=user,
                 after={"league": league.pk, "season": season})
    return tournament


# ---- divisions -----------------------------------------------------------------------------------------
_DIVISION_FIELDS = ("name", "order", "boards", "race_target", "cross_overall_only")


def _division_values(changes: dict[str, Any]) -> dict[str, Any]:
    unknown = set(changes) - set(_DIVISION_FIELDS)
    if unknown:
        raise ValidationFailed("unknown_field", "Unknown division setting.", fields={k: "unknown" for k in unknown})
    out = dict(changes)
    if "name" in out:
        out["name"] = _name(out["name"], "name")
    for key, high in (("order", 99), ("boards", 30), ("race_target", 99)):
        value = out.get(key)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
            raise ValidationFailed("invalid_setting", f"A whole number from 1 to {high}.", fields={key: f"1 to {high}"})
    if "cross_overall_only" in out and not isinstance(out["cross_overall_only"], bool):
        raise ValidationFailed("invalid_setting", "True or false.", fields={"cross_overall_only": "true or false"})
    return out


@transaction.atomic
def division_create(*, tournament: Tournament, user: Actor, name: str, order: int | None = None,
                    boards: int | None = None, race_target: int | None = None, cross_overall_only: bool = True) -> Division:
    """A division of the season (``order`` default: after the last). ``boards`` and ``race_target`` override
    the season's K and race target for matches inside it; ``cross_overall_only``: a fixture against another
    division counts in the overall table only. 400 ``division_exists``."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    organiser(user, tournament)
    require_season(tournament)
    if order is None:
        order = (tournament.divisions.aggregate(m=Max("order"))["m"] or 0) + 1
    values = _division_values({"name": name, "order": order, "boards": boards, "race_target": race_target,
                               "cross_overall_only": cross_overall_only})
    if tournament.divisions.filter(name=values["name"]).exists():
        raise ValidationFailed("division_exists", "The season has a division of that name.", fields={"name": "already used"})
    division = Division.objects.create(tournament=tournament, **values)
    audit_record(action="division.create", obj=division, tournament_id=tournament.pk, user=user, after=values)
    return division


@transaction.atomic
def division_update(*, division: Division, user: Actor, **changes: Any) -> Division:
    """Change a division's ``name``, ``order``, ``boards``, ``race_target`` or ``cross_overall_only``; K and
    the race target apply to fixtures made after the change (a fixture keeps the format it was made with)."""
    division = Division.objects.select_for_update().select_related("tournament").get(pk=division.pk)
    organiser(user, division.tournament)
    values = _division_values(changes)
    if "name" in values and Division.objects.filter(tournament_id=division.tournament_id, name=values["name"]).exclude(
            pk=division.pk).exists():
        raise ValidationFailed("division_exists", "The season has a division of that name.", fields={"name": "already used"})
    for key, value in values.items():
        setattr(division, key, value)
    division.save()
    audit_record(action="division.update", obj=division, tournament_id=division.tournament_id, user=user, after=values)
    return division


# ---- teams, rosters, captains --------------------------------------------------------------------------
@transaction.atomic
def team_create(*, tournament: Tournament, club: Club, user: Actor, name: str | None = None,
                division: Division | int | None = None, seed: int | None = None) -> Team:
    """A team of ``club`` in the season (a club may field several: give each its own ``name``; default: the
    club's name). 400 ``team_exists`` for a name the season already has."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    organiser(user, tournament)
    require_season(tournament)
    if not is_system(user):
        require_member(user, club.owner_id, field="club", what="That club")
    team_name = _name(name if name is not None else club.name, "name")
    if tournament.teams.filter(name=team_name).exists():
        raise ValidationFailed("team_exists", f"The season has a team called {team_name} already: give this one "
                               "its own name.", fields={"name": "already used"})
    team = Team.objects.create(tournament=tournament, club=club, name=team_name,
                               division=division_of(tournament, division), seed=seed)
    audit_record(action="team.create", obj=team, tournament_id=tournament.pk, user=user,
                 after={"club": club.pk, "name": team_name, "division": team.division_id, "seed": seed})
    return team


@transaction.atomic
def team_update(*, team: Team, user: Actor, **changes: Any) -> Team:
    """Change a team's ``name``, ``division``, ``seed`` or ``withdrawn``. A team's name is the name it plays
    under this season (its club's later renames do not change it)."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    tournament = team.tournament
    organiser(user, tournament)
    unknown = set(changes) - {"name", "division", "seed", "withdrawn"}
    if unknown:
        raise ValidationFailed("unknown_field", "Unknown team setting.", fields={k: "unknown" for k in unknown})
    if "name" in changes:
        team.name = _name(changes["name"], "name")
        if Team.objects.filter(tournament=tournament, name=team.name).exclude(pk=team.pk).exists():
            raise ValidationFailed("team_exists", "The season has a team of that name.", fields={"name": "already used"})
    if "division" in changes:
        team.division = division_of(tournament, changes["division"])
    if "seed" in changes:
        team.seed = changes["seed"]
    if "withdrawn" in changes:
        team.withdrawn = bool(changes["withdrawn"])
    team.save()
    audit_record(action="team.update", obj=team, tournament_id=tournament.pk, user=user,
                 after={k: (v.pk if hasattr(v, "pk") else v) for k, v in changes.items()})
    return team


@transaction.atomic
def roster_add(*, team: Team, pair: Pair, user: Actor, seed: int | None = None) -> Entry:
    """Put ``pair`` on the team's roster: it is entered in the season (``entry_create``'s checks: a pair and
    a player once per season) with ``team`` set. 400 ``pair_of_another_club`` when the pair plays for
    another club than the team's."""
    team = Team.objects.select_related("tournament").get(pk=team.pk)
    organiser(user, team.tournament)
    if pair.club_id is not None and pair.club_id != team.club_id:
        raise ValidationFailed("pair_of_another_club", f"{pair} plays for another club than {team.name}.",
                               fields={"pair": f"a pair of {team.club}"})
    entry = entry_create(tournament=team.tournament, pair=pair, user=passed_on(user), seed=seed)
    entry.team = team
    entry.save(update_fields=["team"])
    audit_record(action="team.roster_add", obj=team, tournament_id=team.tournament_id, user=user,
                 after={"entry": entry.pk, "pair": pair.pk})
    return entry


@transaction.atomic
def roster_move(*, entry: Entry, team: Team | None, user: Actor) -> Entry:
    """Put an entered pair on another team's roster of the same season (``team`` None: on none). 409
    ``in_lineup`` while the pair is in a line-up of a fixture of its team not yet played."""
    entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    organiser(user, entry.tournament)
    new = team_of(entry.tournament, team, "team")
    if entry.team_id is not None:
        pending = TeamMatch.objects.filter(round__tournament=entry.tournament_id,
                                           status=TeamMatch.Status.SCHEDULED).exclude(result_source="match_totals")
        for match in pending:
            if entry.pk in (match.lineup_a or []) or entry.pk in (match.lineup_b or []):
                raise Conflict("in_lineup", f"{entry} is in the line-up of a fixture not yet played: change that "
                               "line-up first.")
    entry.team = new
    entry.save(update_fields=["team"])
    audit_record(action="team.roster_move", obj=entry, tournament_id=entry.tournament_id, user=user,
                 after={"team": new.pk if new else None})
    return entry


@transaction.atomic
def team_captains_set(*, team: Team, captains: Sequence[Any], user: Actor) -> Team:
    """The accounts that may submit and confirm the team's results (replacing the list)."""
    team = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    organiser(user, team.tournament)
    team.captains.set(list(captains))
    audit_record(action="team.captains", obj=team, tournament_id=team.tournament_id, user=user,
                 after={"captains": sorted(getattr(c, "pk", c) for c in captains)})
    return team
