"""The repository carries its own rules, hand format and product decisions (docs/rules.md,
docs/hand-format.md, docs/decisions.md), so that code citing them stands without the project brief.

No database, no Django: these tests only read files. The refusal codes are taken from the engine
itself (every literal code passed to ``InvalidHand`` or the command line's ``_error_text`` in
``scoring/``) and from the code tables of docs/engine.md, so a new code fails here until
docs/hand-format.md lists it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
HAND_FORMAT = DOCS / "hand-format.md"
DECISIONS = DOCS / "decisions.md"
SCHEMA = "api/schemas/hand-format-v1.schema.json"

#: The calls in scoring/ whose first argument is an error code.
ERROR_FACTORIES = {"InvalidHand", "_error_text"}


def engine_raised_codes() -> set[str]:
    """Every error code the engine can answer, read from its source (the codes are literals)."""
    codes: set[str] = set()
    for path in sorted((ROOT / "scoring").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in ERROR_FACTORIES and isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.add(first.value)
    return codes


def engine_doc_codes() -> set[str]:
    """The codes in docs/engine.md's tables under "## Errors"."""
    text = (DOCS / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("## Errors"):text.index("## Speed")]
    return set(re.findall(r"^\| `([a-z_0-9]+)` \|", section, re.MULTILINE))


@pytest.mark.parametrize("doc", [RULES, HAND_FORMAT, DECISIONS], ids=lambda p: p.name)
def test_the_doc_exists_and_is_not_a_stub(doc: Path) -> None:
    assert doc.is_file(), f"{doc.relative_to(ROOT)} is missing"
    text = doc.read_text(encoding="utf-8")
    assert len(text) > 5000, f"{doc.relative_to(ROOT)} is too short to hold its contract"
    assert "/work/shared" not in text and "../shared" not in text, "the docs must stand without the brief"


def test_rules_keep_the_numbered_sections_code_cites() -> None:
    text = RULES.read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. \S", text, re.MULTILINE)]
    assert numbers[:9] == list(range(1, 10)), f"sections 1..9 in order, found {numbers}"
    # the headings the rest of the code base cites by number
    for number, words in [(6, "Order of scoring"), (7, "Irregularities"), (9, "Rule options")]:
        assert re.search(rf"^## {number}\. {words}", text, re.MULTILINE), f"section {number} is {words}"


def test_rules_name_every_preset_and_option_the_engine_has() -> None:
    from scoring.rules import PRESETS, RuleSet

    text = RULES.read_text(encoding="utf-8")
    missing = [name for name in PRESETS if f"`{name}`" not in text]
    missing += [field for field in RuleSet().to_dict() if f"`{field}`" not in text]
    assert not missing, f"docs/rules.md does not name: {missing}"


def test_the_engine_codes_were_found() -> None:
    # guards the test below against an empty scan passing vacuously
    codes = engine_raised_codes()
    assert {"low_above_high", "bad_json", "wrong_leader"} <= codes
    assert len(codes) >= 40


def test_hand_format_lists_every_refusal_code() -> None:
    text = HAND_FORMAT.read_text(encoding="utf-8")
    codes = engine_raised_codes() | engine_doc_codes()
    missing = sorted(code for code in codes if f"`{code}`" not in text)
    assert not missing, f"docs/hand-format.md does not list: {missing}"


def test_hand_format_points_at_the_schema_in_the_repository() -> None:
    text = HAND_FORMAT.read_text(encoding="utf-8")
    assert SCHEMA in text
    assert (ROOT / SCHEMA).is_file()
    for heading in ("## Conventions", "## A game document", "## HAND, tally form", "## HAND, play form",
                    "## The result", "## Errors", "## The command line"):
        assert heading in text, f"docs/hand-format.md lacks the heading {heading!r} that citations use"


def test_decisions_keep_their_headings_and_our_issue_numbers() -> None:
    text = DECISIONS.read_text(encoding="utf-8")
    for heading in ("## Events, entrants and formats", "## A board's life, from the tablet",
                    "## Details of the board's life", "## Organisers and the demo", "## Errors",
                    "## Resilience", "## Tests: what runs where", "## Decisions for this round's issues"):
        assert heading in text, f"docs/decisions.md lacks the heading {heading!r} that citations use"
    assert "docs/adr/" in text and "ADR" in text, "a changed decision needs an ADR: the page must say so"
    # the brief's numbering (08, 09, 10a, ...) must not leak into the tracker's
    assert not re.search(r"\bissues? (0\d|10[abc])\b", text), "use the tracker's issue numbers"
    for number in range(10, 18):
        assert re.search(rf"\bissues? [^.\n]*\b{number}\b", text), f"issue {number} is not mentioned"
