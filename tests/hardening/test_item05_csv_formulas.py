"""Issue 11 item 5: CSV formula injection.

Every CSV export neutralises a text cell that a spreadsheet would run as a formula (it starts with = + - @,
a tab or a carriage return: the OWASP rule, a single quote in front), while numeric cells stay numbers (a
chalk difference of -3 is written -3). The pairs import refuses such a cell as an error of its row
(``formula_cell``), which the API's ``fields`` and the admin's preview show. Table-driven: every CSV export
the URL map serves (found from the resolver, so a later export is covered), every kind of cell, every
imported column.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.web.factories import finish_board, make_round, make_snapshot, make_tournament
from tournaments.models import Club, Pair, Player, Round, TournamentRole
from tournaments.services.imports import PairsImportRefused, pairs_import
from tournaments.services.people import club_update

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent

#: Text a spreadsheet would run: the review's examples and one per starting character.
FORMULAS = [
    "=cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    " =1+1",
    "\uff1d1+1",  # a full-width equals sign, read as = by some spreadsheets
]

#: A cell a spreadsheet would read as a formula (after an optional quote-less leading blank).
DANGEROUS = re.compile(r"^[\s]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


# ---- the helper, every kind of cell ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1+1", "'-1+1"),
        ("@A1", "'@A1"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("\t", "'\t"),
        (" =1", "' =1"),
        ("\uff1d1", "'\uff1d1"),
        ("-", "'-"),
        ("-3", "'-3"),  # text that looks like a number is still text: the writer decides what is a number
        ("Ria Mohammed", "Ria Mohammed"),
        ("Jean-Pierre & Ann", "Jean-Pierre & Ann"),
        ("a=b", "a=b"),
        ("3=", "3="),  # a tied rank
        ("1-0", "1-0"),
        ("", ""),
        (None, ""),
        (-3, -3),  # numbers stay numbers
        (0, 0),
        (14, 14),
        (-3.5, -3.5),
        (Decimal("-3"), Decimal("-3")),
        (True, True),
    ],
)
def test_every_kind_of_cell(value: Any, expected: Any) -> None:
    from tournaments.csvsafe import safe_cell

    got = safe_cell(value)
    assert got == expected and type(got) is type(expected)


def test_the_writer_quotes_formulas_and_leaves_numbers() -> None:
    from tournaments import csvsafe

    out = io.StringIO()
    csvsafe.writer(out).writerow(["=1+1", -3, "Couva", 2.5, None])
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=1+1", "-3", "Couva", "2.5", ""]


# ---- every export the URL map serves -----------------------------------------------------------------


def csv_exports() -> list[str]:
    """Names (``web:…``, ``api:…``) of every route whose address ends in .csv."""
    found: list[str] = []

    def walk(patterns: list[Any], namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and str(p.pattern).endswith(".csv") and p.name:
                found.append(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, None)
    return found


def test_the_exports_are_found() -> None:
    assert {"web:console_export_standings", "web:console_export_results"} <= set(csv_exports())


@pytest.fixture
def poisoned() -> Any:
    """A tournament where every name an organiser or a registry import can set is a formula, with
    boards played and a snapshot whose chalk differences go negative."""
    t = make_tournament(pairs=6)
    clubs = list(Club.objects.filter(pairs__entries__tournament=t).distinct())
    for i, club in enumerate(clubs):
        # Renamed through the service before any board, so the entries' recorded names take it too (a played
        # event keeps the name it was played under: docs/leagues-model.md, "Club and player identity").
        club_update(club=club, user=None, name=FORMULAS[i % len(FORMULAS)] + f" club {i}")
    for i, pair in enumerate(Pair.objects.filter(entries__tournament=t).order_by("pk")):
        pair.name = FORMULAS[i % len(FORMULAS)]
        pair.save()
        for j, player in enumerate((pair.player_1, pair.player_2)):
            player.name = FORMULAS[(i + j + 1) % len(FORMULAS)] + f" {i}{j}"
            player.save()
    round_ = make_round(t, 1, Round.Status.CLOSED)
    for i, board in enumerate(round_.boards.exclude(pair_b=None), 1):
        finish_board(board, seed=i)
    snapshot = make_snapshot(t, 1)
    # The clubs' table too (the teams.csv export), each club named like a formula.
    snapshot.clubs = [{"club_id": club.pk, "rank": i, "tied": False, "played": 1, "byes": 0, "match_points": 2,
                       "wins": 1, "bullseyes_won": 2, "chalk_difference": -3} for i, club in enumerate(clubs, 1)]
    snapshot.save(update_fields=["clubs"])
    user = get_user_model().objects.create_user("csv-organiser", password="pw-csv-organiser")
    TournamentRole.objects.create(tournament=t, user=user)
    client = Client()
    client.force_login(user)
    return t, client


@pytest.mark.parametrize("name", csv_exports())
def test_no_export_writes_a_formula(poisoned: Any, name: str) -> None:
    tournament, client = poisoned
    response = client.get(reverse(name, args=[tournament.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    assert len(rows) > 1
    cells = [cell for row in rows for cell in row]
    dangerous = [cell for cell in cells if cell and DANGEROUS.match(cell) and not NUMBER.match(cell)]
    assert not dangerous, dangerous
    # What was neutralised is still there to read, behind the quote.
    text = "\n".join(cells)
    assert "'=cmd|' /C calc'!A0" in text or "'+1+cmd|' /C calc'!A0" in text or "'-2+3+cmd" in text


def test_a_negative_chalk_difference_stays_a_number(poisoned: Any) -> None:
    tournament, client = poisoned
    response = client.get(reverse("web:console_export_standings", args=[tournament.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]
    assert "chalk_difference" in header
    column = [row[header.index("chalk_difference")] for row in body]
    assert any(value.startswith("-") and NUMBER.match(value) for value in column), column
    assert all(NUMBER.match(value) for value in column), column


def test_every_csv_writer_goes_through_the_helper() -> None:
    """A later export cannot forget the rule: csv.writer / DictWriter appear only in tournaments/csvsafe.py."""
    offenders = []
    for package in ("api", "web", "tournaments", "config"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "csvsafe.py" or "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"\bcsv\.(writer|DictWriter)\(", text):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


# ---- the import: a formula is an error of its row ----------------------------------------------------

HEADER = "player_1,player_2,club,seed\n"
GOOD = "Ann Lee,Bob Ali,Couva Kings,1\n"


def csv_line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL).writerow(cells)  # tabs, CRs inside quotes
    return out.getvalue()


@pytest.mark.parametrize("column", ["player_1", "player_2", "club", "seed"])
@pytest.mark.parametrize("formula", FORMULAS)
def test_the_import_refuses_a_formula_in_any_column(column: str, formula: str) -> None:
    row = {"player_1": "Cal Roy", "player_2": "Dee Kay", "club": "Arima", "seed": "2"}
    row[column] = formula
    data = HEADER + GOOD + csv_line([row["player_1"], row["player_2"], row["club"], row["seed"]])
    with pytest.raises(PairsImportRefused) as caught:
        pairs_import(data=data, user=None)
    refusal = caught.value
    [error] = refusal.errors
    # The record starts on line 3 (a carriage return inside a quoted cell ends it on line 4, as csv counts).
    assert error.code == "formula_cell" and error.line in (3, 4)
    line = f"line {error.line}"
    assert set(refusal.fields) == {line} and "formula" in refusal.fields[line]
    assert column in refusal.fields[line]
    assert not Player.objects.exists() and not Club.objects.exists()


def test_a_hyphen_inside_a_name_is_fine() -> None:
    result = pairs_import(data=HEADER + "Jean-Pierre Ali,Ann O'Neil-Roy,Couva-Kings,1\n", user=None)
    assert result.pairs_created == 1


def test_the_api_names_the_row(api_client: Any, api_organiser_token: str) -> None:
    data = HEADER + GOOD + "=cmd|' /C calc'!A0,Dee Kay,Arima,2\n"
    response = api_client.post("/api/v1/pairs/import/", data, content_type="text/csv",
                               HTTP_AUTHORIZATION=f"Token {api_organiser_token}")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "csv_rows_invalid"
    assert set(error["fields"]) == {"line 3"} and "formula" in error["fields"]["line 3"]
    assert not Club.objects.filter(name="Arima").exists()


def test_the_admin_preview_shows_the_formula_row(client: Any) -> None:
    admin = get_user_model().objects.create_superuser("csv-admin", "a@example.org", "pw-for-tests-only")
    client.force_login(admin)
    upload = SimpleUploadedFile("pairs.csv", (HEADER + GOOD + "Cal Roy,@SUM(A1),Arima,2\n").encode(), "text/csv")
    response = client.post(reverse("admin:tournaments_pair_import_csv"), {"file": upload})
    body = response.content.decode()
    assert response.status_code == 200 and "formula" in body and "<td>3</td>" in body
    assert not Pair.objects.exists()


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def api_organiser_token() -> str:
    from tests.api.conftest import make_tournament as api_tournament
    from tests.api.conftest import make_user, token_for

    user = make_user("csv-api-organiser")
    api_tournament("csv-cup", organiser=user)
    return token_for(user)
