"""Golden snapshot of the demo tournament: its standings and public JSON must not move through a refactor.

``manage.py demo`` is seeded (``--seed``, default 2026): the simulated games, the Swiss pairings and so
the standings come out the same at every load. Only the credentials it prints (password, API token,
pairing code) and the timestamps are new each time, and none of those reach the public reads.

The module loads the demo once, the way ``test_demo.py`` does (in-process Celery, the database emptied
before and after), then reads as an anonymous client of the public API (/api/v1/public/...):

* ``tournament``: the tournament's detail;
* ``rounds``: the public round list; ``pairings``: every round's pairings with their live results;
* ``standings``: the pairs' standings (the latest snapshot);
* ``scorecards``: every board's scorecard, hand by hand;
* ``statistics``: per-pair figures and the headline records;

and from the services and selectors (there is no public API read of the club table):

* ``club_standings``: the public club table (``tournaments.selectors.club_standings``);
* ``snapshot``: the latest snapshot's pair and club rows (``tournaments.services.standings.standings_latest``
  with ``fresh=True``, so ``tournament_standings_recompute`` runs over the finished demo first).

Volatile values are normalised before the comparison: every datetime string becomes ``"<datetime>"``
(null stays null); database ids become stable keys (entries ``"entry:seed-N"``, boards ``"board:rR-tT"``,
clubs and players by name, the tournament ``"tournament"``), so the file holds whatever ids SQLite or
PostgreSQL hand out; the snapshot's ``source_hash`` (a digest of ids) and response headers (ETag) are left
out. Each section is compared on its own and a failure lists the first differing paths.

The golden file is tests/tournaments/data/golden_demo.json. Run the check:

    .venv/bin/python -m pytest -p no:cacheprovider tests/tournaments/test_golden_demo.py

Regenerate it (only when a change to the demo's results is intended; review the diff before committing):

    GOLDEN_UPDATE=1 .venv/bin/python -m pytest -p no:cacheprovider tests/tournaments/test_golden_demo.py
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.management.commands.demo import DEMO_SLUG
from tournaments.models import Board, Club, Entry, Player, Tournament

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "data" / "golden_demo.json"
UPDATE = os.environ.get("GOLDEN_UPDATE", "") == "1"
SECTIONS = (
    "tournament", "rounds", "pairings", "standings", "club_standings", "scorecards", "statistics", "snapshot",
)

DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


# ---- normalising -----------------------------------------------------------------------------------------


class Ids:
    """Database ids to stable keys, one mapping per kind; an id not in its mapping is an error."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = {tournament.pk: "tournament"}
        self.entry = {e.pk: f"entry:seed-{e.seed}" for e in Entry.objects.filter(tournament=tournament)}
        self.board = {
            b.pk: f"board:r{b.round.number}-t{b.table}"
            for b in Board.objects.filter(round__tournament=tournament).select_related("round")
        }
        self.club = {c.pk: f"club:{c.name}" for c in Club.objects.all()}
        self.player = {p.pk: f"player:{p.name}" for p in Player.objects.all()}
        for kind in ("entry", "board", "club", "player"):
            keys = list(getattr(self, kind).values())
            assert len(keys) == len(set(keys)), f"{kind} keys are not unique: {keys}"

    def key(self, kind: str, value: Any, where: str) -> Any:
        if value is None:
            return None
        mapping: Mapping[int, str] = getattr(self, kind)
        assert isinstance(value, int) and value in mapping, f"{where}: {value!r} is not a known {kind} id"
        return mapping[value]


#: Per section, which keys hold which kind of id (``seating`` maps seats to players).
ID_KEYS: dict[str, dict[str, str]] = {
    "default": {"entry": "entry", "entry_id": "entry", "entries": "entry", "board": "board",
                "club_id": "club", "seating": "player"},
    "tournament": {"id": "tournament"},
    "snapshot.rows": {"entrant_id": "entry"},
    "snapshot.clubs": {"entrant_id": "club"},
}


def normalise(value: Any, ids: Ids, keys: Mapping[str, str], path: str = "$") -> Any:
    """``value`` with datetimes masked and ids replaced by stable keys (as plain JSON)."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            here = f"{path}.{k}"
            kind = keys.get(str(k))
            if kind is None:
                out[str(k)] = normalise(v, ids, keys, here)
            elif isinstance(v, Mapping):
                out[str(k)] = {str(s): ids.key(kind, x, f"{here}.{s}") for s, x in v.items()}
            elif isinstance(v, (list, tuple)):
                out[str(k)] = [ids.key(kind, x, f"{here}[{i}]") for i, x in enumerate(v)]
            else:
                out[str(k)] = ids.key(kind, v, here)
        return out
    if isinstance(value, (list, tuple)):
        return [normalise(v, ids, keys, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, str) and DATETIME.match(value):
        return "<datetime>"
    return value


def differences(expected: Any, actual: Any, path: str = "$") -> Iterator[str]:
    """The paths where ``actual`` differs from ``expected``, depth first."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k in expected.keys() - actual.keys():
            yield f"{path}.{k}: missing (expected {_short(expected[k])})"
        for k in actual.keys() - expected.keys():
            yield f"{path}.{k}: unexpected {_short(actual[k])}"
        for k in expected.keys() & actual.keys():
            yield from differences(expected[k], actual[k], f"{path}.{k}")
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield f"{path}: {len(actual)} items, expected {len(expected)}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            yield from differences(e, a, f"{path}[{i}]")
    elif expected != actual or type(expected) is not type(actual):
        yield f"{path}: {_short(actual)}, expected {_short(expected)}"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."


