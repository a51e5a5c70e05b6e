"""A render waits a bounded time for the tournament's row (docs/operations.md, "Drills").

A change's render brings the standings up to date first (the ``standings`` hint), which locks the
tournament's row; a pairing or a recomputation may hold it. Unbounded, that wait held the publisher's process
and the event's render lock; eager, it gives up after ``STANDINGS_LOCK_TIMEOUT`` with OperationalError, which
the task retries with backoff (``publishing.tasks.TASK_OPTIONS``). Under a worker it does not wait at all: it is
deferred a quarter of a second with its hints kept, and waits as eager does only after ``BUSY_AT_MOST_SECONDS``.
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


def test_under_a_worker_a_render_finding_the_row_held_is_deferred_not_waiting(monkeypatch, tmp_path, settings):
    """The row held: ``nowait`` answers False at once; ``publish_event`` with a worker's ``defer`` keeps the
    change's hints, asks for a run a quarter of a second later and renders nothing; that run, the row free,
    recomputes and renders. Busy for longer than ``BUSY_AT_MOST_SECONDS``, it waits as eager does."""
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
        assert publish._standings_recompute(tournament.pk, nowait=True) is False
        outcome = publish.publish_event(tournament.pk, {"standings": True}, defer=deferred.append)
        assert time.monotonic() - started < 1.0  # neither waited for the row
        assert outcome.deferred and outcome.rendered == 0 and deferred == [publish.BUSY_RETRY_SECONDS]
        # another change while the row is still held: its hints join the pending ones, no second run is asked
        assert publish.publish_event(tournament.pk, {"boards": [1], "standings": True}, defer=deferred.append).deferred
        assert deferred == [publish.BUSY_RETRY_SECONDS]
        state = publish.load_state(tournament.slug)
        assert state["pending"]["boards"] == [1]
        assert state["pending"]["standings"] and "busy_since" in state
        # held past BUSY_AT_MOST_SECONDS: the next run waits (here, its lock timeout) instead of deferring again
        state["busy_since"] -= publish.BUSY_AT_MOST_SECONDS + 1
        publish.save_state(tournament.slug, state)
        monkeypatch.setattr(publish, "STANDINGS_LOCK_TIMEOUT", "300ms")
        with pytest.raises(OperationalError):
            publish.publish_event(tournament.pk, {"deferred": True}, defer=deferred.append)
        assert len(deferred) == 1
    finally:
        holder.rollback()
        holder.close()
    outcome = publish.publish_event(tournament.pk, {"deferred": True}, defer=deferred.append)
    assert not outcome.deferred and outcome.rendered > 0
    assert "busy_since" not in publish.load_state(tournament.slug)
    assert StandingsSnapshot.objects.filter(tournament=tournament).exists()
