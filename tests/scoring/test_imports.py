"""``scoring`` is a pure rules library: every module imports only the standard library and itself
(STYLE.md: "scoring imports only the standard library")."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scoring"
MODULES = sorted(PACKAGE.glob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_scoring_imports_only_the_standard_library(path):
    foreign = {root for root in imported_roots(path) if root != "scoring" and root not in sys.stdlib_module_names}
    assert not foreign, f"{path.name} imports {sorted(foreign)}"


def test_every_module_has_a_docstring():
    for path in MODULES:
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
