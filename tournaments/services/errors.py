"""The services' refusals: the domain's one exception family, defined in ``tournaments/errors.py`` (below
services and selectors alike) and re-exported here for the services' own imports."""

from tournaments.errors import (
    Conflict,
    DomainError,
    IdempotencyKeyReused,
    NotAllowed,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
    from_invalid_hand,
)

__all__ = [
    "Conflict", "DomainError", "IdempotencyKeyReused", "NotAllowed", "NotFound", "PreconditionFailed",
    "PreconditionRequired", "ValidationFailed", "from_invalid_hand",
]
