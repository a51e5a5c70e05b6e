"""Celery tasks: they take ids, re-fetch, and call one service (HackSoft)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tournaments.tasks.outbox_sweep", acks_late=True, reject_on_worker_lost=True)
def outbox_sweep() -> int:
    from tournaments.services.outbox import outbox_sweep as sweep

    return sweep()


@shared_task(name="tournaments.tasks.standings_recompute", acks_late=True, reject_on_worker_lost=True)
def standings_recompute(tournament_id: int) -> None:
    return None
