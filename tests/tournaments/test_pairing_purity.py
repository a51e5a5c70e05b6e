"""The pure cores stay pure: standard library, rustworkx, the registry (itself pure), and themselves only.

Read from the source's syntax tree, so a forbidden import is caught even on a path no test runs.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_THIRD_PARTY = {"tournaments.pairing": {"rustworkx"}, "tournaments.ranking": set(), "tournaments.formats": set()}
#: Pure packages a core may use besides itself.
ALLOWED_PROJECT = {"tournaments.pairing": {"tournaments.formats"}, "tournaments.ranking": {"tournaments.formats"},
                   "tournaments.formats": set()}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: stays inside the package unless it climbs out
                if node.level > 1:
                    found.append((node.lineno, "." * node.level + (node.module or "")))
                continue
            found.append((node.lineno, node.module or ""))
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED_THIRD_PARTY))
def test_the_core_imports_nothing_from_django_or_the_project(package):
    directory = ROOT / package.replace(".", "/")
    files = sorted(directory.rglob("*.py"))
    assert files, f"no sources found under {directory}"
    bad = []
    for path in files:
        for line, name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("."):
                bad.append(f"{path.name}:{line} climbs out of the package ({name})")
                continue
            inside = any(name == p or name.startswith(p + ".") for p in {package, *ALLOWED_PROJECT[package]})
            allowed = (
                top in sys.stdlib_module_names or top == "__future__" or top in ALLOWED_THIRD_PARTY[package]
            )
            if not (inside or allowed):
                bad.append(f"{path.name}:{line} imports {name}")
    assert bad == []


def test_the_check_itself_catches_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from django.db import models\nimport tournaments.models\nfrom ..services import x\n")
    assert _imports(sample) == [(1, "django.db"), (2, "tournaments.models"), (3, "..services")]