# ---- capturing -------------------------------------------------------------------------------------------


def capture(tournament: Tournament) -> dict[str, Any]:
    """Every section of the golden file from the loaded demo, normalised."""
    from tournaments import selectors
    from tournaments.services.standings import standings_latest

    ids = Ids(tournament)
    client = APIClient()  # anonymous

    def get(name: str, **kwargs: Any) -> Any:
        url = reverse(f"api:{name}", kwargs={"slug": tournament.slug, **kwargs})
        response = client.get(url, HTTP_ACCEPT="application/json")
        assert response.status_code == 200, f"{url}: {response.status_code} {response.content[:300]!r}"
        return response.json()

    def norm(value: Any, section: str = "default") -> Any:
        keys = {**ID_KEYS["default"], **ID_KEYS.get(section, {})}
        return normalise(json.loads(json.dumps(value)), ids, keys)

    caches["default"].clear()  # nothing cached by an earlier load may answer
    rounds = get("public-rounds")
    pairings = {str(r["number"]): get("public-round", number=r["number"]) for r in rounds}
    board_ids = [b["board"] for body in pairings.values() for b in body["boards"]]
    scorecards = {ids.key("board", pk, "pairings"): get("public-scorecard", board_id=pk) for pk in board_ids}

    clubs = selectors.club_standings(tournament)
    club_table = {
        "columns": [list(c) for c in clubs.columns],
        "rows": [{"rank": r.rank, "name": r.name, "values": dict(zip([c[0] for c in clubs.columns], r.values,
                                                                     strict=False))}
                 for r in clubs.rows],
    }

    snapshot = standings_latest(tournament=tournament, fresh=True)
    assert snapshot is not None, "the demo left no standings snapshot"
    return {
        "tournament": norm(get("public-tournament"), "tournament"),
        "rounds": norm(rounds),
        "pairings": norm(pairings),
        "standings": norm(get("public-standings")),
        "club_standings": norm(club_table),
        "scorecards": norm(scorecards),
        "statistics": norm(get("public-statistics")),
        "snapshot": {
            "after_round": snapshot.after_round,
            "rows": norm(snapshot.rows, "snapshot.rows"),
            "clubs": norm(snapshot.clubs, "snapshot.clubs"),
        },
    }


@pytest.fixture(scope="module")
def captured(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:
    """The demo loaded once into an emptied test database (ids from 1), read, and emptied again."""
    from config.celery import app

    eager = app.conf.task_always_eager
    with django_db_blocker.unblock():
        from django.db import connection

        name = str(connection.settings_dict["NAME"])
        assert "test" in name or "memory" in name, f"refusing to load the demo into {name} and flush it"
        app.conf.task_always_eager = True
        try:
            call_command("flush", "--no-input", verbosity=0)  # sequences restart, whatever ran before
            with override_settings(DEBUG=True):
                call_command("demo", "--port", "8000", stdout=StringIO())
            data = capture(Tournament.objects.get(slug=DEMO_SLUG))
            if UPDATE:
                GOLDEN.parent.mkdir(parents=True, exist_ok=True)
                GOLDEN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            yield data
        finally:
            app.conf.task_always_eager = eager
            call_command("flush", "--no-input", verbosity=0)


@pytest.fixture(scope="module")
def golden(captured: dict[str, Any]) -> dict[str, Any]:
    """The golden file, read after ``captured`` (which rewrites it under GOLDEN_UPDATE=1)."""
    if not GOLDEN.exists():
        pytest.fail(f"{GOLDEN} is missing: regenerate it with GOLDEN_UPDATE=1 (see this module's docstring)")
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


# ---- the checks ------------------------------------------------------------------------------------------


def test_golden_file_covers_every_section(captured, golden):
    assert list(golden) == list(SECTIONS)
    assert len(golden["pairings"]) == 3 and len(golden["scorecards"]) == 24
    assert len(golden["standings"]["rows"]) == 16 and len(golden["snapshot"]["clubs"]) == 4


@pytest.mark.parametrize("section", SECTIONS)
def test_demo_matches_golden(captured, golden, section):
    found = list(differences(golden[section], captured[section], section))
    hint = "\n(intended? regenerate with GOLDEN_UPDATE=1, see the module docstring)"
    assert not found, f"{len(found)} differences from {GOLDEN.name}:\n" + "\n".join(found[:25]) + hint


def test_snapshot_agrees_with_public_standings(captured):
    """The public table is the snapshot's pair rows in the same order (a cross-check, golden or not)."""
    public = [(row["rank"], row["entry"]) for row in captured["standings"]["rows"]]
    snapshot = [((f"{r['rank']}=" if r.get("tied") else r["rank"]), r["entry_id"]) for r in captured["snapshot"]["rows"]]
    assert public == snapshot

