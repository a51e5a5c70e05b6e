"""Who acts: the type of the ``user`` every service takes (a signed-in user, an anonymous one, ``SYSTEM``
for work done on nobody's behalf, or None: tablets, which act through their device, and the shared
registry services' older way of saying the system; docs/services.md, "Leagues")."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

Actor: TypeAlias = AbstractBaseUser | AnonymousUser | None


class SystemActor(AnonymousUser):
    """The system acting (a season imported or carried into the next by a job, the league simulator, a data
    repair): recorded as no user (``_common.actor`` gives None); the organisations' checks and the registry's
    reads treat it as None (every organisation); the league services refuse None and accept only this."""

    username = "system"

    def __str__(self) -> str:
        return "the system"

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM = SystemActor()


def is_system(user: Actor) -> bool:
    """Whether ``user`` is the system (``SYSTEM``); ``None`` is not."""
    return isinstance(user, SystemActor)
