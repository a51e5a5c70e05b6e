"""A render waits a bounded time for the tournament's row (docs/operations.md, "Drills").

A change's render brings the standings up to date first (the ``standings`` hint), which locks the
tournament's row; a pairing or a recomputation may hold it. Unbounded, that wait held the publisher's process
and the event's render lock; now it gives up after ``STANDINGS_LOCK_TIMEOUT`` with OperationalError, which
the task retries with backoff (``publishing.tasks.TASK_OPTIONS``).
"""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import OperationalError, connection

from publishing import publish
from publishing.tasks import TASK_OPTIONS
from tests.tournaments.factories import make_tournament
from tournaments.models import Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_render_waits_for_the_tournament_row_at_most_its_lock_timeout(monkeypatch: pytest.MonkeyPatch):
    tournament = make_tournament()
    monkeypatch.setattr(publish, "STANDINGS_LOCK_TIMEOUT", "300ms")
    s = connection.settings_dict
    holder = psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"],
                             password=s["PASSWORD"] or None, dbname=s["NAME"])
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
