"""Who acts: the type of the ``user`` every service takes (a signed-in user, an anonymous one, or None for
the system and for tablets, which act through their device)."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

Actor: TypeAlias = AbstractBaseUser | AnonymousUser | None
