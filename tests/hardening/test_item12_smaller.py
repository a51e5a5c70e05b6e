"""Issue 11 item 12, the smaller findings:

1. A concurrent same-key replay always says ``Idempotent-Replayed: true``: the race (this request's
   lookup misses, the other request with the same key commits, this request's write is refused or rolled
   back and the stored answer is returned) is made deterministic, once through the API by running the
   other request between the lookup and the write, once with two threads and a held transaction.
2. Production logs one line, no traceback, for a request with a foreign Host (DisallowedHost).
3. The development server answers a static path traversal with 404, never 500.
4. The organiser's ``POST /api/v1/games/{id}/confirm/`` answers 201 the first time and 200 (already
   confirmed, the same body) on a repeat.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.api.conftest import World, build_world, private_cache  # noqa: F401 (private_cache: autouse fixture)
from tests.api.helpers import hands_of_game, key, play_game, post, seat
from tournaments.models import Game, Hand, IdempotencyRecord

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


# ---- 1. a racing replay says so ---------------------------------------------------------------------


def _writes(world: World) -> dict[str, tuple[str, Any]]:
    """Tablet writes whose racing duplicate takes each path: a refusal (the hand number is taken, the hand
    is no longer active) or a rolled-back write (the record's unique key)."""
    board = world.board.pk
    return {
        "hand (the duplicate is refused: hand_number_taken)": (
            f"/api/v1/tablet/boards/{board}/hands/", {"game": 1, "number": 1, "hand": hands_of_game(seed=5)[0]}),
        "help (the duplicate writes, then loses the record's unique key)": (
            f"/api/v1/tablet/boards/{board}/help/", None),
    }


@pytest.mark.parametrize("write", ["hand (the duplicate is refused: hand_number_taken)",
                                   "help (the duplicate writes, then loses the record's unique key)"])
def test_item12_a_replay_that_raced_its_original_says_idempotent_replayed(
        world: World, write: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.services import idempotency

    api = APIClient()
    assert seat(api, world).status_code == 200
    path, body = _writes(world)[write]
    same_key = key()
    first = post(api, world, path, body, idem=same_key)
    assert first.status_code in (200, 201), first.content

    # The duplicate's lookup ran before the first request committed: it saw no record. Its write then meets
    # the committed one (the hand number is taken / the record's key exists) and it replays the stored answer.
    real_stored = idempotency._stored
    lookups = {"n": 0}

    def stored_after_the_race(device: Any, k: str) -> Any:
        lookups["n"] += 1
        return None if lookups["n"] == 1 else real_stored(device, k)

    monkeypatch.setattr(idempotency, "_stored", stored_after_the_race)
    again = post(api, world, path, body, idem=same_key)
    assert lookups["n"] >= 2, "the race did not happen"
    assert again.status_code == first.status_code and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.filter(key=same_key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_item12_two_threads_one_key_held_transaction_both_answers_agree_and_the_loser_says_replayed() -> None:
    """Thread A writes the hand and holds its transaction open until thread B has looked the key up (and
    missed); then A commits and B's write runs into A's hand. B's answer is A's, marked replayed."""
    from tests.tournaments.factories import make_board, make_device, tally
    from tournaments.selectors import hand_data
    from tournaments.services import hand_submit, idempotency

    board = make_board()
    device = make_device(board)
    b_looked_up = threading.Event()
    a_committed = threading.Event()
    real_stored = idempotency._stored
    results: dict[str, Any] = {}

    def stored(dev: Any, k: str) -> Any:
        found = real_stored(dev, k)
        if threading.current_thread().name == "B" and not b_looked_up.is_set():
            b_looked_up.set()  # B has missed; now let A commit, and wait for it
            assert a_committed.wait(20)
        return found

    def write(hold: bool) -> tuple[int, dict[str, Any]]:
        hand = hand_submit(board=board, game_number=1, hand_number=1, record=tally(0), device=device)
        if hold:
            assert b_looked_up.wait(20)  # the transaction stays open until B has looked the key up
        return 201, {"hand": hand_data(hand)}

    def send(name: str) -> None:
        try:
            outcome = idempotency.idempotent_outcome(
                device=device, key="raced-1", method="POST", path="/hands", body={"n": 1},
                call=lambda: write(hold=name == "A"),
            )
            results[name] = (outcome.status, outcome.body, outcome.replayed)
            if name == "A":
                a_committed.set()
        except Exception as exc:  # noqa: BLE001 - the test reports it
            results[name] = exc
            a_committed.set()
            b_looked_up.set()
        finally:
            connection.close()

    idempotency_stored = idempotency._stored
    idempotency._stored = stored
    try:
        threads = [threading.Thread(target=send, args=(name,), name=name) for name in ("A", "B")]
        threads[0].start()
        time.sleep(0.2)  # A is inside its transaction before B starts
        threads[1].start()
        for t in threads:
            t.join(timeout=60)
    finally:
        idempotency._stored = idempotency_stored
    assert not isinstance(results.get("A"), Exception) and not isinstance(results.get("B"), Exception), results
    a_status, a_body, a_replayed = results["A"]
    b_status, b_body, b_replayed = results["B"]
    assert (a_status, a_replayed) == (201, False)
    assert (b_status, b_body, b_replayed) == (a_status, a_body, True)
    assert Hand.objects.filter(game__board=board).count() == 1


# ---- 2. a foreign Host is one log line ----------------------------------------------------------------


def test_item12_production_logs_one_line_for_a_foreign_host(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY="item12-" + "s" * 40,
               ALLOWED_HOSTS="example.org", REDIS_URL="redis://127.0.0.1:1/0",
               DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    code = (
        "import django, sys; django.setup(); from django.test import Client; c = Client(); "
        "codes = [c.get(p, HTTP_HOST='evil.example', secure=True).status_code "
        "for p in ('/', '/api/v1/public/tournaments/', '/admin/login/')]; "
        "print(codes, file=sys.stdout)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[400, 400, 400]"
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    host_lines = [line for line in lines if "evil.example" in line]
    assert len(host_lines) == 3 and all("Invalid HTTP_HOST header" in line for line in host_lines), lines
    assert "Traceback" not in done.stderr and not any(line.startswith("  File ") for line in lines), done.stderr
    assert not any("DisallowedHost" in line and "evil.example" not in line for line in lines), done.stderr


# ---- 3. the development server and a static path traversal -------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _raw_get(port: int, target: str) -> tuple[int, bytes]:
    """A GET with the target exactly as written (no client normalises the dots away)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


TRAVERSALS = [
    "/static/../../etc/passwd",
    "/static/../../../../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/etc/passwd",
    "/static/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
    "/static/..%2f..%2f..%2fetc/passwd",
    "/static/css/../../../../etc/passwd",
    "/static/..\\..\\etc\\passwd",
    "/static//etc/passwd",
]


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``manage.py runserver`` with the development settings, as ``make run`` serves."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.local",
               DATABASE_URL=f"sqlite:///{tmp_path_factory.mktemp('dev') / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)
    process = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _raw_get(port, "/static/css/site.css")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError("runserver did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.parametrize("target", TRAVERSALS)
def test_item12_the_development_server_answers_a_static_traversal_with_404(dev_server: int, target: str) -> None:
    status, data = _raw_get(dev_server, target)
    assert status == 404, data[:300]
    assert b"root:" not in data


def test_item12_the_development_server_still_serves_static_files(dev_server: int) -> None:
    status, data = _raw_get(dev_server, "/static/css/site.css")
    assert status == 200 and b"{" in data


@pytest.mark.django_db
@pytest.mark.parametrize("target", TRAVERSALS)
def test_item12_the_application_answers_a_static_traversal_with_404(client: Any, target: str) -> None:
    response = client.get(target)
    assert response.status_code == 404


# ---- 4. the organiser's repeated confirmation ---------------------------------------------------------


def test_item12_the_organiser_confirming_twice_gets_201_then_200(world: World) -> None:
    api = APIClient()
    seat(api, world)
    play_game(api, world, seed=3)
    game = Game.objects.get(board=world.board, number=1)
    path = f"/api/v1/games/{game.pk}/confirm/"
    first = api.post(path, **world.auth("organiser"))
    assert first.status_code == 201, first.content
    assert first.json()["game_confirmed"] is True
    again = api.post(path, **world.auth("organiser"))
    assert again.status_code == 200, again.content
    assert again.json() == first.json()
    third = api.post(path, **world.auth("staff"))  # staff confirming as the organiser: the same one word
    assert third.status_code == 200


def test_item12_the_schema_documents_both_answers() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    responses = schema["paths"]["/api/v1/games/{id}/confirm/"]["post"]["responses"]
    assert {"200", "201"} <= set(responses)


