"""Request body parsers that refuse what would otherwise reach the database as a 500.

``SafeJSONParser``: JSON only, at most ``MAX_BODY_BYTES``, strict (no NaN), no NUL characters anywhere
(PostgreSQL cannot store them) nor lone surrogates, nesting kept shallow. ``CSVParser`` reads ``text/csv`` for pair imports.
"""

from __future__ import annotations

import json
import math
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from .errors import PayloadTooLarge

MAX_BODY_BYTES = 256 * 1024
MAX_DEPTH = 20


def _content_length(parser_context: dict[str, Any] | None) -> int:
    request = (parser_context or {}).get("request")
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except (TypeError, ValueError):
        return 0


def _read_limited(stream: Any, parser_context: dict[str, Any] | None) -> bytes:
    if _content_length(parser_context) > MAX_BODY_BYTES:
        raise PayloadTooLarge()
    data = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
    if len(data) > MAX_BODY_BYTES:
        raise PayloadTooLarge()
    return bytes(data)


def check_clean(value: Any, depth: int = 0) -> None:
    """Refuse NUL characters, lone surrogates, infinite numbers and absurd nesting anywhere in a document."""
    if depth > MAX_DEPTH:
        raise ParseError("The JSON document is nested too deeply.")
    if isinstance(value, str):
        if "\x00" in value:
            raise ParseError("Text may not contain NUL characters.")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError("Text may not contain lone surrogate characters.") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise ParseError("Numbers must be finite.")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_clean(key, depth + 1)
            check_clean(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            check_clean(item, depth + 1)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class SafeJSONParser(JSONParser):
    """application/json, size-limited, strict and NUL-free."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        raw = _read_limited(stream, parser_context)
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError("The body is not valid JSON.") from exc
        check_clean(data)
        return data


class CSVParser(BaseParser):
    """text/csv as one string (UTF-8, a leading BOM dropped), for the pair import."""

    media_type = "text/csv"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> str:
        raw = _read_limited(stream, parser_context)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError("The CSV must be UTF-8 text.") from exc
        if "\x00" in text:
            raise ParseError("Text may not contain NUL characters.")
        return text
