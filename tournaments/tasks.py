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


@shared_task(name="tournaments.tasks.standings_recompute", **TASK_OPTIONS, **RETRY_OPTIONS)
def standings_recompute(tournament_id: int) -> bool:
    """Recompute a tournament's standings from confirmed games (True when a new snapshot was stored).

    Reads the latest state whenever it runs, so a burst of confirmations coalesces: the outbox publishes
    one task per coalesce key when publishing was delayed, and every later run finds the same input and
    stores nothing (the snapshot is keyed by a digest of its input). The tournament row lock serializes
    recomputations of one tournament.
    """
    from tournaments.services.standings import tournament_standings_recompute

    return tournament_standings_recompute(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.round_pair", **TASK_OPTIONS, **RETRY_OPTIONS)
def round_pair(round_id: int) -> str | None:
    """Pair a pending round (Swiss, round robin or knockout) and leave it drafted; returns its status.

    Idempotent: a round already drafted (paired in-process, or by an earlier run) is left alone. A
    refusal of the pairing itself is not retried: it is recorded on the round for the organiser, who
    starts the round again once it is fixed.
    """
    from tournaments.models import Round
    from tournaments.services.errors import DomainError, NotFound
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
