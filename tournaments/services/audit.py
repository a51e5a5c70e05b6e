"""The audit trail: one append-only ``AuditEvent`` per change, written in the change's own transaction.

Nothing here updates or deletes an event. ``before``/``after`` hold small JSON snapshots of what changed.
Written with ``row_insert`` (one prebuilt INSERT), or by the caller with its own rows (``audit_event``).
"""

from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.actors import Actor
from tournaments.models import AuditEvent, Device

from .rows import row_insert


def audit_event(
    *,
    action: str,
    obj: models.Model,
    tournament_id: int | None,
    before: Any = None,
    after: Any = None,
    device: Device | None = None,
    user: Actor = None,
) -> AuditEvent:
    """One audit event (``action`` like ``hand.submit``) about ``obj``, not written yet: for a caller that
    writes it together with its change (``rows_write``)."""
    return AuditEvent(
        tournament_id=tournament_id,
        user=user if getattr(user, "is_authenticated", False) else None,
        device=device,
        action=action,
        object_type=obj._meta.model_name or type(obj).__name__.lower(),
        object_id=str(obj.pk),
        before=before,
        after=after,
    )


def audit_record(
    *,
    action: str,
    obj: models.Model,
    tournament_id: int | None,
    before: Any = None,
    after: Any = None,
    device: Device | None = None,
    user: Actor = None,
) -> AuditEvent:
    """Append one audit event (``action`` like ``hand.submit``) about ``obj``."""
    event = audit_event(action=action, obj=obj, tournament_id=tournament_id, before=before, after=after,
                        device=device, user=user)
    row_insert(event)
    return event
