"""Querysets that say once which rows a kind of reader may see.

``RoundQuerySet`` holds the round-status sets: ``live()`` (published or in play: what tablets score and
the services still accept results for) and ``public()`` (published, in play or closed: what the public
sees and what the standings count). The same sets are class constants (``LIVE_STATUSES``,
``PUBLIC_STATUSES``) for the places that need a tuple: raw SQL, ``round__status__in`` filters on boards
and games, and membership tests on a loaded round.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models


class RoundQuerySet(models.QuerySet):
    # The values of ``Round.Status`` (this module is imported by ``events``, so it cannot import them).
    #: Published or in play: tablets see the round, results are taken.
    LIVE_STATUSES: ClassVar[tuple[str, ...]] = ("published", "in_play")
    #: Published, in play or closed: the public sees the round and the standings count it.
    PUBLIC_STATUSES: ClassVar[tuple[str, ...]] = ("published", "in_play", "closed")

    def live(self) -> RoundQuerySet:
        """Rounds being played: published or in play."""
        return self.filter(status__in=self.LIVE_STATUSES)

    def public(self) -> RoundQuerySet:
        """Rounds the public may see: published, in play or closed."""
        return self.filter(status__in=self.PUBLIC_STATUSES)


__all__ = ["RoundQuerySet"]
