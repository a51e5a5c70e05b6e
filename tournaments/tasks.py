"""Celery tasks: they take ids, re-fetch, and call one service (HackSoft).

Acks late, rejected on worker loss, JSON only, with the time limits of config/settings/base.py. Every
task is idempotent: publishing one twice (the outbox sweep after a crash) does no harm.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)

TASK_OPTIONS: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True}


@shared_task(name="tournaments.tasks.outbox_sweep", **TASK_OPTIONS)
def outbox_sweep() -> int:
    """Publish outbox rows still unsent (Redis was down, a process died)."""
    from tournaments.services.outbox import outbox_sweep as sweep

    return sweep()


#: Transient database errors (a dropped connection, a deadlock, a lock timeout): retried with backoff.
RETRY_OPTIONS: dict[str, Any] = {
    "autoretry_for": (OperationalError,), "retry_backoff": 2, "retry_backoff_max": 60, "retry_jitter": True,
    "max_retries": 6,
}


#: The pause between two recomputations of one tournament while confirmations keep coming (a wave of
#: finished games): at most one run at a time and one more after it (``services.coalesce``).
STANDINGS_GAP_SECONDS = 0.5


@shared_task(name="tournaments.tasks.standings_recompute", **TASK_OPTIONS, **RETRY_OPTIONS)
def standings_recompute(tournament_id: int, owner: bool = False) -> bool:
    """Recompute a tournament's standings from confirmed games (True when a new snapshot was stored).

    Reads the latest state whenever it runs, so a burst of confirmations coalesces: under a worker, calls
    during a run (or its pause) become one run after it (``services.coalesce``; ``owner``: that run); the
    outbox publishes one task per coalesce key when publishing was delayed, and a run that finds the same
    input stores nothing (the snapshot is keyed by a digest of its input). The tournament row lock
    serializes recomputations of one tournament.
    """
    from config.celery import app
    from tournaments.services.coalesce import coalesced
    from tournaments.services.standings import tournament_standings_recompute

    def run() -> bool:
        return tournament_standings_recompute(tournament_id=tournament_id)

    if app.conf.task_always_eager:  # in-process (make run, tests): nothing runs beside it
        return run()

    def again(seconds: float) -> None:
        standings_recompute.apply_async(args=[tournament_id, True], countdown=seconds, retry=False)

    # a retry (a database error) gave its lease back when it failed: it comes back as a call like any other
    owner = owner and not standings_recompute.request.retries
    _, stored = coalesced(f"standings:{tournament_id}", run, again=again, gap=STANDINGS_GAP_SECONDS, owner=owner,
                          token=str(standings_recompute.request.id or ""))
    return bool(stored)


@shared_task(name="tournaments.tasks.round_pair", **TASK_OPTIONS, **RETRY_OPTIONS)
def round_pair(round_id: int) -> str | None:
    """Pair a pending round (Swiss, round robin or knockout) and leave it drafted; returns its status.

    Idempotent: a round already drafted (paired in-process, or by an earlier run) is left alone. A
    refusal of the pairing itself is not retried: it is recorded on the round for the organiser, who
    starts the round again once it is fixed.
    """
    from tournaments.errors import DomainError, NotFound
    from tournaments.models import Round
    from tournaments.services.pairing import round_pair as pair
    from tournaments.services.pairing import round_pair_failed

    try:
        return str(pair(round_id=round_id).status)
    except NotFound:
        return None  # the round was deleted: nothing to pair
    except DomainError as exc:
        logger.warning("round_pair: round #%s refused: %s (%s)", round_id, exc.message, exc.code)
        round_pair_failed(round_id=round_id, error=exc)
        return str(Round.Status.PENDING)


#: A pending round older than this with no pairing is assumed lost (a Redis restart drops queued tasks).
STALE_PENDING_SECONDS = 120


@shared_task(name="tournaments.tasks.reconcile", **TASK_OPTIONS)
def reconcile() -> dict[str, int]:
    """Heal what a lost broker message would leave behind (beat runs it every minute).

    Redis keeps nothing on disk: a task that Redis had accepted (so the outbox marked it sent) is gone if
    Redis restarts before a worker acknowledges it. Both background jobs are idempotent, so this simply
    asks again: each running tournament's standings (a no-op when its confirmed input is unchanged) and
    the pairing of any round left pending, without a failure note, for longer than
    ``STALE_PENDING_SECONDS``.
    """
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Round, Tournament

    stale = timezone.now() - timedelta(seconds=STALE_PENDING_SECONDS)
    pending = list(
        Round.objects.filter(status=Round.Status.PENDING, feasibility_note="", paired_from__created_at__lt=stale)
        .values_list("id", flat=True)
    )
    for round_id in pending:
        round_pair.delay(round_id)
    running = list(Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("id", flat=True))
    for tournament_id in running:
        standings_recompute.delay(tournament_id)
    return {"rounds": len(pending), "tournaments": len(running)}
