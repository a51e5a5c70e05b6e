"""Issue 11 item 10: ids in URLs are bounded, and SQLite's lock errors are "busy", not "down".

- Every id-bearing route of the URL map, found by walking the resolver (so a route added later is covered
  without touching this file), answers 404 to an oversized id (20 digits: past SQLite's and PostgreSQL's
  64-bit integers), anonymously, as the tournament's organiser and as a tablet; never a 500. Django's admin
  keeps its own routes (``<path:object_id>``): they must not fail either.
- SQLite runs with ``transaction_mode: IMMEDIATE`` and a timeout, so two tablets writing one board at once
  queue for the lock (one hand lands, the other gets 409 as on PostgreSQL) instead of failing; a lock that
  still cannot be had ("database is locked") answers 503 ``database_busy`` with a short Retry-After.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from tests.api.conftest import World, build_world, private_cache  # noqa: F401 (private_cache: autouse fixture)

ROOT = Path(__file__).resolve().parent.parent.parent
BIG = "99999999999999999999"  # 20 digits: more than a signed 64-bit integer holds

ID_NAMES = {"pk", "id", "number", "object_id"}
ID_CONVERTERS = {"IntConverter", "IdConverter"}


@dataclass(frozen=True)
class Route:
    """One route of the URL map: its address template, the names of its id parameters, its namespace."""

    template: str  # e.g. "/t/{slug}/boards/{board_id}/"
    ids: tuple[str, ...]
    params: tuple[str, ...]
    namespace: str
    converters: tuple[tuple[str, str], ...]  # (parameter, converter class name) for route() patterns

    def url(self, values: dict[str, str]) -> str:
        return self.template.format(**values)


def _is_id(name: str, converter: str | None) -> bool:
    return converter in ID_CONVERTERS or name in ID_NAMES or name.endswith(("_id", "_pk"))


def _piece(pattern: Any) -> tuple[str, list[tuple[str, str | None]]]:
    """A pattern as a ``str.format`` template and its parameters (name, converter class name or None)."""
    params: list[tuple[str, str | None]] = []
    if isinstance(pattern, RoutePattern):
        route = str(pattern._route)  # noqa: SLF001

        def sub(match: re.Match[str]) -> str:
            name = match.group("name")
            params.append((name, type(pattern.converters[name]).__name__))
            return "{" + name + "}"

        return re.sub(r"<(?:(?P<conv>[^>:]+):)?(?P<name>\w+)>", sub, route), params
    if isinstance(pattern, RegexPattern):
        regex = str(pattern._regex)  # noqa: SLF001

        def sub_group(match: re.Match[str]) -> str:
            params.append((match.group(1), None))
            return "{" + match.group(1) + "}"

        text = re.sub(r"\(\?P<(\w+)>[^()]*\)", sub_group, regex)
        text = text.lstrip("^").rstrip("$").replace("\\.", ".").replace("\\-", "-")
        return text, params
    return str(pattern), params


def all_routes() -> list[Route]:
    routes: list[Route] = []

    def walk(patterns: list[Any], prefix: str, params: list[tuple[str, str | None]], namespace: str) -> None:
        for p in patterns:
            text, found = _piece(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + text, params + found, p.namespace or namespace)
            elif isinstance(p, URLPattern):
                every = params + found
                routes.append(Route(
                    template="/" + prefix + text,
                    ids=tuple(name for name, conv in every if _is_id(name, conv)),
                    params=tuple(name for name, _ in every),
                    namespace=namespace,
                    converters=tuple((name, conv) for name, conv in every if conv is not None),
                ))

    walk(get_resolver().url_patterns, "", [], "")
    return routes


def id_routes() -> list[Route]:
    return [r for r in all_routes() if r.ids]


def oversized_urls(route: Route, slug: str) -> Iterator[str]:
    """The route with each of its ids oversized in turn (the others 1), then all of them at once."""
    def values(big: set[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for name in route.params:
            if name in route.ids:
                out[name] = BIG if name in big else "1"
            elif name == "slug":
                out[name] = slug
            else:
                out[name] = "x1"
        return out

    for name in route.ids:
        yield route.url(values({name}))
    if len(route.ids) > 1:
        yield route.url(values(set(route.ids)))


def _label(route: Route) -> str:
    return route.template


ROUTES = id_routes()
APP_ROUTES = [r for r in ROUTES if r.namespace != "admin"]
ADMIN_ROUTES = [r for r in ROUTES if r.namespace == "admin"]


def test_item10_the_walk_finds_the_routes_the_review_named() -> None:
    templates = {r.template for r in APP_ROUTES}
    assert "/t/{slug}/boards/{board_id}/" in templates
    assert "/t/{slug}/rounds/{number}/" in templates
    assert "/api/v1/public/tournaments/{slug}/boards/{board_id}/" in templates
    assert "/api/v1/public/tournaments/{slug}/rounds/{number}/" in templates
    assert any(t.startswith("/api/v1/clubs/{pk}") for t in templates)  # a router's detail route
    assert len(APP_ROUTES) >= 40


def test_item10_every_id_in_an_app_route_is_a_bounded_id() -> None:
    """Every id the project's own routes take is the ``id`` converter (config/converters.py)."""
    loose = [
        (r.template, name) for r in APP_ROUTES for name in r.ids
        if dict(r.converters).get(name) != "IdConverter"
    ]
    assert not loose, loose


