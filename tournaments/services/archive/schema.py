"""The archive's shape: reading a document and checking it against docs/schemas/archive-v1.schema.json.

The schema refers to the hand format's own schema (api/schemas/hand-format-v1.schema.json) for each hand's
record; both files are read once. A refusal is ``ValidationFailed`` with one field: the JSON path of the
first fault (``hands[12].record.kicks``) and the validator's sentence.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

from django.conf import settings
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from ..errors import ValidationFailed

#: Where the schemas live in the repository (the hand format's is the API's own copy).
SCHEMA_FILE = Path(settings.BASE_DIR) / "docs" / "schemas" / "archive-v1.schema.json"
HAND_SCHEMA_FILE = Path(settings.BASE_DIR) / "api" / "schemas" / "hand-format-v1.schema.json"
#: The largest archive read (bytes): a season of hands with every card is a few megabytes.
MAX_ARCHIVE_BYTES = 32 * 1024 * 1024


def _registry() -> Registry:
    hand = json.loads(HAND_SCHEMA_FILE.read_text(encoding="utf-8"))
    return Registry().with_resource(hand["$id"], Resource.from_contents(hand))


@functools.cache
def _validator() -> Draft202012Validator:
    """The archive's schema as published (each hand's record checked against the hand format's schema)."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry())


@functools.cache
def _import_validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    """The same checks, faster: the archive without its records (the engine reads every live record when it
    replays them, and refuses what the schema would), and the hand format's schema for the other records."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    schema["$defs"]["hand"]["properties"]["record"] = {"type": "object"}
    schema = _inline(schema, schema["$defs"])
    record = {"$ref": "hand-format-v1.schema.json#/$defs/hand"}
    return Draft202012Validator(schema, registry=_registry()), Draft202012Validator(record, registry=_registry())


#: Definitions small enough to copy where they are used (a ``$ref`` costs a lookup on every value checked).
_INLINE = ("id", "ref", "datetime", "datetime_or_null", "date_or_null", "count", "two_counts", "side_or_null", "seat",
           "by")


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/<small>"}`` replaced by the definition itself."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in _INLINE and len(node) == 1:
            return _inline(defs[ref[8:]], defs)
        return {key: _inline(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(value, defs) for value in node]
    return node


def archive_schema() -> dict[str, Any]:
    """The archive's JSON Schema as a dict."""
    return dict(_validator().schema)


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def archive_validate(document: Any) -> None:
    """Refuse (400 ``archive_invalid``) a document that does not have the archive's shape, naming the first
    fault's path; a document of another format or version is ``archive_format`` / ``archive_version``."""
    if not isinstance(document, dict):
        raise ValidationFailed("archive_invalid", "An archive is one JSON object.", fields={"": "a JSON object"})
    if document.get("format") != "hangjack-archive":
        text = "Not a Hang Jack archive: its \"format\" must be \"hangjack-archive\"."
        raise ValidationFailed("archive_format", text, fields={"format": text})
    if document.get("version") != 1:
        text = f"This server reads archive version 1, not {document.get('version')!r}."
        raise ValidationFailed("archive_version", text, fields={"version": text})
    shape, record = _import_validators()
    error = best_match(shape.iter_errors(document))
    where = _path(error.absolute_path) if error is not None else ""
    if error is None:  # the records of voided and superseded versions, which no replay reads
        for i, hand in enumerate(document.get("hands") or []):
            if isinstance(hand, dict) and hand.get("status") != "active":
                error = best_match(record.iter_errors(hand.get("record")))
                if error is not None:
                    where = _path(["hands", i, "record", *error.absolute_path])
                    break
    if error is not None:
        # A hand record that fits none of the forms: name the record, the engine says why when it replays.
        text = error.message if len(error.message) <= 200 else error.message[:197] + "..."
        raise ValidationFailed("archive_invalid", f"The archive does not have the expected shape at "
                               f"{where or 'its top level'}: {text}", fields={where: text})


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def archive_load(raw: bytes | str) -> Any:
    """Parse an archive file (UTF-8 JSON, strict: no NaN or Infinity), refusing 400 ``archive_not_json`` or
    ``archive_too_large``. Does not check the shape (``archive_validate`` does)."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_ARCHIVE_BYTES:
        text = f"An archive may be at most {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB."
        raise ValidationFailed("archive_too_large", text, fields={"file": text})
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = json.loads(text, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        message = "The file is not a JSON document (an archive is the .json file an export gives)."
        raise ValidationFailed("archive_not_json", message, fields={"file": message}) from None
    _check_clean(document)
    return document


def _check_clean(value: Any, depth: int = 0) -> None:
    """No NUL characters (PostgreSQL cannot store them), no infinite numbers, no absurd nesting."""
    if depth > 40:
        raise ValidationFailed("archive_not_json", "The archive is nested too deeply.")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValidationFailed("archive_invalid", "Text in an archive may not contain NUL characters.")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValidationFailed("archive_invalid", "Text in an archive may not hold lone surrogates.") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValidationFailed("archive_invalid", "Numbers in an archive must be finite.")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_clean(key, depth + 1)
            _check_clean(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_clean(item, depth + 1)


__all__ = ["MAX_ARCHIVE_BYTES", "archive_load", "archive_schema", "archive_validate"]
