"""The organiser's inbox of late hands (docs/decisions.md, "The tablet"; docs/pages.md, "Tablet states").

When the server refuses a tablet's queued entries for a reason no fix can mend (its token revoked, the
round closed, the event finished), the tablet sends them here rather than lose them:
``late_hand_submit`` authenticates by the device token **even if it is revoked** (the whole point), stores
each entry once per device and key, and never writes a hand or a game. The organiser reads the inbox in
the console and marks each entry handled (``late_hand_handle``) once the hand is entered by a correction or
judged not to count.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.errors import DomainError
from tournaments.models import Board, Device, LateHand
from tournaments.services._common import actor, require_organiser
from tournaments.services.audit import audit_record
from tournaments.services.devices import digest
from tournaments.services.errors import Conflict, ValidationFailed
from tournaments.services.idempotency import table_records

#: A device revoked longer ago than this can no longer post late hands (a lost tablet found a week later
#: is answered 401 like any unknown token).
LATE_WINDOW = timedelta(days=2)
#: At most this many entries per request, and this many unhandled entries per device.
MAX_PER_REQUEST = 50
MAX_OPEN_PER_DEVICE = 300
#: The size of one entry's payload, as JSON text.
MAX_PAYLOAD_CHARS = 20_000
MAX_KEY_LENGTH = 100


class DeviceUnknown(DomainError):
    """No device ever held this token, or it was revoked too long ago (401)."""

    status_code = 401
    default_code = "device_unknown"


def late_device(token: str) -> Device | None:
    """The device that holds (or held) ``token``: active, or revoked within ``LATE_WINDOW``."""
    if not token or len(token) > 200:
        return None
    device = Device.objects.select_related("tournament").filter(token_digest=digest(token)).first()
    if device is None:
        return None
    if device.revoked_at is not None and timezone.now() - device.revoked_at > LATE_WINDOW:
        return None
    return device


def _clean(entry: Any, index: int) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise ValidationFailed("late_hand_invalid", "Each late entry is an object.", fields={f"hands[{index}]": "an object"})
    key = entry.get("key")
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise ValidationFailed("late_hand_invalid", f"Each late entry needs its key (1 to {MAX_KEY_LENGTH} characters).",
                               fields={f"hands[{index}].key": "the queued entry's Idempotency-Key"})
    payload = entry.get("payload")
    if not isinstance(payload, Mapping):
        raise ValidationFailed("late_hand_invalid", "Each late entry carries the queued request as its payload.",
                               fields={f"hands[{index}].payload": "an object"})
    if len(json.dumps(payload)) > MAX_PAYLOAD_CHARS:
        raise ValidationFailed("late_hand_invalid", "A late entry is too large.", fields={f"hands[{index}].payload": "too large"})
    board = entry.get("board")
    if board is not None and (isinstance(board, bool) or not isinstance(board, int)):
        raise ValidationFailed("late_hand_invalid", "A late entry's board is a board id.",
                               fields={f"hands[{index}].board": "a board id or null"})
    reason = entry.get("reason") or ""
    if not isinstance(reason, str):
        reason = str(reason)
    return {"key": key.strip(), "payload": dict(payload), "board": board, "reason": reason[:300]}


def late_hand_submit(*, token: str, entries: Iterable[Any]) -> tuple[Device, list[LateHand], list[str]]:
    """Store the entries a tablet could not send, once per table and key (any token of the table: a tablet
    paired again keeps its keys); returns the device, the rows
    (those stored before included, so a resend is answered the same) and the keys that are **already on
    the server**: a write this device made under that key went through (its answer was lost on the way
    back; under this token or an earlier one of the table), so it is not stored again as a late hand.

    The board is kept only when it is a board of the device's own table in its tournament (else null: the
    payload still says what the tablet meant). Refusals: 401 ``device_unknown``; 400 ``late_hand_invalid``;
    409 ``late_hands_full`` (too many unhandled entries from this device).
    """
    device = late_device(token)
    if device is None:
        raise DeviceUnknown("device_unknown", "This tablet's token is not known here; ask the organiser.")
    items = list(entries) if not isinstance(entries, (str, bytes, Mapping)) else None
    if items is None or not items:
        raise ValidationFailed("late_hand_invalid", "Send a list of late entries.", fields={"hands": "a non-empty list"})
    if len(items) > MAX_PER_REQUEST:
        raise ValidationFailed("late_hand_invalid", f"At most {MAX_PER_REQUEST} late entries at a time.",
                               fields={"hands": f"at most {MAX_PER_REQUEST}"})
    cleaned = [_clean(e, i) for i, e in enumerate(items)]
    boards = {b for b in (c["board"] for c in cleaned) if b is not None}
    own = set(
        Board.objects.filter(pk__in=boards, round__tournament_id=device.tournament_id, table=device.table)
        .values_list("pk", flat=True)
    )
    rows: list[LateHand] = []
    already = set(  # per table, as the tablet's writes (a tablet paired again keeps its keys)
        table_records(device).filter(key__in=[c["key"] for c in cleaned]).values_list("key", flat=True)
    )
    cleaned = [c for c in cleaned if c["key"] not in already]
    with transaction.atomic():
        Device.objects.select_for_update().filter(pk=device.pk).first()  # one tablet's posts one after another
        known = {row.key: row for row in LateHand.objects.filter(  # filed by any token of this table
            tournament_id=device.tournament_id, device__table=device.table, key__in=[c["key"] for c in cleaned])}
        fresh = [c for c in cleaned if c["key"] not in known]
        open_count = LateHand.objects.filter(device=device, handled_at__isnull=True).count()
        if fresh and open_count + len(fresh) > MAX_OPEN_PER_DEVICE:
            raise Conflict("late_hands_full", "This tablet has too many late entries waiting; call the organiser.")
        for c in cleaned:
            if c["key"] in known:
                rows.append(known[c["key"]])
                continue
            try:
                with transaction.atomic():
                    row = LateHand.objects.create(
                        tournament_id=device.tournament_id, device=device, key=c["key"], payload=c["payload"],
                        board_id=c["board"] if c["board"] in own else None, reason=c["reason"],
                    )
            except IntegrityError:  # the same key from a concurrent post of the same tablet
                row = LateHand.objects.get(device=device, key=c["key"])
            else:
                audit_record(action="late_hand.submit", obj=row, tournament_id=device.tournament_id, device=device,
                             after={"key": row.key, "board": row.board_id, "reason": row.reason,
                                    "kind": row.payload.get("kind")})
            known[c["key"]] = row
            rows.append(row)
    return device, rows, sorted(already)


def late_hand_handle(*, late_hand: LateHand, user: Actor, handled: bool = True) -> LateHand:
    """The organiser marks a late entry handled (or not handled again); 403 for anyone else."""
    with transaction.atomic():
        row = LateHand.objects.select_for_update().get(pk=late_hand.pk)
        require_organiser(user, row.tournament_id)
        before = row.handled_at
        if handled and row.handled_at is None:
            row.handled_at, row.handled_by = timezone.now(), actor(user)
        elif not handled and row.handled_at is not None:
            row.handled_at, row.handled_by = None, None
        else:
            return row
        row.save(update_fields=["handled_at", "handled_by"])
        audit_record(action="late_hand.handle", obj=row, tournament_id=row.tournament_id, user=user,
                     before={"handled_at": before.isoformat() if before else None},
                     after={"handled_at": row.handled_at.isoformat() if row.handled_at else None})
    return row
