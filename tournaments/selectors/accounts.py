"""Reads for accounts and roles: who holds which role on a tournament, the links still open, an account by
its username. Who may read is the caller's check (``tournaments.roles``); these only read."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils import timezone

from tournaments import roles
from tournaments.actors import Actor
from tournaments.errors import NotFound
from tournaments.models import Invitation, Tournament, TournamentRole


def tournament_people(tournament: Tournament) -> list[TournamentRole]:
    """The tournament's roles with their users: organisers first, then co-organisers, then scorekeepers."""
    order = Case(*(When(role=role, then=Value(i)) for i, role in enumerate(roles.ROLES)),
                 default=Value(len(roles.ROLES)), output_field=IntegerField())
    return list(TournamentRole.objects.filter(tournament=tournament).select_related("user")
                .annotate(role_order=order).order_by("role_order", "user__username"))


def open_links() -> QuerySet[Invitation]:
    """Invitations and password links neither used, withdrawn nor expired."""
    return Invitation.objects.filter(used_at__isnull=True, revoked=False, expires_at__gt=timezone.now())


def tournament_invitations(tournament: Tournament) -> list[Invitation]:
    """The tournament's role invitations still open, newest first."""
    return list(open_links().filter(tournament=tournament, kind=Invitation.Kind.ROLE)
                .select_related("created_by").order_by("-created_at"))


def organise_invitations(user: Actor, *, every: bool = False) -> list[Invitation]:
    """Invitations to organise still open that ``user`` made (``every``: all of them, for staff)."""
    links = open_links().filter(kind=Invitation.Kind.ORGANISE).select_related("created_by")
    if not every:
        links = links.filter(created_by=user)  # type: ignore[misc]
    return list(links.order_by("-created_at"))


def password_links(user: Actor, *, every: bool = False) -> list[Invitation]:
    """Password links still open that ``user`` issued (``every``: all of them, for staff)."""
    links = open_links().filter(kind=Invitation.Kind.PASSWORD).select_related("user", "created_by")
    if not every:
        links = links.filter(created_by=user)  # type: ignore[misc]
    return list(links.order_by("-created_at"))


def invitation_by_id(pk: int) -> Invitation:
    try:
        return Invitation.objects.select_related("tournament").get(pk=pk)
    except Invitation.DoesNotExist:
        raise NotFound("invitation_not_found", "No such invitation.") from None


def user_by_username(username: str) -> Any:
    """The active account with this username (case does not matter), or 404 ``user_unknown``."""
    username = (username or "").strip()
    found = get_user_model().objects.filter(username__iexact=username, is_active=True).first() if username else None
    if found is None:
        raise NotFound("user_unknown", "There is no account with this username: send them an invitation instead.")
    return found


def user_by_id(pk: int) -> Any:
    found = get_user_model().objects.filter(pk=pk).first()
    if found is None:
        raise NotFound("user_unknown", "There is no such account.")
    return found
