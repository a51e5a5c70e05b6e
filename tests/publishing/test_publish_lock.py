"""A render waits a bounded time for the tournament's row (docs/operations.md, "Drills").

Eager, a change's render brings the standings up to date first (the ``standings`` hint), which locks the
tournament's row; a pairing or a recomputation may hold it. Unbounded, that wait held the process and the
event's render lock; it gives up after ``STANDINGS_LOCK_TIMEOUT`` with OperationalError, which the task
retries with backoff (``publishing.tasks.TASK_OPTIONS``). Under a worker the render never touches the row: the
change's own recomputation message recomputes them, and the worker's render of the new snapshot asks for the
event's render after it (tests/publishing/test_standings_worker.py).
"""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, connection

from publishing import publish
from publishing.tasks import TASK_OPTIONS
from tests.pg import second_connection
from tests.tournaments.factories import make_entries, make_tournament
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_render_waits_for_the_tournament_row_at_most_its_lock_timeout(monkeypatch: pytest.MonkeyPatch):
    tournament = make_tournament()
    monkeypatch.setattr(publish, "STANDINGS_LOCK_TIMEOUT", "300ms")
    holder = second_connection()
    try:
        holder.execute(f"SELECT id FROM {Tournament._meta.db_table} WHERE id = %s FOR UPDATE", (tournament.pk,))
        started = time.monotonic()
        with pytest.raises(OperationalError):
            publish._standings_recompute(tournament.pk)
        assert time.monotonic() - started < 3
    finally:
        holder.rollback()
        holder.close()
    assert OperationalError in TASK_OPTIONS["autoretry_for"]  # the task is retried, not lost
    publish._standings_recompute(tournament.pk)  # the row free: it runs, and the timeout went with its transaction
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "0"


def test_under_a_worker_a_render_neither_recomputes_nor_waits_for_the_row(tmp_path, settings):
    """The row held by a recomputation or a pairing: ``publish_event`` with a worker's ``defer`` renders at once
    with the snapshot there is, stores none and takes no lock on the row (on the national day of 2026-12-06 the
    publisher's recomputation repeated the worker's, one per render, and its waits for the row had to be
    deferred and retried)."""
    settings.PUBLISH_ROOT, settings.PUBLISH_ENABLED = str(tmp_path), True
    tournament = make_tournament()
    make_entries(tournament, 4)
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    tournament.refresh_from_db()
    deferred: list[float] = []
    holder = second_connection()
    try:
        holder.execute(f"SELECT id FROM {Tournament._meta.db_table} WHERE id = %s FOR UPDATE", (tournament.pk,))
        started = time.monotonic()
        outcome = publish.publish_event(tournament.pk, {"standings": True}, defer=deferred.append)
        assert time.monotonic() - started < 3.0
        assert not outcome.deferred and outcome.rendered > 0 and deferred == []
    finally:
        holder.rollback()
        holder.close()
    assert not StandingsSnapshot.objects.filter(tournament=tournament).exists()  # the worker's task stores it
