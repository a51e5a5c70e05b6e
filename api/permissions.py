"""Who may do what: tablets on their own table's board, organisers on their own tournaments, staff on all.

Object-level checks go through ``organises`` (a TournamentRole, or staff) and ``tablet_device``; a wrong
tournament or board is 403, missing or wrong credentials 401 (docs/decisions.md, HTTP).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments import roles
from tournaments.models import Device, Tournament, TournamentRole
from tournaments.selectors.organiser import role_on
from tournaments.services.accounts import may_organise
from tournaments.services.organisations import is_member


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


class CanEditRegistryObject(BasePermission):
    """Clubs, players and pairs belong to an organisation: only its members (and staff) change or delete one
    (403 ``not_owner``; the services check the same, ``services.organisations.require_member``). Which records
    a caller reads is the views' queryset (``selectors.registry.registry_visible``)."""

    message = "This belongs to another organisation: only its members may change it."
    code = "not_owner"

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = organiser_user(request)
        return user is not None and is_member(user, obj.owner_id)


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


class MayOrganise(IsSignedIn):
    """A signed-in person who may create events (staff, or given "may organise" by staff or an invitation)."""

    message = "Creating events needs an account that may organise: ask an organiser for an invitation."

    def has_permission(self, request: Request, view: Any) -> bool:
        return super().has_permission(request, view) and may_organise(organiser_user(request))
