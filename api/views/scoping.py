"""Finding the tournament (or round, board, game, hand) a request names, and checking the caller runs it.

404 when the object does not exist; 403 when it belongs to a tournament the organiser does not run
(docs/decisions.md: wrong tournament 403).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, QuerySet
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from tournaments.models import Tournament

from ..permissions import require_organiser_of

M = TypeVar("M", bound=Model)


def get_or_404(queryset: QuerySet[M], **lookup: Any) -> M:
    found = queryset.filter(**lookup).first()
    if found is None:
        raise NotFound(f"No such {queryset.model._meta.verbose_name}.")
    return found


def organiser_object(request: Request, queryset: QuerySet[M], tournament_path: str, *, action: str | None = None,
                     **lookup: Any) -> M:
    """The object, after checking the caller may do ``action`` (``tournaments.roles``; by default read for
    a GET, manage for a write) on the tournament at ``tournament_path`` on it."""
    obj = get_or_404(queryset, **lookup)
    tournament_id = obj
    for part in tournament_path.split("."):
        tournament_id = getattr(tournament_id, part)
    require_organiser_of(request, int(tournament_id), action)  # type: ignore[arg-type]
    return obj


class TournamentScopedMixin:
    """For views under ``tournaments/<tournament_pk>/``: ``self.tournament``, checked once per request."""

    request: Request
    kwargs: dict[str, Any]
    #: The role action the view needs (``tournaments.roles``); None: read for a GET, manage for a write.
    tournament_action: str | None = None

    @property
    def tournament(self) -> Tournament:
        cached = getattr(self, "_tournament", None)
        if cached is None:
            cached = get_or_404(Tournament.objects.all(), pk=self.kwargs["tournament_pk"])
            require_organiser_of(self.request, cached, self.tournament_action)
            self._tournament = cached
        return cached
