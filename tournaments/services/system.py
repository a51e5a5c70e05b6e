"""The system as an explicit actor: ``SYSTEM``, for the work a service does on nobody's behalf (a season
imported or carried into the next by a job, the league simulator, a data repair).

The league services (``tournaments.services.leagues``) accept ``SYSTEM`` as the organiser of every season
and refuse ``user=None`` like any caller without a role (403 ``not_organiser``): a forgotten ``user``
argument is not an all-powerful system. ``SystemActor`` is an ``AnonymousUser`` (not signed in, no role,
no organisation), so a service that does not know it refuses it too: it is a key only where a service asks
``is_system`` (docs/services.md, "Leagues").
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from tournaments.actors import Actor


class SystemActor(AnonymousUser):
    """The system acting: recorded as no user (``_common.actor`` gives None), allowed where ``is_system``."""

    username = "system"

    def __str__(self) -> str:
        return "the system"

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM = SystemActor()


def is_system(user: Actor) -> bool:
    """Whether ``user`` is the system (``SYSTEM``); ``None`` is not."""
    return isinstance(user, SystemActor)


def passed_on(user: Actor) -> Actor:
    """``user`` as the shared services (``events``, ``people``, ``organisations``) take it, which still read
    ``None`` as the system: ``SYSTEM`` becomes None, a real user stays itself; ``None`` must have been
    refused before a caller gets here."""
    return None if is_system(user) else user
