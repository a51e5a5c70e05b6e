"""docs/README.md's recipes stay true: the files they name exist, and the names a recipe defines appear in
production code only in the files it lists (so "add a tie-break: these two files" is a fact)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "README.md"
PRODUCTION = ("scoring", "tournaments", "api", "web", "config")


def _recipe(title: str) -> str:
    text = MAP.read_text()
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^### |\Z)", text, re.S | re.M)
    assert match, f"docs/README.md has no recipe {title!r}"
    return match.group(1)


def _paths(section: str) -> set[str]:
    return {p for p in re.findall(r"`([\w/]+\.py)`", section)}


def _files_defining(literal: str) -> set[str]:
    """Production files (not migrations) where the quoted string ``literal`` appears."""
    found = set()
    for package in PRODUCTION:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or path.name == "__init__.py":  # an __all__ names, defines nothing
                continue
            text = path.read_text()
            if f'"{literal}"' in text or f"'{literal}'" in text:
                found.add(str(path.relative_to(ROOT)))
    return found


def test_every_file_the_map_names_exists():
    for path in _paths(MAP.read_text()):
        assert (ROOT / path).exists(), f"docs/README.md names {path}, which does not exist"


def test_no_file_outside_the_tie_break_recipe_keeps_its_own_list_of_tie_breaks():
    from tournaments.formats import TIE_BREAKS

    listed = _paths(_recipe("Add a tie-break"))
    assert {"tournaments/formats/tiebreaks.py", "tournaments/ranking/keys.py"} <= listed
    counts: dict[str, int] = {}
    for name in TIE_BREAKS.names():
        for path in _files_defining(name):
            counts[path] = counts.get(path, 0) + 1
    # A standings row's figures share their names with the tie-breaks, so a file may read a few of them;
    # a file naming ten or more of the twelve holds a copy of the list (labels, choices, an enum).
    row_fields = {"tournaments/ranking/types.py"}  # StandingRow.as_dict: the row's own figures
    copies = {path for path, count in counts.items() if count >= 10 and path not in listed | row_fields}
    assert copies == set(), f"these files keep their own list of tie-breaks: {sorted(copies)}"


def test_a_bye_source_is_defined_only_in_the_files_of_its_recipe():
    listed = _paths(_recipe("Add a bye policy"))
    # A league division's own race target is a model field of that name (docs/leagues-model.md), read and
    # written by the league services and named by the league console's division form (its field map); they
    # name the field, not the bye source.
    division_field = {"tournaments/services/leagues/setup.py", "tournaments/services/leagues/standings.py",
                      "web/views/league_console.py"}
    for source in ("round_average", "own_average", "race_target"):
        assert _files_defining(source) <= listed | (division_field if source == "race_target" else set()), source


def test_match_kinds_are_spelled_only_in_the_registry():
    listed = _paths(_recipe("Add a match format"))
    for kind in ("first_to_total", "race"):
        assert _files_defining(kind) <= listed, kind
