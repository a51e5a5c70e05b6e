"""The engine's command line: ``python -m scoring score`` (the conformance contract).

Reads one game document (JSON) on standard input and writes its result document on standard output,
exit status 0. An invalid document (malformed JSON included) writes the error object
``{"error": {"code", "path", "message"}}`` and exits 2; so does a usage error. Whatever the input,
never a traceback: an engine bug writes an ``internal_error`` object and exits 3.
"""

from __future__ import annotations

import gc
import json
import sys
from typing import Any, NoReturn

from .errors import InvalidHand, describe
from .game import score_game

USAGE = "usage: python -m scoring score  < game.json  (reads a game document, writes its result)"


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


class _RepeatedName(ValueError):
    """A field name given twice in one object: the reader would keep one value and drop the other."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a name given twice (a second ``penalties`` must not silently replace
    the first, as docs/hand-format.md refuses unknown names for the same reason)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedName(f"The field name {describe(key)} appears twice in one object")
            seen.add(key)
    return out


def _fail(error: InvalidHand, status: int = 2) -> int:
    sys.stdout.write(json.dumps(error.to_dict()) + "\n")
    return status


def run_score(data: bytes) -> tuple[int, str]:
    """Score one document given as bytes: (exit status, JSON text to print)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return 2, _error_text("bad_json", f"The input is not UTF-8 text (byte {exc.start})")
    try:
        doc: Any = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_object)
    except RecursionError:
        return 2, _error_text("bad_json", "The input is nested too deeply to be a game document")
    except _RepeatedName as exc:
        return 2, _error_text("bad_json", str(exc))
    except ValueError as exc:  # JSONDecodeError, huge integers, NaN and Infinity
        return 2, _error_text("bad_json", f"The input is not valid JSON: {str(exc)[:200]}")
    try:
        result = score_game(doc)
    except InvalidHand as error:
        return 2, json.dumps(error.to_dict())
    except RecursionError:
        return 2, _error_text("bad_json", "The input is nested too deeply to be a game document")
    return 0, json.dumps(result)


def _error_text(code: str, message: str) -> str:
    return json.dumps(InvalidHand(code, "", message).to_dict())


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["score"]:
        sys.stderr.write(USAGE + "\n")
        sys.stdout.write(_error_text("usage", USAGE) + "\n")
        return 2
    # one document per process, whose values hold no reference cycles: the cyclic collector would only
    # rescan the parsed document again and again while a large one is read (three times slower at 50 MB)
    gc.disable()
    try:
        status, out = run_score(sys.stdin.buffer.read())
    except MemoryError:
        status, out = 2, _error_text("too_large", "The input is too large to read")
    except Exception as exc:  # an engine bug: still no traceback, and a distinct status
        status, out = 3, _error_text("internal_error", f"The engine failed on this input ({type(exc).__name__}); "
                                     "please report it with the document")
    sys.stdout.write(out + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
