"""Who may use the organisers' console: staff, or a user with a role on the tournament (every object)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from tournaments import selectors
from tournaments.models import Tournament
from web.http import found


def _staff(user: Any) -> bool:
    return bool(user.is_staff or user.is_superuser)


def organises(user: Any, tournament: Tournament) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if _staff(user):
        return True
    return selectors.has_role(user, tournament)


def organised_tournaments(user: Any) -> list[Tournament]:
    """The tournaments ``user`` may run (every one for staff), newest first."""
    return selectors.organised_tournaments(user, every=_staff(user))


def organiser_tournament(user: Any, slug: str) -> Tournament:
    """The tournament with this slug if ``user`` runs it: 404 when unknown, 403 when someone else's."""
    tournament = found(selectors.tournament_by_slug, slug)
    if not organises(user, tournament):
        raise PermissionDenied("You are not an organiser of this tournament.")
    return tournament
