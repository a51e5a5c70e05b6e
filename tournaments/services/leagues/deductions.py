"""Point deductions: match points and/or bullseyes taken off a team, with the reason (docs/leagues-model.md)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from tournaments.actors import Actor
from tournaments.models import PointDeduction, Team, TeamMatch

from .._common import actor
from ..audit import audit_record
from ..errors import NotFound, ValidationFailed
from ._base import organiser, standings_changed


@transaction.atomic
def deduction_add(*, team: Team | int, user: Actor, reason: str, match_points: int = 0, bullseyes: int = 0,
                  team_match: TeamMatch | int | None = None) -> PointDeduction:
    """Take ``match_points`` and/or ``bullseyes`` off a team (of a fixture of it, or of the season), with the
    ``reason`` shown under the table. 400 ``reason_required``, ``invalid_deduction``."""
    team_id = team if isinstance(team, int) else team.pk
    found = Team.objects.select_related("tournament").filter(pk=team_id).first()
    if found is None:
        raise NotFound("team_not_found", "No such team.")
    tournament = found.tournament
    organiser(user, tournament)
    if not reason.strip():
        raise ValidationFailed("reason_required", "Say why points are deducted.", fields={"reason": "required"})
    for key, value in (("match_points", match_points), ("bullseyes", bullseyes)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 999:
            raise ValidationFailed("invalid_deduction", "A whole number from 0 to 999.", fields={key: "0 to 999"})
    if not match_points and not bullseyes:
        raise ValidationFailed("invalid_deduction", "Deduct match points, bullseyes or both.",
                               fields={"match_points": "more than 0"})
    match = None
    if team_match is not None:
        match = TeamMatch.objects.filter(pk=team_match if isinstance(team_match, int) else team_match.pk).filter(
            Q(team_a=found) | Q(team_b=found)).first()
        if match is None:
            raise ValidationFailed("not_in_fixture", "The team does not play that fixture.", fields={"team_match": "its fixture"})
    row = PointDeduction.objects.create(tournament=tournament, team=found, team_match=match, match_points=match_points,
                                        bullseyes=bullseyes, reason=reason.strip()[:300], user=actor(user))
    audit_record(action="deduction.add", obj=row, tournament_id=tournament.pk, user=user,
                 after={"team": found.pk, "match_points": match_points, "bullseyes": bullseyes, "reason": reason})
    standings_changed(tournament.pk)
    return row


@transaction.atomic
def deduction_void(*, deduction: PointDeduction, user: Actor) -> PointDeduction:
    """Cancel a deduction (kept, marked ``voided``)."""
    row = PointDeduction.objects.select_for_update().select_related("tournament").get(pk=deduction.pk)
    organiser(user, row.tournament)
    row.voided = True
    row.save(update_fields=["voided"])
    audit_record(action="deduction.void", obj=row, tournament_id=row.tournament_id, user=user)
    standings_changed(row.tournament_id)
    return row


