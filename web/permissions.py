"""Who may use the organisers' console: staff, or a user with a role on the tournament (every object).

What each role may do is ``tournaments.roles.POLICY``: every role reads the console; a scorekeeper also
checks pairs in and pairs tablets; the buttons of everything else show for an organiser or co-organiser
(``"manage" in tournament.allowed_actions`` in a template), and the services refuse the rest anyway.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from tournaments import roles, selectors
from tournaments.models import Tournament
from tournaments.selectors.organiser import role_on
from web.http import found


def _staff(user: Any) -> bool:
    return bool(user.is_staff or user.is_superuser)


def organises(user: Any, tournament: Tournament, action: str = "read") -> bool:
    """Whether ``user`` may do ``action`` (``tournaments.roles.ACTIONS``) on the tournament."""
    return roles.allows(role_on(user, tournament), action)


def organised_tournaments(user: Any) -> list[Tournament]:
    """The tournaments ``user`` may run (every one for staff), newest first."""
    return selectors.organised_tournaments(user, every=_staff(user))


def organiser_tournament(user: Any, slug: str, action: str = "read") -> Tournament:
    """The tournament with this slug if ``user`` may do ``action`` on it (``read``: any role): 404 when
    unknown, 403 otherwise. ``tournament.allowed_actions`` is then every action the user may do there,
    for the templates to show only the buttons that work."""
    tournament = found(selectors.tournament_by_slug, slug)
    role = role_on(user, tournament)
    if not roles.allows(role, action):
        raise PermissionDenied(roles.refusal(role, action) if role else "You are not an organiser of this tournament.")
    tournament.allowed_actions = roles.allowed_actions(role)  # type: ignore[attr-defined]
    tournament.role_label = roles.ROLE_LABELS.get(role or "", "")  # type: ignore[attr-defined]
    return tournament
