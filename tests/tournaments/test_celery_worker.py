"""A real Celery worker pairs rounds and recomputes standings for a whole 5-round Swiss.

Starts ``.venv/bin/celery -A config worker --pool=solo`` as a subprocess on REDIS_URL, with DATABASE_URL
pointing at pytest-django's test database (``transaction=True``: rows are committed, so the worker sees
them). The test settings run tasks in-process; this test turns that off: ``round_start`` publishes the ``round_pair``
task through the outbox and returns the round pending; the worker drafts it. Hands go in from the tablets,
both pairs confirm, the round closes, and the worker recomputes the standings from the final state.

The worker consumes a queue of its own (``HANGJACK_TEST_QUEUE``, default ``hangjack-test-<pid>``) and
this process routes the tournament tasks there for the test's duration, so a shared Redis never hands
this worker another run's messages, nor another worker this run's. The publishing tasks (their own queue,
"publish", in production: ``CELERY_TASK_ROUTES``) go to ``<queue>-publish``, which the same worker consumes
too: every message this run's changes send is taken by this run's worker. Set ``HANGJACK_TEST_QUEUE=celery``
to use the default queues ("celery" and "publish"). Run with::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hangjack REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m pytest tests/tournaments/test_celery_worker.py
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

from scoring.simulate import simulate_game
from tests.tournaments.factories import make_device, make_entries, make_organiser, make_tournament, seat
from tournaments.models import Board, Game, OutboxMessage, Round, StandingsSnapshot, Tournament
from tournaments.services import (
    game_confirm,
    hand_submit,
    round_close,
    round_draft_adopt_proposal,
    round_publish,
    round_start,
    round_start_play,
)
from tournaments.services.standings import standings_compute, standings_input

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
CELERY = ROOT / ".venv" / "bin" / "celery"
WAIT = 30.0  # seconds for the worker to finish one piece of work


def _database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "postgres") + (f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_for(what: str, check: Callable[[], Any], log: Path, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
    pytest.fail(f"the worker did not {what} within {timeout:.0f}s; its log ends:\n{tail}")


@pytest.fixture
def worker(transactional_db: None) -> Iterator[Path]:
    """A Celery worker subprocess on the test database and a private queue; stopped at the end."""
    from config.celery import app

    queue = os.environ.get("HANGJACK_TEST_QUEUE") or f"hangjack-test-{os.getpid()}"
    publish = "publish" if queue == "celery" else f"{queue}-publish"
    routes, eager = app.conf.task_routes, app.conf.task_always_eager
    # The test settings run tasks in-process; this test sends them to a real worker instead.
    app.conf.update(task_routes={"tournaments.tasks.*": {"queue": queue}, "publishing.tasks.*": {"queue": publish}},
                    task_always_eager=False)
    app.amqp.flush_routes()
    log = Path(tempfile.mkstemp(prefix="hangjack-worker-", suffix=".log")[1])
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": _database_url(),
           "PYTHONUNBUFFERED": "1", "HANGJACK_CELERY_EAGER": "0"}
    command = [str(CELERY) if CELERY.exists() else sys.executable + " -m celery", "-A", "config", "worker",
               "--pool=solo", "-Q", f"{queue},{publish}", "--loglevel=INFO", "--without-gossip", "--without-mingle",
               "--without-heartbeat", "-n", f"{queue}@%h"]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        wait_for("start", lambda: process.poll() is None and "ready." in log.read_text(errors="replace"), log, 60)
        yield log
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # warm shutdown: finish the task at hand
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        app.conf.update(task_routes=routes, task_always_eager=eager)
        app.amqp.flush_routes()
        log.unlink(missing_ok=True)
        if queue != "celery":  # forget the private queues and their bindings
            import redis

            client = redis.Redis.from_url(os.environ["REDIS_URL"])
            for name in (queue, publish):
                client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
            client.close()


def standings_current(tournament: Tournament) -> StandingsSnapshot | None:
    """The latest snapshot if it was computed from the tournament's current state, else None."""
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
    if latest is not None and latest.source_hash == standings_input(Tournament.objects.get(pk=tournament.pk)).digest():
        return latest
    return None


def test_a_five_round_swiss_paired_and_ranked_by_a_real_worker(worker: Path):
    tournament = make_tournament(match_format={"kind": "first_to", "n": 1})
    entries = make_entries(tournament, 6)
    organiser = make_organiser(tournament)
    rng = random.Random(5)
    devices: dict[int, Any] = {}
    for number in range(1, 6):
        round_ = round_start(tournament=tournament, user=organiser)
        assert round_.number == number and round_.status in ("pending", "drafted")
        message = OutboxMessage.objects.get(task="tournaments.tasks.round_pair", args=[round_.pk])
        assert message.sent_at is not None and not message.last_error  # published, not paired in-process
        drafted = Round.objects.filter(pk=round_.pk, status="drafted")
        round_ = wait_for(f"pair round {number}", drafted.first, worker)
        assert round_.paired_from.after_round == number - 1 and round_.feasibility
        if (round_.proposal or {}).get("boards"):  # the look-ahead steers: the organiser takes its draft
            round_ = round_draft_adopt_proposal(round=round_, user=organiser)
        round_publish(round=round_, user=organiser)
        round_start_play(round=round_, user=organiser)
        for board in Board.objects.filter(round=round_).order_by("table"):
            assert board.explanation
            if board.table not in devices:  # one tablet per table, kept across rounds
                devices[board.table] = make_device(board)
            device = devices[board.table]
            seat(board, first_dealer=rng.randrange(4))
            game = Game.objects.get(board=board, number=1)
            simulated = simulate_game(game.rules, seed=rng.randrange(10**9), first_dealer=game.first_dealer)
            for n, record in enumerate(simulated.tally_hands, start=1):
                hand_submit(board=board, game_number=1, hand_number=n, record=record, device=device)
            game_confirm(game=game, party="a", device=device)
            game_confirm(game=game, party="b", device=device)
        round_close(round=round_, user=organiser)
        snapshot = wait_for(f"rank round {number}", lambda: standings_current(tournament), worker)
        assert snapshot.after_round == number
    met = [frozenset((b.pair_a_id, b.pair_b_id)) for b in Board.objects.filter(round__tournament=tournament)]
    # five rounds of six pairs: everyone met everyone once (the proposals keep a rematch-free finish)
    assert len(met) == 15 and len(set(met)) == 15
    pairs, _ = standings_compute(tournament, standings_input(tournament))
    assert [r["entry_id"] for r in snapshot.rows] == [r.entrant_id for r in pairs.rows]
    assert sum(r["match_points"] for r in snapshot.rows) == 2 * 15
    assert {r["entry_id"] for r in snapshot.rows} == {e.pk for e in entries}
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()
    # the changes' publishing messages went to the publishing queue, and this worker took them
    wait_for("run the publishing queue's messages", lambda: re.search(
        r"Task publishing\.tasks\.publish_event\[[0-9a-f-]+\] succeeded", worker.read_text(errors="replace")), worker)
