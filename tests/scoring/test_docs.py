"""Every error code the engine can raise is listed in docs/engine.md, and every code listed there
exists: one stable code per check, documented for the tablet and the API."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "engine.md").read_text()
ERROR_FACTORIES = {"InvalidHand", "_error_text"}


def raised_codes() -> dict[str, set[str]]:
    codes: dict[str, set[str]] = {}
    for path in sorted((ROOT / "scoring").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERROR_FACTORIES:
                first = node.args[0]
                if path.name == "__main__.py" and isinstance(first, ast.Name):
                    continue  # _error_text's own body: its callers pass literals
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno}: a code must be a literal"
                codes.setdefault(first.value, set()).add(path.name)
    return codes


def documented_codes() -> set[str]:
    section = DOC[DOC.index("## Errors"):DOC.index("## Speed")]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))


def test_every_raised_code_is_documented():
    missing = {code: files for code, files in raised_codes().items() if code not in documented_codes()}
    assert not missing, f"codes raised but not in docs/engine.md: {missing}"


def test_every_documented_code_is_raised_somewhere():
    stale = documented_codes() - set(raised_codes())
    assert not stale, f"codes in docs/engine.md that nothing raises: {sorted(stale)}"


def test_codes_are_snake_case_words():
    assert all(re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", code) for code in raised_codes())


def test_every_documented_code_has_a_test():
    tests = "".join(p.read_text() for p in (ROOT / "tests" / "scoring").glob("test_*.py"))
    untested = sorted(code for code in documented_codes() if f'"{code}"' not in tests)
    assert not untested, f"codes without a test: {untested}"
