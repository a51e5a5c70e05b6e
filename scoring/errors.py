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
        """The error object of docs/hand-format.md: ``{"error": {"code", "path", "message"}}``."""
        return {"error": {"code": self.code, "path": self.path, "message": self.message}}

    def __repr__(self) -> str:
        return f"InvalidHand({self.code!r}, {self.path!r}, {self.message!r})"


def join_path(base: str, key: str | int) -> str:
    """Extend a JSON path: ``join_path("hands[2]", "low")`` is ``hands[2].low``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


def describe(value: object) -> str:
    """A short, safe rendering of a JSON value for a message: never huge, never recursive."""
    if isinstance(value, str):
        text = value if len(value) <= 24 else value[:21] + "..."
        return repr(text)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if -(10**24) < value < 10**24 else "a very large number"
        return text
    if isinstance(value, float):
        text = repr(value)
        return text if value == value and len(text) <= 24 else "a number"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def short_key(key: object) -> str:
    """A field name for a path or message, cut short if it is absurdly long."""
    text = key if isinstance(key, str) else repr(key)
    return text if len(text) <= 40 else text[:37] + "..."
