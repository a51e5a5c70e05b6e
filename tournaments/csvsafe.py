"""Spreadsheet-safe CSV (issue 11 item 5; docs/security.md, "CSV formula injection").

A spreadsheet opening a CSV file runs a text cell that begins like a formula: ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return (OWASP's list), also after leading blanks, and the full-width forms of the four
signs that some spreadsheets accept. Every CSV the project writes goes through :func:`writer`, which puts
a single quote in front of such a text cell (OWASP's rule: the spreadsheet shows the text as it is) and
leaves numbers as numbers, so a chalk difference of -3 stays the number -3. Every CSV the project reads
asks :func:`is_formula` of each text cell and refuses such a cell as an error of its row
(``tournaments/services/imports.py``, code ``formula_cell``).

Pure standard library, usable from ``api``, ``web`` and the services alike (``tests/hardening/
test_item05_csv_formulas.py`` checks that no other module calls ``csv.writer``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

#: The first characters (after leading blanks) that make a spreadsheet read a cell as a formula.
FORMULA_SIGNS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")
#: Characters that make a cell dangerous when it starts with them, blanks or not.
FORMULA_CONTROLS = frozenset("\t\r")
#: The code of the import's per-row refusal.
FORMULA_CELL = "formula_cell"


def is_formula(text: str) -> bool:
    """Whether a spreadsheet could run this text cell as a formula."""
    if not text:
        return False
    if text[0] in FORMULA_CONTROLS:
        return True
    stripped = text.lstrip()
    return bool(stripped) and stripped[0] in FORMULA_SIGNS


def safe_cell(value: Any) -> Any:
    """A cell as written: numbers as they are, ``None`` as empty, text with a quote in front when it
    begins like a formula."""
    if value is None:
        return ""
    if isinstance(value, (bool, int, float, Decimal)):
        return value
    text = str(value)
    return f"'{text}" if is_formula(text) else text


def safe_row(values: Iterable[Any]) -> list[Any]:
    return [safe_cell(value) for value in values]


class SafeWriter:
    """``csv.writer`` whose every row goes through :func:`safe_cell`."""

    def __init__(self, fileobj: Any, **fmtparams: Any) -> None:
        self._writer = csv.writer(fileobj, **fmtparams)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(fileobj: Any, **fmtparams: Any) -> SafeWriter:
    """The only CSV writer the project uses: ``csv.writer`` with formula cells neutralised."""
    return SafeWriter(fileobj, **fmtparams)
