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


def organiser_object(request: Request, queryset: QuerySet[M], tournament_path: str, **lookup: Any) -> M:
    """The object, after checking the caller organises the tournament at ``tournament_path`` on it."""
    obj = get_or_404(queryset, **lookup)
    tournament_id = obj
    for part in tournament_path.split("."):
        tournament_id = getattr(tournament_id, part)
    require_organiser_of(request, int(tournament_id))  # type: ignore[arg-type]
    return obj


class TournamentScopedMixin:
    """For views under ``tournaments/<tournament_pk>/``: ``self.tournament``, checked once per request."""

    request: Request
    kwargs: dict[str, Any]

    @property
    def tournament(self) -> Tournament:
        cached = getattr(self, "_tournament", None)
        if cached is None:
            cached = get_or_404(Tournament.objects.all(), pk=self.kwargs["tournament_pk"])
            require_organiser_of(self.request, cached)
            self._tournament = cached
        return cached
