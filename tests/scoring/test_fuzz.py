"""Whatever the input, the engine answers with a result or an ``InvalidHand``, never another exception;
the command line always exits 0 or 2 with a JSON object, never a traceback (hypothesis)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import InvalidHand, score_game
from scoring.__main__ import run_score

CASES = json.loads((Path(__file__).with_name("data") / "conformance_cases.json").read_text())
VALID_DOCS = [c["input"] for c in CASES if not c["expect"].get("error")]
ROOT = Path(__file__).resolve().parents[2]

WORDS = ["dealer", "kicks", "beg", "high", "low", "jack", "game", "penalties", "abandoned", "misdeal", "side",
         "card", "held_by", "won_by", "kind", "deal", "runs", "discards", "tricks", "rules", "score", "hand",
         "hands", "preset", "stand", "give", "run", "revoke", "trump_revoke", "undertrump", "AS", "10H", "th",
         "JD", "2C", "trinidad", "english", "seven-up", "players", "target", "renege", "low", "captured"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-5, max_value=20), st.integers(), st.floats(allow_nan=False),
    st.sampled_from(WORDS), st.text(max_size=6),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), children,
                                               max_size=5)),
    max_leaves=25,
)


def _answer(document: Any) -> None:
    try:
        result = score_game(document)
    except InvalidHand as error:
        assert isinstance(error.code, str) and error.code
        assert isinstance(error.path, str)
        assert isinstance(error.message, str) and error.message
        json.dumps(error.to_dict())
    else:
        json.dumps(result)
        assert set(result) == {"score", "winner", "hands"}


@st.composite
def mutated_documents(draw: st.DrawFn) -> Any:
    """A valid document (a conformance case) with one place changed: a value replaced, a key removed
    or a key added, somewhere in its tree."""
    document = copy.deepcopy(draw(st.sampled_from(VALID_DOCS)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        node: Any = document
        while True:
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                key = draw(st.integers(min_value=0, max_value=len(node) - 1))
            else:
                break
            child = node[key]
            if isinstance(child, dict | list) and child and draw(st.booleans()):
                node = child
                continue
            action = draw(st.sampled_from(["replace", "delete", "add"]))
            if action == "replace":
                node[key] = draw(json_values)
            elif action == "delete":
                del node[key]
            elif isinstance(node, dict):
                node[draw(st.sampled_from(WORDS))] = draw(json_values)
            else:
                node.insert(key, draw(json_values))
            break
    return document


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value_is_scored_or_refused(document):
    _answer(document)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({}, optional={"rules": json_values, "score": json_values, "hand": json_values,
                                           "hands": st.lists(json_values, max_size=3)}))
def test_any_document_shaped_value_is_scored_or_refused(document):
    _answer(document)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
def test_a_valid_document_changed_anywhere_is_scored_or_refused(document):
    _answer(document)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode()),
                 mutated_documents().map(lambda d: json.dumps(d).encode())))
def test_the_command_line_code_answers_any_bytes_with_0_or_2(data):
    status, text = run_score(data)
    out = json.loads(text)
    assert (status, "error" in out) in ((0, False), (2, True))


def _cli(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=data, capture_output=True, cwd=ROOT,
                          timeout=60)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.one_of(st.binary(max_size=100), mutated_documents().map(lambda d: json.dumps(d).encode())))
def test_the_command_line_never_prints_a_traceback(data):
    run = _cli(data, "score")
    assert run.returncode in (0, 2), run.stderr
    assert b"Traceback" not in run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert ("error" in out) == (run.returncode == 2)


@pytest.mark.parametrize(
    "data",
    [b"", b"{", b"\xff\xfe\x00", b"[" * 100000, b'{"hand": ' * 50000, b"NaN", b'{"score": [1e999, 0], "hand": {}}',
     b'{"hands": [' + b"1" * 5000 + b"]}", ("\ufeff" + json.dumps(VALID_DOCS[0])).encode(),
     json.dumps({"rules": {"kick_points": [[[[[]]]]] * 3}, "hand": {}}).encode()],
    ids=["empty", "truncated", "not utf-8", "deep lists", "deep objects", "NaN", "infinity", "huge int", "BOM",
         "nested rules"],
)
def test_the_command_line_on_hostile_input(data):
    run = _cli(data, "score")
    assert b"Traceback" not in run.stderr
    out = json.loads(run.stdout)
    if data.startswith("\ufeff".encode()):
        assert run.returncode == 0 and "score" in out
    else:
        assert run.returncode == 2 and set(out["error"]) == {"code", "path", "message"}


def test_the_command_line_scores_a_document():
    run = _cli(json.dumps(VALID_DOCS[0]).encode(), "score")
    assert run.returncode == 0 and json.loads(run.stdout)["score"] == [3, 1]


def test_the_command_line_error_object():
    bad = {"hand": {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "9S"},
                    "low": {"side": 1, "card": "2H"}, "jack": None, "game": [1, 2]}}
    run = _cli(json.dumps(bad).encode(), "score")
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"]["path"] == "hand.high.card"


@pytest.mark.parametrize("args", [(), ("scroe",), ("score", "x.json"), ("--help",)])
def test_usage_errors_exit_2_with_a_message(args):
    run = _cli(b"{}", *args)
    assert run.returncode == 2 and b"usage" in run.stderr and b"Traceback" not in run.stderr


def test_a_huge_valid_document_is_scored():
    # 20,000 misdeals by alternating dealers (misdeal_passes_deal), 1 point to the other side each
    document = {"rules": {"target": 10**6, "misdeal_passes_deal": True, "players": 2, "preset": "english"},
                "hands": [{"dealer": i % 2, "misdeal": True} for i in range(20000)]}
    run = _cli(json.dumps(document).encode(), "score")
    assert run.returncode == 0
    assert json.loads(run.stdout)["score"] == [10000, 10000]


@pytest.mark.parametrize(("data", "why"), [(b"{", "not valid JSON"), (b"\xff", "not UTF-8"), (b"[" * 100000, "deeply"),
                                           (b"[NaN]", "not valid JSON"), (b"1" * 5000, "not valid JSON")])
def test_input_that_is_not_json_is_bad_json(data, why):
    status, text = run_score(data)
    error = json.loads(text)["error"]
    assert status == 2 and error["code"] == "bad_json" and why in error["message"] and error["path"] == ""


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)


def test_input_too_large_for_memory_is_too_large(monkeypatch, capsys):
    import scoring.__main__ as cli

    def explode(data):
        raise MemoryError

    monkeypatch.setattr(cli, "run_score", explode)
    monkeypatch.setattr(cli.sys, "stdin", _Stdin(b"{}"))
    assert cli.main(["score"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "too_large"


def test_an_engine_bug_is_internal_error_with_status_3_and_no_traceback(monkeypatch, capsys):
    import scoring.__main__ as cli

    def bug(data):
        raise KeyError("oops")

    monkeypatch.setattr(cli, "run_score", bug)
    monkeypatch.setattr(cli.sys, "stdin", _Stdin(b"{}"))
    assert cli.main(["score"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["code"] == "internal_error" and "Traceback" not in out + err


def test_usage_error_code(capsys):
    from scoring.__main__ import main

    assert main([]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "usage"