def test_item10_the_id_converter_bounds() -> None:
    from config.converters import IdConverter

    converter = IdConverter()
    assert re.fullmatch(converter.regex, "1") and re.fullmatch(converter.regex, "9" * 18)
    assert not re.fullmatch(converter.regex, "9" * 19) and not re.fullmatch(converter.regex, "-1")
    assert converter.to_python("123") == 123 and converter.to_url(123) == "123"
    assert int("9" * 18) <= 2**63 - 1


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


def _clients(world: World) -> dict[str, tuple[Client, dict[str, str]]]:
    organiser = Client(raise_request_exception=False)
    organiser.force_login(world.organiser)
    return {
        "anonymous": (Client(raise_request_exception=False), {}),
        "organiser": (organiser, {"HTTP_AUTHORIZATION": f"Token {world.organiser_token}"}),
        "tablet": (Client(raise_request_exception=False), {"HTTP_AUTHORIZATION": f"Device {world.tablet_token}"}),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("route", APP_ROUTES, ids=_label)
def test_item10_an_oversized_id_is_404_on_every_route(world: World, route: Route) -> None:
    failures = []
    for who, (client, headers) in _clients(world).items():
        if who == "tablet" and not route.template.startswith("/api/"):
            continue
        api_headers = headers if route.template.startswith("/api/") else {}
        for url in oversized_urls(route, world.tournament.slug):
            for method in ("get", "post"):
                response = getattr(client, method)(url, **api_headers)
                if response.status_code != 404:
                    failures.append((who, method.upper(), url, response.status_code))
    assert not failures, failures


@pytest.mark.django_db
@pytest.mark.parametrize("route", ADMIN_ROUTES, ids=_label)
def test_item10_an_oversized_id_never_fails_the_admin(world: World, route: Route) -> None:
    superuser = get_user_model().objects.create_superuser("root-item10", "r@example.org", "pw-for-tests-only")
    staff = Client(raise_request_exception=False)
    staff.force_login(superuser)
    organiser = Client(raise_request_exception=False)
    organiser.force_login(world.organiser)
    for client in (Client(raise_request_exception=False), organiser, staff):
        for url in oversized_urls(route, world.tournament.slug):
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)


# ---- SQLite: IMMEDIATE transactions, a timeout, and "locked" is busy -----------------------------------


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    clean.update({"DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONPATH": str(ROOT), **env})
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=180, check=False)


