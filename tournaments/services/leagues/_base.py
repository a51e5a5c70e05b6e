"""What the league services share: who may act, the format of a fixture, and reading team arguments."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from tournaments.actors import Actor
from tournaments.formats import DEFAULT_TEAM_FORMAT, FormatError, TeamFormat, TeamKind
from tournaments.models import Board, Division, EnteredAs, Round, Team, TeamMatch, Tournament

from .._common import is_organiser, require_organiser
from ..errors import NotAllowed, NotFound, ValidationFailed
from ..outbox import outbox_enqueue
from ..publication import public_change
from ..system import is_system

STANDINGS_TASK = "tournaments.tasks.standings_recompute"


def standings_changed(tournament_id: int) -> None:
    """A season's fixtures or results changed: its standings are recomputed and its public output published
    again (docs/decisions.md, "Published results": one ``public_change`` per change, merged per transaction)."""
    outbox_enqueue(STANDINGS_TASK, [tournament_id], coalesce_key=f"standings:{tournament_id}")
    public_change(tournament_id, full=True, standings=True)


def require_season(tournament: Tournament) -> None:
    """400 ``not_a_team_event`` unless the tournament is played by club teams (a league season is)."""
    if not tournament.is_club_teams:
        raise ValidationFailed("not_a_team_event", "Teams, divisions and fixtures belong to a club-team event "
                               "(a league season).", fields={"tournament": "a club-team event"})


def team_of(tournament: Tournament, team: Team | int | None, field: str) -> Team | None:
    """The season's team named by ``team`` (an instance or an id), 400 ``team_not_in_season`` otherwise."""
    if team is None:
        return None
    team_id = team if isinstance(team, int) else team.pk
    found = Team.objects.filter(pk=team_id, tournament_id=tournament.pk).select_related("division", "club").first()
    if found is None:
        raise ValidationFailed("team_not_in_season", "That team does not play in this season.",
                               fields={field: "a team of this season"})
    return found


def division_of(tournament: Tournament, division: Division | int | None, field: str = "division") -> Division | None:
    if division is None:
        return None
    division_id = division if isinstance(division, int) else division.pk
    found = Division.objects.filter(pk=division_id, tournament_id=tournament.pk).first()
    if found is None:
        raise ValidationFailed("division_not_in_season", "That division is not in this season.",
                               fields={field: "a division of this season"})
    return found


def season_team_format(tournament: Tournament) -> TeamFormat:
    try:
        return tournament.team_format_value() or DEFAULT_TEAM_FORMAT
    except FormatError as exc:
        raise ValidationFailed("team_format_invalid", exc.message, fields={exc.path: exc.message}) from exc


def fixture_format(tournament: Tournament, home: Team, away: Team | None) -> TeamFormat:
    """A fixture's team format: the season's, with the home team's division's K and race target when the two
    teams are of that division (a cross-division fixture plays the season's format)."""
    fmt = season_team_format(tournament)
    division = home.division
    if division is None or (away is not None and away.division_id != home.division_id):
        return fmt
    boards = division.boards or fmt.boards
    n = fmt.n
    if division.race_target and fmt.kind is TeamKind.FIRST_TO_TOTAL:
        n = division.race_target
    return TeamFormat(boards, fmt.kind, n)


def next_table(round_: Round) -> int:
    """The next free table number of a match day: table numbers are unique across the season's match days of
    one date (docs/decisions.md, "Leagues": tablets are paired to a table, and two venues play on one day),
    so each fixture seated takes the next block; a match day without a date numbers its own tables."""
    boards = Board.objects.filter(round__tournament_id=round_.tournament_id)
    boards = boards.filter(round__date=round_.date) if round_.date is not None else boards.filter(round_id=round_.pk)
    return int(boards.aggregate(m=Max("table"))["m"] or 0) + 1


def entered_as(user: Actor, team_match: TeamMatch) -> str:
    """The capacity in which ``user`` types a fixture's result: the organiser (or co-organiser, staff), else
    a captain of one of its teams; 403 ``not_captain`` otherwise (``None`` too: only ``SYSTEM`` is the system)."""
    tournament_id = team_match.round.tournament_id
    if is_system(user) or is_organiser(user, tournament_id):
        return EnteredAs.ORGANISER
    user_id = getattr(user, "pk", None)
    for as_, team_id in ((EnteredAs.CAPTAIN_A, team_match.team_a_id), (EnteredAs.CAPTAIN_B, team_match.team_b_id)):
        if team_id is not None and Team.captains.through.objects.filter(team_id=team_id, user_id=user_id).exists():
            return as_
    raise NotAllowed("not_captain", "Only the organiser or a captain of one of the two teams may enter this result.")


def may_confirm(user: Actor, team_match: TeamMatch, entered: str) -> str:
    """Who confirms a captain's entry: the organiser, or the other team's captain (403 ``not_other_captain``
    for the captain who entered it)."""
    as_ = entered_as(user, team_match)
    if as_ == EnteredAs.ORGANISER:
        return as_
    if as_ == entered:
        raise NotAllowed("not_other_captain", "The other team's captain (or the organiser) confirms this result.")
    return as_


def organiser(user: Actor, tournament: Tournament) -> None:
    """403 unless ``user`` runs the season or is ``system.SYSTEM``; ``None`` is refused (``not_organiser``):
    a caller that acts as the system says so."""
    if not is_system(user):
        require_organiser(user, tournament.pk)


def fixture_or_404(team_match: TeamMatch | int) -> TeamMatch:
    pk = team_match if isinstance(team_match, int) else team_match.pk
    found = (TeamMatch.objects.select_for_update(of=("self",)).filter(pk=pk)
             .select_related("round__tournament", "team_a__division", "team_b__division").first())
    if found is None:
        raise NotFound("fixture_not_found", "No such fixture.")
    return found


def describe_fixture(match: TeamMatch) -> str:
    """'Round 3 (2026-05-09): Bay Boys v Pt Fortin' (a bye: 'Bay Boys, bye')."""
    round_ = match.round
    when = f" ({round_.date.isoformat()})" if round_.date else ""
    a = match.team_a.name if match.team_a else str(match.club_a)
    b = match.team_b.name if match.team_b else None
    return f"round {round_.number}{when}: {a} v {b}" if b else f"round {round_.number}{when}: {a}, bye"


def whole_pair(value: Any, field: str, *, low: int = 0, high: int = 999, required: bool = True) -> tuple[int, int] | None:
    """Two whole numbers (home, away) within bounds, 400 ``invalid_figures`` otherwise."""
    if value is None and not required:
        return None
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValidationFailed("invalid_figures", "Two whole numbers: the first side's, then the second's.",
                               fields={field: "two whole numbers"})
    a, b = int(value[0]), int(value[1])
    if not (low <= a <= high and low <= b <= high):
        raise ValidationFailed("invalid_figures", f"Each between {low} and {high}.", fields={field: f"{low} to {high}"})
    return a, b
