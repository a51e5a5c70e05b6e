"""The system as an explicit actor: ``SYSTEM``, for the work a service does on nobody's behalf (a season
imported or carried into the next by a job, the league simulator, a data repair).

The league services (``tournaments.services.leagues``) accept ``SYSTEM`` as the organiser of every season
and refuse ``user=None`` like any caller without a role (403 ``not_organiser``): a forgotten ``user``
argument is not an all-powerful system. ``SystemActor`` is an ``AnonymousUser`` (not signed in, no role,
no organisation), so a service that does not know it refuses it too: it is a key only where a service asks
``is_system`` (docs/services.md, "Leagues").
"""

from __future__ import annotations

from tournaments.actors import SYSTEM, Actor, SystemActor, is_system

__all__ = ["SYSTEM", "SystemActor", "is_system", "passed_on"]


def passed_on(user: Actor) -> Actor:
    """``user`` as the shared services (``events``, ``people``) take it, which read ``None`` as the system:
    ``SYSTEM`` becomes None, a real user stays itself; ``None`` must have been refused before a caller gets
    here. (The organisations' checks and the registry's reads also take ``SYSTEM`` itself.)"""
    return None if is_system(user) else user
