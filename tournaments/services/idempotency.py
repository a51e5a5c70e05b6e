"""Idempotent tablet writes (docs/decisions.md): one answer per table and Idempotency-Key.

A key is looked up among the records of every device of the same table in the tournament, so a tablet paired again replays what its old token stored instead of writing twice.

``idempotent_outcome`` answers a known key from the stored record (same request hash) or refuses it
(``IdempotencyKeyReused``, another request hash). Otherwise it runs the write and, in the *same*
transaction, inserts the record of a successful answer; refusals are not stored, so a fixed request may be
sent again under the same key. Two concurrent requests with one key resolve by the unique constraint on
(device, key): the loser's whole transaction (its write included) rolls back and it replays the winner's
answer, never a 500 and never two writes. Its outcome says ``replayed`` like any other replay (the API's
``Idempotent-Replayed: true``), although its own write ran first (issue 11 item 12).
``idempotent_call`` is the same, answering ``(status, body)`` only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from tournaments.models import Device, IdempotencyRecord

from .errors import DomainError, IdempotencyKeyReused, PreconditionRequired, ValidationFailed

MAX_KEY_LENGTH = 100


def request_fingerprint(method: str, path: str, body: Any) -> str:
    """SHA-256 of the method, the path and the canonical JSON body (sorted keys, no spaces)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(f"{method.upper()}\n{path}\n{canonical}".encode()).hexdigest()


def table_records(device: Device) -> QuerySet[IdempotencyRecord]:
    """The stored answers of every device that scored this device's table in its tournament: a tablet
    paired again (a new token, the old one revoked) sends its queue under the keys it already had, and
    an entry the old token stored is the same write (issue 16)."""
    return IdempotencyRecord.objects.filter(device__tournament_id=device.tournament_id, device__table=device.table)


def _stored(device: Device, key: str) -> IdempotencyRecord | None:
    return table_records(device).filter(key=key).order_by("pk").first()


def _replay(record: IdempotencyRecord, request_hash: str) -> tuple[int, dict[str, Any]]:
    if record.request_hash != request_hash:
        raise IdempotencyKeyReused(
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different request; send a new key.",
        )
    return record.status_code, record.response


@dataclass(frozen=True)
class IdempotentOutcome:
    """The answer to an idempotent write: ``replayed`` when it is the stored answer of an earlier request
    with the same key, including one that committed while this request's own write was running."""

    status: int
    body: dict[str, Any]
    replayed: bool


def idempotent_call(
    *,
    device: Device,
    key: str,
    method: str,
    path: str,
    body: Any,
    call: Callable[[], tuple[int, dict[str, Any]]],
) -> tuple[int, dict[str, Any]]:
    """Run ``call`` at most once per (device, key); replay its stored answer for a retry."""
    outcome = idempotent_outcome(device=device, key=key, method=method, path=path, body=body, call=call)
    return outcome.status, outcome.body


def idempotent_outcome(
    *,
    device: Device,
    key: str,
    method: str,
    path: str,
    body: Any,
    call: Callable[[], tuple[int, dict[str, Any]]],
) -> IdempotentOutcome:
    """``idempotent_call``, saying whether the answer is a replay."""
    if not key:
        raise PreconditionRequired("idempotency_key_required", "Every tablet write needs an Idempotency-Key header.")
    if len(key) > MAX_KEY_LENGTH:
        raise ValidationFailed(
            "idempotency_key_invalid",
            f"The Idempotency-Key may be at most {MAX_KEY_LENGTH} characters.",
            fields={"Idempotency-Key": f"at most {MAX_KEY_LENGTH} characters"},
        )
    request_hash = request_fingerprint(method, path, body)
    record = _stored(device, key)
    if record is not None:
        return IdempotentOutcome(*_replay(record, request_hash), replayed=True)
    try:
        with transaction.atomic():
            status, payload = call()
            if 200 <= status < 300:
                IdempotencyRecord.objects.create(
                    device=device, key=key, request_hash=request_hash, status_code=status, response=payload
                )
    except IntegrityError:
        # A concurrent request with this key committed first: our write is rolled back with the record.
        record = _stored(device, key)
        if record is None:
            raise
        return IdempotentOutcome(*_replay(record, request_hash), replayed=True)
    except DomainError:
        # Refused (e.g. hand_number_taken because the same request won a race): the winner's stored
        # answer, if any, is the answer to this retry.
        record = _stored(device, key)
        if record is None:
            raise
        return IdempotentOutcome(*_replay(record, request_hash), replayed=True)
    return IdempotentOutcome(status, payload, replayed=False)