@pytest.mark.parametrize("module", ["config.settings.local", "config.settings.test"])
def test_item10_sqlite_runs_immediate_transactions_with_a_timeout(module: str, tmp_path: Path) -> None:
    code = ("import django, json; django.setup(); from django.conf import settings; "
            "print(json.dumps(settings.DATABASES['default']['OPTIONS']))")
    done = _run(code, DJANGO_SETTINGS_MODULE=module, DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert done.returncode == 0, done.stderr
    options = json.loads(done.stdout.strip().splitlines()[-1])
    assert options.get("transaction_mode") == "IMMEDIATE" and options.get("timeout") == 20


RACE = """
import json, sys, threading
import django
django.setup()
from django.core.management import call_command
from django.db import OperationalError, connection
call_command("migrate", verbosity=0)
from tests.tournaments.factories import current_game, make_board, tally
from tournaments.services import Conflict, hand_submit

outcomes = {"landed": 0, "conflict": 0, "operational": [], "other": []}
for _ in range(int(sys.argv[1])):
    board = make_board()
    game = current_game(board)
    barrier = threading.Barrier(2)

    def run(to):
        try:
            barrier.wait(10)
            hand_submit(board=board, game_number=game.number, hand_number=1, record=tally(game.next_dealer, to))
            outcomes["landed"] += 1
        except Conflict:
            outcomes["conflict"] += 1
        except OperationalError as exc:
            outcomes["operational"].append(str(exc))
        except Exception as exc:
            outcomes["other"].append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(side,)) for side in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
print(json.dumps(outcomes))
"""


def test_item10_two_tablets_writing_one_board_on_sqlite_get_one_hand_and_one_409(tmp_path: Path) -> None:
    """A real SQLite file, two threads per board released by a barrier, 10 boards: every race ends with one
    hand landed and one 409 (``hand_number_taken``), never an OperationalError (which answered 503)."""
    done = _run(f"import sys; sys.argv = ['race', '10']; exec({RACE!r})",
                DATABASE_URL=f"sqlite:///{tmp_path / 'race.sqlite3'}")
    assert done.returncode == 0, done.stderr[-3000:]
    outcomes = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcomes["operational"] == [] and outcomes["other"] == [], outcomes
    assert outcomes["landed"] == 10 and outcomes["conflict"] == 10, outcomes


def _locked_error(tmp_path: Path) -> OperationalError:
    """A real "database is locked" from SQLite, wrapped as Django wraps driver errors."""
    path = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise OperationalError(*exc.args) from exc
    except OperationalError as exc:
        assert "locked" in str(exc)
        return exc
    finally:
        holder.close()
        other.close()
    raise AssertionError("SQLite did not refuse the second writer")


@pytest.mark.parametrize("message", ["database is locked", "database table is locked"])
def test_item10_a_sqlite_lock_is_database_busy(message: str) -> None:
    from config.middleware import database_error_reason

    try:
        raise OperationalError(message) from sqlite3.OperationalError(message)
    except OperationalError as exc:
        code, _, retry_after = database_error_reason(exc)
    assert (code, retry_after) == ("database_busy", 1)


def test_item10_a_real_sqlite_lock_answers_503_database_busy_on_pages(tmp_path: Path, rf: Any) -> None:
    from config.middleware import DatabaseUnavailableMiddleware

    error = _locked_error(tmp_path)

    def view(request: Any) -> Any:
        raise error

    response = DatabaseUnavailableMiddleware(view)(rf.post("/console/"))
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert json.loads(response.content)["error"]["code"] == "database_busy"


@pytest.mark.django_db
def test_item10_a_sqlite_lock_answers_503_database_busy_on_the_api(world: World, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from api.views import tablet

    error = _locked_error(tmp_path)

    def locked(**kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(tablet, "board_call_help", locked)
    client = Client(raise_request_exception=False)
    response = client.post(f"/api/v1/tablet/boards/{world.board.pk}/help/", content_type="application/json",
                           HTTP_AUTHORIZATION=f"Device {world.tablet_token}", HTTP_IDEMPOTENCY_KEY="k-locked-1")
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "1"
    assert response.json()["error"]["code"] == "database_busy"


def test_item10_a_lost_connection_is_still_database_unavailable() -> None:
    from config.middleware import database_error_reason

    try:
        raise OperationalError("unable to open database file") from sqlite3.OperationalError("unable to open")
    except OperationalError as exc:
        code, _, retry_after = database_error_reason(exc)
    assert code == "database_unavailable" and retry_after == 5
