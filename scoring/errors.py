"""The engine's one error type: a hand record, game document or rule set that cannot be scored.

Every check has one stable ``code`` (listed in docs/engine.md), the JSON ``path`` of the offending
field (``hands[2].low.card``) and a sentence a scorer understands.
"""

from __future__ import annotations

from typing import Any


class InvalidHand(ValueError):
    """A document the rules make impossible or that is malformed.

    ``code`` names the check (``low_above_high``), ``path`` the field at fault and ``message`` says why
    in plain words.
    """

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.path = path
        self.message = message

    def to_dict(self) -> dict[str, Any]:
        """The error object of HAND_FORMAT.md: ``{"error": {"code", "path", "message"}}``."""
        return {"error": {"code": self.code, "path": self.path, "message": self.message}}

    def __repr__(self) -> str:
        return f"InvalidHand({self.code!r}, {self.path!r}, {self.message!r})"


def join_path(base: str, key: str | int) -> str:
    """Extend a JSON path: ``join_path("hands[2]", "low")`` is ``hands[2].low``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key
