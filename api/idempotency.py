"""HTTP glue for idempotent tablet writes (docs/decisions.md): the ``Idempotency-Key`` header, the replay
answered before rate limiting, and ``services.idempotency.idempotent_outcome`` around the write.

A missing key is 400; the same key with the same body returns the stored answer (with
``Idempotent-Replayed: true``); the same key with another body is 422 (the service's
``IdempotencyKeyReused``). Only successful answers are stored, so a refused write may be fixed and sent
again under the same key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Device
from tournaments.services.idempotency import MAX_KEY_LENGTH, idempotent_outcome, table_records

HEADER = "Idempotency-Key"
#: Visible ASCII only: what a UUID, a ULID or any sane client key is made of.
KEY_PATTERN = re.compile(rf"^[\x21-\x7e]{{1,{MAX_KEY_LENGTH}}}$")
REPLAYED_HEADER = "Idempotent-Replayed"


def idempotency_key(request: Request) -> str:
    """The request's key, or 400 when it is missing or malformed."""
    key = request.headers.get(HEADER, "").strip()
    if not key:
        raise ValidationError(
            {HEADER: "Every tablet write needs an Idempotency-Key header (a fresh UUID per write)."},
            code="idempotency_key_required",
        )
    if not KEY_PATTERN.match(key):
        raise ValidationError(
            {HEADER: f"1 to {MAX_KEY_LENGTH} visible ASCII characters."}, code="idempotency_key_invalid"
        )
    return key


def is_known_key(request: Request, device: Device | None) -> bool:
    """Whether this device (or another device of its table, before it was paired again) already used the
    request's key: such a request is answered from the stored record (or refused with 422) before any
    rate limit applies."""
    key = request.headers.get(HEADER, "").strip()
    if device is None or not key or not KEY_PATTERN.match(key):
        return False
    return table_records(device).filter(key=key).exists()


def idempotent_response(
    request: Request, device: Device, write: Callable[[], tuple[int, dict[str, Any]]]
) -> Response:
    """Run ``write`` (returning status and JSON body) at most once per table and key. Every stored answer
    says ``Idempotent-Replayed: true``, also the one a request gets when its own write lost a race with
    the same key (it ran, was refused or rolled back, and the winner's answer is returned)."""
    key = idempotency_key(request)
    outcome = idempotent_outcome(
        device=device, key=key, method=request.method or "POST", path=request.path, body=request.data, call=write
    )
    response = Response(outcome.body, status=outcome.status)
    if outcome.replayed:
        response[REPLAYED_HEADER] = "true"
    return response


class IdempotentWriteMixin:
    """For tablet write views: a request whose key this device already used is never refused by a rate
    limit (it is answered from the stored record, or refused with 422). The record is looked up only
    when a limit would refuse, so the usual write pays no extra query; such a replay still counts
    toward the device's budget."""

    def check_throttles(self, request: Request) -> None:
        try:
            super().check_throttles(request)  # type: ignore[misc]
        except Throttled:
            device = request.auth if isinstance(request.auth, Device) else None
            if not is_known_key(request, device):
                raise
