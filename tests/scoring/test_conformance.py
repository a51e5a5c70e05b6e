"""The public conformance cases (a copy of ../shared/conformance/cases.json in data/), compared exactly
as ``../shared/conformance/run`` compares them, through the command line's own code in-process; and the
shared runner itself against ``python -m scoring score`` when ../shared is there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.__main__ import run_score

DATA = Path(__file__).with_name("data") / "conformance_cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text())
ROOT = Path(__file__).resolve().parents[2]
SHARED_RUNNER = ROOT.parent / "shared" / "conformance" / "run"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conformance_case(case: dict[str, Any]) -> None:
    status, text = run_score(json.dumps(case["input"]).encode())
    out = json.loads(text)
    expect = case["expect"]
    if expect.get("error"):
        assert status == 2
        assert isinstance(out, dict) and set(out) == {"error"}
        assert set(out["error"]) == {"code", "path", "message"}
        return
    assert status == 0, out
    assert out["score"] == expect["score"]
    assert out["winner"] == expect["winner"]
    if "next_dealer" in expect:
        assert [h["next_dealer"] for h in out["hands"]] == expect["next_dealer"]
    got = [[[e["kind"], e["side"], e["points"]] for e in h["events"]] for h in out["hands"]]
    assert got == expect["events"]


def test_the_copy_of_the_cases_matches_the_shared_file() -> None:
    shared = SHARED_RUNNER.with_name("cases.json")
    if not shared.exists():
        pytest.skip("../shared/conformance is not here")
    assert json.loads(shared.read_text()) == CASES


@pytest.mark.slow
def test_the_shared_conformance_runner_passes() -> None:
    if not SHARED_RUNNER.exists():
        pytest.skip("../shared/conformance/run is not here")
    env = dict(os.environ, ALLFOURS_SCORE=f"{sys.executable} -m scoring score")
    run = subprocess.run([sys.executable, str(SHARED_RUNNER)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " 0 failed" in run.stdout
