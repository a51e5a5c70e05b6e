"""The audit trail: one append-only ``AuditEvent`` per change, written in the change's own transaction.

Nothing here updates or deletes an event. ``before``/``after`` hold small JSON snapshots of what changed.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.models import AuditEvent, Device


def audit_record(
    *,
    action: str,
    obj: models.Model,
    tournament_id: int | None,
    before: Any = None,
    after: Any = None,
    device: Device | None = None,
    user: Any = None,
) -> AuditEvent:
    """Append one audit event (``action`` like ``hand.submit``) about ``obj``."""
    return AuditEvent.objects.create(
        tournament_id=tournament_id,
        user=user if getattr(user, "is_authenticated", False) else None,
        device=device,
        action=action,
        object_type=obj._meta.model_name or type(obj).__name__.lower(),
        object_id=str(obj.pk),
        before=before,
        after=after,
    )
