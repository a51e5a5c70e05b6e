"""The published results' tasks go to a queue of their own; the outbox, standings and pairing tasks do not.

A render on the default queue held the only worker process of the drills (docs/operations.md, "Drills"):
the outbox sweep, a recomputation or a pairing waited behind publish_event, publish_results slices and the
publishing sweep. ``CELERY_TASK_ROUTES`` (config/settings/base.py) sends the three to "publish", served by
a worker of its own (docker/compose.yml ``publisher``, benchmarks/load/stack.py). No worker needed here:
Celery's router and the message the outbox would send are read directly.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.conf import settings
from kombu import Connection

from config.celery import app

PUBLISHING = ["publishing.tasks.publish_event", "publishing.tasks.publish_results", "publishing.tasks.sweep"]
DEFAULT = ["tournaments.tasks.outbox_sweep", "tournaments.tasks.standings_recompute", "tournaments.tasks.round_pair",
           "tournaments.tasks.reconcile"]


def queue_of(name: str) -> str:
    app.amqp.flush_routes()  # the routes as the settings give them now (another test may have changed them)
    return str(app.amqp.router.route({}, name)["queue"].name)


@pytest.mark.parametrize("name", PUBLISHING)
def test_publishing_tasks_go_to_the_publish_queue(name: str):
    assert settings.PUBLISH_QUEUE == "publish"
    assert queue_of(name) == "publish"


@pytest.mark.parametrize("name", DEFAULT)
def test_outbox_standings_and_pairing_stay_on_the_default_queue(name: str):
    assert queue_of(name) == app.conf.task_default_queue == "celery"


def test_every_routed_task_exists_and_the_beat_schedule_names_them():
    app.loader.import_default_modules()
    assert set(settings.CELERY_TASK_ROUTES) == set(PUBLISHING)
    assert set(PUBLISHING + DEFAULT) <= set(app.tasks)
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert queue_of("publishing.tasks.sweep") == "publish" and "publishing.tasks.sweep" in scheduled
    assert queue_of("tournaments.tasks.outbox_sweep") == "celery" and "tournaments.tasks.outbox_sweep" in scheduled


@pytest.mark.parametrize(("task", "queue"), [("publishing.tasks.publish_event", "publish"),
                                             ("tournaments.tasks.standings_recompute", "celery"),
                                             ("tournaments.tasks.round_pair", "celery")])
def test_the_outbox_sends_its_messages_by_the_routes(monkeypatch: pytest.MonkeyPatch, task: str, queue: str):
    """What ``outbox._send`` hands the broker when not eager: the message's routing key is the route's queue."""
    from tournaments.services import outbox

    sent: list[dict[str, Any]] = []

    def capture(producer: Any, name: str, message: Any, **options: Any) -> None:
        sent.append({"name": name, **options})

    class Pool:  # the broker: kombu's in-memory transport
        def acquire(self, block: bool = True) -> Any:
            return contextlib.closing(Connection("memory://"))

    monkeypatch.setattr(type(app), "pool", property(lambda self: Pool()))
    monkeypatch.setattr(app.amqp, "send_task_message", capture)
    app.amqp.flush_routes()
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        outbox._send(task, [1])
    finally:
        app.conf.task_always_eager = eager
    assert [(s["name"], s["queue"].name) for s in sent] == [(task, queue)]
