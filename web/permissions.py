"""Who may use the organisers' console: staff, or a user with a role on the tournament (every object)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from tournaments.models import Tournament, TournamentRole


def organises(user: Any, tournament: Tournament) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return TournamentRole.objects.filter(user=user, tournament=tournament).exists()


def organised_tournaments(user: Any) -> QuerySet[Tournament]:
    if user.is_staff or user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(roles__user=user).distinct()


def organiser_tournament(user: Any, slug: str) -> Tournament:
    """The tournament with this slug if ``user`` runs it: 404 when unknown, 403 when someone else's."""
    try:
        tournament = Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise Http404("No such tournament") from None
    if not organises(user, tournament):
        raise PermissionDenied("You are not an organiser of this tournament.")
    return tournament
