"""A worker's database connection lives across tasks as a request's does (config/celery.py,
``CELERY_DB_REUSE_MAX`` in config/settings/base.py).

Before (2026-12-06): Celery's Django fix-up closed every connection before and after each task, so the
publisher and the worker opened about two PostgreSQL connections a second on the national day, and the
backends that exited took 0.1-0.3 of a core (docs/operations.md, "The fifth look")."""

from __future__ import annotations

import weakref
from types import SimpleNamespace
from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection

from config import celery as celery_module
from config.celery import app, connections_as_a_request

pytestmark = pytest.mark.django_db(transaction=True)


def _task(eager: bool) -> Any:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


def test_the_fix_up_keeps_the_connection_across_tasks() -> None:
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 100
    fixup = DjangoWorkerFixup(app)
    connection.ensure_connection()
    kept = connection.connection
    for _ in range(20):  # ten tasks: the fix-up's close before and after each
        fixup.on_task_prerun(sender=_task(False))
        fixup.on_task_postrun(sender=_task(False))
    assert connection.connection is kept


def test_around_a_worker_task_old_or_broken_connections_are_closed_as_around_a_request(monkeypatch: Any) -> None:
    calls: list[str] = []
    monkeypatch.setattr("django.db.close_old_connections", lambda: calls.append("closed old"))
    connections_as_a_request(task=_task(False))
    assert calls == ["closed old"]


def test_an_eager_task_leaves_its_callers_connection_alone(monkeypatch: Any) -> None:
    calls: list[str] = []
    monkeypatch.setattr("django.db.close_old_connections", lambda: calls.append("closed old"))
    connections_as_a_request(task=_task(True))
    assert calls == []


def test_the_handler_is_connected_before_and_after_each_task() -> None:
    for signal in (task_prerun, task_postrun):
        receivers = [r() if isinstance(r, weakref.ReferenceType) else r for _, r in signal.receivers]
        assert celery_module.connections_as_a_request in receivers, signal
