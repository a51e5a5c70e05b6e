"""Audit: ``python -m scoring score`` on odd input (docs/hand-format.md "The command line" and "Errors").

Whatever arrives on standard input, the command writes one JSON object and exits 0 (a result) or 2
(``{"error": {"code", "path", "message"}}``): never a traceback, never exit 1 or 3. Every case runs
through the command line's own code in-process (``run_score``: an exception there is what the command
turns into exit 3), a sample through the real command in a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.__main__ import run_score

ROOT = Path(__file__).resolve().parents[2]
PLAYED: dict[str, Any] = {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "AH"},
                          "low": {"side": 1, "card": "2H"}, "jack": None, "game": [21, 16]}
MISDEAL = '{"dealer": 0, "misdeal": true}'
BIG = "9" * 4300  # the longest integer Python's JSON reader accepts


def raw(text: str) -> bytes:
    """JSON text with MISDEAL, HUGE (10**400) and BIG (4300 nines) spelt out."""
    return text.replace("MISDEAL", MISDEAL).replace("HUGE", "1" + "0" * 400).replace("BIG", BIG).encode()


def run(data: bytes, *args: str) -> tuple[int, Any, bytes]:
    done = subprocess.run([sys.executable, "-m", "scoring", *(args or ("score",))], input=data, cwd=ROOT,
                          capture_output=True, timeout=120)
    return done.returncode, json.loads(done.stdout), done.stderr


def refused(data: bytes | str, *args: str) -> dict[str, Any]:
    status, out, stderr = run(data.encode() if isinstance(data, str) else data, *args)
    assert status == 2, (status, out)
    assert set(out) == {"error"} and set(out["error"]) == {"code", "path", "message"}, out
    assert b"Traceback" not in stderr
    return dict(out["error"])


ODD: list[Any] = [
    ("empty input", b""),
    ("only white space", b"  \n\t"),
    ("a JSON array", b"[]"),
    ("null", b"null"),
    ("a number", b"5"),
    ("a string", b'"trinidad"'),
    ("an empty object", b"{}"),
    ("not JSON", b"{hand: 1}"),
    ("trailing data", raw('{"hand": MISDEAL} x')),
    ("invalid UTF-8", b'{"hand": \xff}'),
    ("UTF-16 with its byte-order mark", '{"hand": MISDEAL}'.replace("MISDEAL", MISDEAL).encode("utf-16")),
    ("a score of 10**400", raw('{"score": [HUGE, 0], "hand": MISDEAL}')),
    ("a target of 10**400", raw('{"rules": {"target": HUGE}, "hand": MISDEAL}')),
    ("kick points of 10**400", raw('{"rules": {"kick_points": {"A": HUGE}}, "hand": MISDEAL}')),
    ("a dealer of 10**400", raw('{"hand": {"dealer": HUGE, "misdeal": true}}')),
    ("card points of 10**400", json.dumps({"hand": {**PLAYED, "game": [10**400, 0]}}).encode()),
    ("an integer of 5000 digits", raw('{"hand": {"dealer": 1' + "0" * 4999 + ', "misdeal": true}}')),
    ("the longest integers: a target and misdeal points whose sum is longer still",
     raw('{"rules": {"target": BIG, "misdeal_points": BIG}, "score": [8' + "0" * 4299 + ', 0], '
         '"hand": {"dealer": 1, "misdeal": true}}')),
    ("a float score", raw('{"score": [1.5, 0], "hand": MISDEAL}')),
    ("a whole float score", raw('{"score": [1.0, 0], "hand": MISDEAL}')),
    ("a float dealer", b'{"hand": {"dealer": 0.0, "misdeal": true}}'),
    ("1e400", raw('{"score": [1e400, 0], "hand": MISDEAL}')),
    ("NaN", raw('{"score": [NaN, 0], "hand": MISDEAL}')),
    ("Infinity", raw('{"score": [Infinity, 0], "hand": MISDEAL}')),
    ("-Infinity", raw('{"score": [-Infinity, 0], "hand": MISDEAL}')),
    ("arrays nested 100000 deep", b"[" * 100_000 + b"]" * 100_000),
    ("objects nested 100000 deep", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
    ("hands nested 100000 deep", b'{"hands":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    ("kick points nested 50000 deep",
     raw('{"rules": {"kick_points": ' + '{"A":' * 50_000 + "1" + "}" * 50_000 + '}, "hand": MISDEAL}')),
    ("a NUL in the preset", raw('{"rules": "trin\\u0000idad", "hand": MISDEAL}')),
    ("a NUL in a field name", raw('{"ru\\u0000les": "trinidad", "hand": MISDEAL}')),
    ("a NUL in a card", json.dumps({"hand": {**PLAYED, "kicks": ["9\x00H"]}}).encode()),
    ("a raw NUL byte", b'{"hand": {"dealer": 0, "misdeal": true}}\x00'),
    ("a lone surrogate in a card", b'{"hand": {"dealer": 0, "kicks": ["\\ud800"], "beg": "stand"}}'),
    ("a field name given twice", raw('{"hand": MISDEAL, "hand": {"dealer": 1, "misdeal": true}}')),
    ("penalties given twice in a hand",
     json.dumps({"hand": PLAYED}).replace('"game"', '"penalties": [{"kind": "revoke", "side": 0}], '
                                                    '"penalties": [], "game"').encode()),
    ("a 50 MB field name", lambda: json.dumps({"hand": PLAYED, "x" * 50_000_000: 1}).encode()),
    ("a 50 MB card", lambda: json.dumps({"hand": {**PLAYED, "kicks": ["9" * 50_000_000]}}).encode()),
]
THROUGH_THE_COMMAND = {"empty input", "a JSON array", "a target of 10**400", "NaN", "arrays nested 100000 deep",
                       "the longest integers: a target and misdeal points whose sum is longer still",
                       "a NUL in a card", "invalid UTF-8", "a field name given twice"}


def _bytes(data: Any) -> bytes:
    return data() if callable(data) else bytes(data)


@pytest.mark.parametrize(("name", "data"), ODD, ids=[c[0] for c in ODD])
def test_odd_input_is_refused_with_an_error_object(name: str, data: Any) -> None:
    status, text = run_score(_bytes(data))
    out = json.loads(text)
    assert status == 2, out
    assert set(out) == {"error"} and set(out["error"]) == {"code", "path", "message"}, out
    assert out["error"]["code"] != "internal_error"
    assert len(out["error"]["message"]) < 500 and len(out["error"]["path"]) < 500


@pytest.mark.parametrize(("name", "data"), [c for c in ODD if c[0] in THROUGH_THE_COMMAND],
                         ids=[c[0] for c in ODD if c[0] in THROUGH_THE_COMMAND])
def test_odd_input_through_the_command(name: str, data: Any) -> None:
    refused(_bytes(data))


@pytest.mark.slow
def test_a_50_mb_game_document_is_refused_at_its_first_fault() -> None:
    text = json.dumps({"hands": [PLAYED] * 300_000})  # every hand dealt by seat 0: hands[1] is at fault
    assert len(text) > 40_000_000
    assert refused(text) == {"code": "wrong_dealer", "path": "hands[1].dealer",
                             "message": "Seat 1 deals this hand, not seat 0"}


@pytest.mark.slow
def test_a_valid_10_mb_document_is_scored() -> None:
    many = {**PLAYED, "penalties": [{"kind": "revoke", "side": 1}] * 300_000}
    status, out, _ = run(json.dumps({"rules": {"revoke_points": 0}, "hand": many}).encode())
    assert status == 0 and out["score"] == [2, 1], out  # High 0, Low 1, Game 0: only side 1 is barred


@pytest.mark.parametrize("args", [(), ("scores",), ("score", "extra")])
def test_a_usage_error_is_exit_2_with_an_error_object(args: tuple[str, ...]) -> None:
    done = subprocess.run([sys.executable, "-m", "scoring", *args], input=b"{}", cwd=ROOT, capture_output=True,
                          timeout=60)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "usage"
