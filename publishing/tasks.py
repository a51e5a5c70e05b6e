"""Celery tasks of the published results: one per change (from the outbox) and the beat's sweep.

``publish_event`` takes the tournament's id and the change's hints (``tournaments.services.publication``);
a render within a second of the last one is deferred (``countdown``) and merged (``publishing.publish``).
Under a worker the results group renders apart, in ``publish_results`` slices (``publishing.results``).
Both tasks are idempotent: running one twice writes nothing new (unchanged files are not rewritten).
These three go to the "publish" queue (``CELERY_TASK_ROUTES`` in config/settings/base.py), served by a worker
of their own, so a render never holds up the outbox sweep, a recomputation or a pairing on the default queue.
``publish_standings`` (the standings' two files, sent by the recomputation that stored a new snapshot) stays
on the default queue: a finished game's standings go out within a second, not after the publisher's render.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)

TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True, "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,), "retry_backoff": 2, "retry_backoff_max": 30, "max_retries": 5,
}


@shared_task(name="publishing.tasks.publish_event", **TASK_OPTIONS)
def publish_event(tournament_id: int, hints: dict[str, Any] | None = None) -> dict[str, Any]:
    """Render the event's changed public pages and JSON to files (or withdraw them)."""
    from config.celery import app

    from .publish import publish_event as publish

    def defer(seconds: float) -> None:
        try:
            publish_event.apply_async(args=[tournament_id, {"deferred": True}], countdown=max(seconds, 0.05),
                                      retry=False)
        except Exception:  # noqa: BLE001 - the broker is down: the sweep publishes the pending change
            logger.warning("publishing: deferring the render of tournament #%s failed", tournament_id, exc_info=True)

    eager = app.conf.task_always_eager
    outcome = publish(tournament_id, hints, defer=None if eager else defer,
                      schedule_results=None if eager else schedule_results)
    return {"rendered": outcome.rendered, "written": outcome.written, "removed": outcome.removed,
            "deferred": outcome.deferred, "seconds": round(outcome.seconds, 3)}


def schedule_results(tournament_id: int, token: str, seconds: float) -> bool:
    """Queue a slice of the results pass ``token`` (the "publish" queue, like every task here:
    ``CELERY_TASK_ROUTES``); False when the broker refused it (the pass is forgotten; the next change or the
    sweep asks again)."""
    try:
        publish_results.apply_async(args=[tournament_id, token], countdown=max(seconds, 0.0) or None, retry=False)
    except Exception:  # noqa: BLE001 - the broker is down
        logger.warning("publishing: queueing a results slice of tournament #%s failed", tournament_id, exc_info=True)
        return False
    return True


@shared_task(name="publishing.tasks.publish_results", **TASK_OPTIONS)
def publish_results(tournament_id: int, token: str) -> dict[str, Any]:
    """One slice of an event's results pass (``publishing.results``): about a second of pages, then the rest
    queued behind whatever changes arrived meanwhile."""
    from .results import run_slice

    return run_slice(tournament_id, token, schedule_results)


@shared_task(name="publishing.tasks.publish_standings", **TASK_OPTIONS)
def publish_standings(tournament_id: int) -> dict[str, Any]:
    """Render the standings' JSON and whole table of a new snapshot, now (``publishing.publish``). Not on the
    "publish" queue: on the default one, with the recomputation that stored the snapshot, so the standings
    never wait for the publisher's render in progress and the second between its renders; the event's render
    (its standings page) is asked for after them."""
    from config.celery import app
    from tournaments.services.publication import public_change

    from .publish import publish_standings as publish

    outcome = publish(tournament_id)
    if outcome.groups and not app.conf.task_always_eager:
        # a new snapshot: the standings page and its live part show it too (the event's group), and under a
        # worker the publisher no longer recomputes the standings before its render: ask for one after this
        # (eager, the change's own render recomputed them first)
        public_change(tournament_id)
    return {"rendered": outcome.rendered, "written": outcome.written, "seconds": round(outcome.seconds, 3)}


@shared_task(name="publishing.tasks.sweep", acks_late=True, reject_on_worker_lost=True)
def sweep() -> dict[str, int]:
    """Re-render where the stored fingerprint differs; withdraw what is no longer published; under a worker,
    ask for a results pass where theirs differs."""
    from config.celery import app

    from .publish import sweep as run

    return run(schedule_results=None if app.conf.task_always_eager else schedule_results)
