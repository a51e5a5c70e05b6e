"""The registry's one error: a stable ``code``, a sentence a person understands, and the ``path`` of the
field it is about (``tiebreaks[2]``, ``bye_policy.bullseyes.for.value``).

The registry is pure (no Django): services turn a ``FormatError`` into their ``ValidationFailed`` with
``fields={path: message}``, so the API's one error shape names the field and says why.
"""

from __future__ import annotations


class FormatError(ValueError):
    """A setting the registry refuses: ``code``, ``message`` and the ``path`` of the field."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path

    def at(self, prefix: str) -> FormatError:
        """The same error with its path inside ``prefix`` (``n`` inside ``match_format``)."""
        path = f"{prefix}.{self.path}" if self.path and not self.path.startswith("[") else f"{prefix}{self.path}"
        return FormatError(self.code, self.message, path)

    def __repr__(self) -> str:
        return f"FormatError({self.code!r}, {self.message!r}, {self.path!r})"


def whole(value: object, low: int, high: int, path: str, what: str) -> int:
    """``value`` as an int from ``low`` to ``high``, or ``FormatError`` (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FormatError("out_of_range", f"{what} is a whole number from {low} to {high}.", path)
    return value
