"""The organiser's inbox of late hands (tournaments/services/late_hands.py): what the console lists."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import LateHand, Tournament


def tournament_late_hands(tournament: Tournament, *, handled: bool | None = None) -> QuerySet[LateHand]:
    """The tournament's late entries, oldest first; ``handled`` filters (None: every one)."""
    rows = LateHand.objects.filter(tournament=tournament).select_related("device", "board__round", "handled_by")
    if handled is not None:
        rows = rows.filter(handled_at__isnull=not handled)
    return rows.order_by("created_at", "id")


def tournament_late_hand(tournament: Tournament, late_id: int) -> LateHand | None:
    return LateHand.objects.filter(tournament=tournament, pk=late_id).first()
