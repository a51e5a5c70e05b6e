"""The one exception family of the domain (services and selectors raise it; the API maps it to HTTP).

Every refusal is a ``DomainError`` with a stable ``code`` (snake_case, documented in docs/services.md), a
sentence a person understands, and optionally ``fields`` (path -> message, for validation errors) and
``current`` (the board's current state, for 409 and 412). The subclass says what kind of refusal it is;
the API maps classes to HTTP statuses in one place (``status_code`` is the class's HTTP meaning, DRF
style, so that mapping can read it; services never pick numbers themselves).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DomainError(Exception):
    """A refused operation: ``code``, ``message``, optional ``fields`` and ``current``."""

    status_code = 400
    default_code = "domain_error"

    def __init__(
        self,
        code: str | None = None,
        message: str = "",
        *,
        fields: Mapping[str, str] | None = None,
        current: Mapping[str, Any] | None = None,
    ) -> None:
        self.code = code or self.default_code
        self.message = message or self.code.replace("_", " ").capitalize()
        self.fields = dict(fields) if fields else None
        self.current = dict(current) if current is not None else None
        super().__init__(self.message)

    def to_dict(self) -> dict[str, Any]:
        """The API's error body: ``{"error": {"code", "message", "fields"?, "current"?}}``."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields is not None:
            body["fields"] = self.fields
        if self.current is not None:
            body["current"] = self.current
        return {"error": body}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ValidationFailed(DomainError):
    """The request is malformed or the engine refused the hand (400, with ``fields``)."""

    status_code = 400
    default_code = "invalid"


class NotAllowed(DomainError):
    """The caller may not act on this object: another table's board, not an organiser (403)."""

    status_code = 403
    default_code = "not_allowed"


class NotFound(DomainError):
    """The object named does not exist, or not where the request says (404)."""

    status_code = 404
    default_code = "not_found"


class Conflict(DomainError):
    """The board has moved on: a taken hand number, a finished game, a stale board (409, with ``current``)."""

    status_code = 409
    default_code = "conflict"


class PreconditionFailed(DomainError):
    """The version the caller saw is no longer the current one (412 stale_version, with ``current``)."""

    status_code = 412
    default_code = "stale_version"


class PreconditionRequired(DomainError):
    """The write needs a version (If-Match) or a key it did not send (428)."""

    status_code = 428
    default_code = "precondition_required"


class IdempotencyKeyReused(DomainError):
    """The Idempotency-Key was already used for a different request (422)."""

    status_code = 422
    default_code = "idempotency_key_reused"


def from_invalid_hand(exc: Any, *, prefix: str = "hand") -> ValidationFailed:
    """An engine ``InvalidHand`` as a ``ValidationFailed``: same code, one field, its path inside the hand
    prefixed with ``hand.`` (``low.card`` -> ``hand.low.card``)."""
    path = str(getattr(exc, "path", "") or "")
    if path == prefix or path.startswith((prefix + ".", prefix + "[")) or path.startswith("rules"):
        field = path
    else:
        field = f"{prefix}.{path}" if path else prefix
    message = str(getattr(exc, "message", "") or exc)
    return ValidationFailed(str(getattr(exc, "code", "invalid_hand")), message, fields={field: message})


__all__ = [
    "Conflict", "DomainError", "IdempotencyKeyReused", "NotAllowed", "NotFound", "PreconditionFailed",
    "PreconditionRequired", "ValidationFailed", "from_invalid_hand",
]
