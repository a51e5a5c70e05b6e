"""Registry reads by owner (docs/adr/0010-owners-and-organisations.md): the clubs, players and pairs a caller
sees are those of their organisations (staff: all); a pair another organisation owns may be read for
copying when it is entered in a published tournament or in one the caller holds a role on."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, Q, QuerySet

from tournaments.models import Organisation, Pair, Tournament, TournamentRole

M = TypeVar("M", bound=Model)


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def registry_visible(queryset: QuerySet[M], user: Any) -> QuerySet[M]:
    """``queryset`` (clubs, players or pairs) as ``user`` may read it: their organisations' records (staff:
    all; nobody else: none)."""
    if _is_staff(user):
        return queryset
    return queryset.filter(owner__in=Organisation.objects.of_user(user).values("pk"))


def copyable_pairs(user: Any, *, tournament: Tournament | int | None = None) -> QuerySet[Pair]:
    """The pairs ``user`` may copy into their organisation: entered in a published tournament, or in a
    tournament they hold a role on, or their own (staff: any); only those entered in ``tournament`` when it
    is given."""
    pairs = Pair.objects.all()
    if tournament is not None:
        pairs = pairs.filter(entries__tournament=tournament)
    if _is_staff(user):
        return pairs.distinct()
    if user is None or not getattr(user, "is_authenticated", False):
        return pairs.none()
    seen = (Q(entries__tournament__published=True)
            | Q(entries__tournament__in=TournamentRole.objects.filter(user_id=user.pk).values("tournament_id"))
            | Q(owner__in=Organisation.objects.of_user(user).values("pk")))
    return pairs.filter(seen).distinct()
