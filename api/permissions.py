"""Who may do what: tablets on their own table's board, organisers on their own tournaments, staff on all.

Object-level checks go through ``organises`` (a TournamentRole, or staff) and ``tablet_device``; a wrong
tournament or board is 403, missing or wrong credentials 401 (docs/decisions.md, HTTP).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments import roles
from tournaments.models import Club, Device, Entry, Pair, Player, Tournament, TournamentRole
from tournaments.selectors.organiser import role_on


def tablet_device(request: Request) -> Device | None:
    """The paired device making this request, if a tablet is calling."""
    return request.auth if isinstance(request.auth, Device) else None


def organiser_user(request: Request) -> AbstractBaseUser | None:
    """The Django user making this request, if a person (not a tablet) is signed in."""
    user = request.user
    if tablet_device(request) is not None or not getattr(user, "is_authenticated", False):
        return None
    return user if isinstance(user, AbstractBaseUser) else None


def organises(user: Any, tournament: Tournament | int, action: str = "read") -> bool:
    """Whether ``user`` may do ``action`` on ``tournament`` (``tournaments.roles.POLICY``; ``read``: staff,
    or any role on it)."""
    return roles.allows(role_on(user, tournament), action)


def organised_tournament_ids(user: Any) -> Any:
    """The ids of the tournaments ``user`` organises (a subquery); staff are not limited by it."""
    return TournamentRole.objects.filter(user=user).values("tournament_id")


def require_organiser_of(request: Request, tournament: Tournament | int, action: str | None = None) -> None:
    """Raise 401 for no organiser credentials, 403 for an organiser of another tournament (or a role that
    does not cover ``action``: by default ``read`` for GET/HEAD/OPTIONS, ``manage`` for a write)."""
    user = organiser_user(request)
    if user is None:
        raise exceptions.NotAuthenticated("Sign in as an organiser of this tournament.")
    if action is None:
        action = "read" if request.method in SAFE_METHODS else "manage"
    role = role_on(user, tournament)
    if role is None:
        raise exceptions.PermissionDenied("You are not an organiser of this tournament.", code="not_your_tournament")
    if not roles.allows(role, action):
        raise exceptions.PermissionDenied(roles.refusal(role, action), code="role_not_allowed")


def registry_entries_filter(obj: Club | Player | Pair) -> Q:
    """The entries (pairs in tournaments) that use a registry object: its owners, for editing rights."""
    if isinstance(obj, Pair):
        return Q(pair=obj)
    if isinstance(obj, Player):
        return Q(pair__player_1=obj) | Q(pair__player_2=obj)
    return Q(pair__club=obj)


class CanEditRegistryObject(BasePermission):
    """Clubs, players and pairs are shared: an organiser may change or delete one only when every
    tournament it is entered in is one of theirs (staff: always). Reading is for every organiser."""

    message = "This is entered in a tournament you do not organise."

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = organiser_user(request)
        if user is None:
            return False
        if user.is_staff:
            return True
        foreign = (
            Entry.objects.filter(registry_entries_filter(obj))
            .exclude(tournament_id__in=organised_tournament_ids(user))
            .exists()
        )
        return not foreign


class IsTablet(BasePermission):
    """A paired scorer tablet (``Authorization: Device <token>``)."""

    message = "Only a paired scorer tablet may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        if tablet_device(request) is not None:
            return True
        if not getattr(request.user, "is_authenticated", False):
            raise exceptions.NotAuthenticated("Pair this tablet first: send `Authorization: Device <token>`.")
        return False


class IsOrganiser(BasePermission):
    """A signed-in person (knox token or session) who organises at least one tournament, or staff.

    Object-level rules (which tournament) are the views' job, through ``require_organiser_of``.
    """

    message = "Only a tournament organiser may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        user = organiser_user(request)
        if user is None:
            if tablet_device(request) is not None:
                return False
            raise exceptions.NotAuthenticated("Sign in as an organiser: send `Authorization: Token <token>`.")
        return bool(user.is_staff or TournamentRole.objects.filter(user=user).exists())


class IsSignedIn(BasePermission):
    """A signed-in person (knox token or session), whatever their roles."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if organiser_user(request) is None:
            if tablet_device(request) is not None:
                return False
            raise exceptions.NotAuthenticated("Sign in first.")
        return True
