"""The transactional outbox (docs/decisions.md, resilience): background work survives a Redis outage.

``outbox_enqueue`` writes an ``OutboxMessage`` row in the caller's transaction and registers an
``on_commit`` hook that publishes it to Celery and marks it sent. Publishing never raises: when the broker
is down the row stays unsent (with the error) and ``outbox_sweep`` (a periodic task) publishes it later.
A ``coalesce_key`` lets one publication cover every older unsent row with the same key (a burst of
confirmations becomes one standings recomputation): the task reads the latest state anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import OutboxMessage

logger = logging.getLogger(__name__)


def outbox_enqueue(task: str, args: Sequence[Any] = (), coalesce_key: str = "") -> OutboxMessage:
    """Write an outbox row for ``task(*args)`` in the current transaction; publish it once it commits."""
    message = OutboxMessage.objects.create(task=task, args=list(args), coalesce_key=coalesce_key)
    transaction.on_commit(lambda: outbox_publish(message_id=message.pk, task=task, args=list(args),
                                                 coalesce_key=coalesce_key))
    return message


def _send(task: str, args: list[Any]) -> None:
    """Hand the task to Celery: in-process under ``task_always_eager``, else one publish to the broker
    that fails fast (one immediate retry) when the broker is down, instead of kombu's default retries
    (about 6 s per publish, measured by the Redis drill), so a Redis outage never stalls a request."""
    from config.celery import app

    registered = app.tasks.get(task)
    if registered is None:  # the task modules are not imported yet in this process: Celery's autodiscovery
        app.loader.import_default_modules()
        registered = app.tasks.get(task)
    if app.conf.task_always_eager:
        if registered is not None:
            registered.apply_async(args=args)
        return
    with app.pool.acquire(block=True) as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, interval_max=0)
        if registered is not None:
            registered.apply_async(args=args, connection=connection, retry=False)
        else:
            app.send_task(task, args=args, connection=connection, retry=False)


def outbox_publish(*, message_id: int, task: str, args: list[Any], coalesce_key: str = "") -> bool:
    """Publish one message and mark it (and older unsent rows of the same coalesce key) sent.

    Returns False, quietly, when the broker cannot be reached: the sweep will retry.
    """
    try:
        _send(task, args)
    except Exception as exc:  # noqa: BLE001 - the broker being down must never fail the request
        logger.warning("outbox: publishing %s #%s failed: %s", task, message_id, exc)
        OutboxMessage.objects.filter(pk=message_id, sent_at__isnull=True).update(
            last_error=str(exc)[:300], attempts=F("attempts") + 1
        )
        return False
    _mark_sent(message_id, task, coalesce_key)
    return True


_MARK = ("UPDATE {table} SET sent_at = %s FROM (SELECT set_config('synchronous_commit', 'off', true)) AS lazy "
         "WHERE sent_at IS NULL AND {where}")


def _mark_sent(message_id: int, task: str, coalesce_key: str) -> None:
    """Mark the message (with a coalesce key: it and the older unsent rows of that key) sent.

    Losing this mark in a crash only publishes the message again (tasks are idempotent), so it need not wait
    for its own WAL flush: the change's commit already paid for durability. On PostgreSQL, outside a
    transaction (the usual case: an ``on_commit`` hook), it is one statement that turns the flush off for
    its own implicit transaction (``set_config(..., true)``), where BEGIN, SET LOCAL, UPDATE and COMMIT were
    four round trips on every hand and confirmation."""
    now = timezone.now()
    if connection.vendor == "postgresql" and connection.get_autocommit() and not connection.in_atomic_block:
        table = connection.ops.quote_name(OutboxMessage._meta.db_table)
        if coalesce_key:
            sql = _MARK.format(table=table, where="coalesce_key = %s AND task = %s AND id <= %s")
            params: list[Any] = [now, coalesce_key, task, message_id]
        else:
            sql, params = _MARK.format(table=table, where="id = %s"), [now, message_id]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return
    covered = OutboxMessage.objects.filter(sent_at__isnull=True)
    if coalesce_key:
        covered = covered.filter(coalesce_key=coalesce_key, task=task, id__lte=message_id)
    else:
        covered = covered.filter(pk=message_id)
    covered.update(sent_at=now)


def outbox_sweep(*, limit: int = 500) -> int:
    """Publish what is still unsent (Redis was down, the process died); returns how many were published.

    Rows sharing a coalesce key are published once (the newest) and marked sent together.
    """
    pending = list(
        OutboxMessage.objects.filter(sent_at__isnull=True).order_by("-id").values("id", "task", "args", "coalesce_key")[:limit]
    )
    published = 0
    seen: set[tuple[str, str]] = set()
    for row in pending:
        if row["coalesce_key"]:
            group = (row["task"], row["coalesce_key"])
            if group in seen:
                continue
            seen.add(group)
        if outbox_publish(message_id=row["id"], task=row["task"], args=row["args"], coalesce_key=row["coalesce_key"]):
            published += 1
        else:
            break  # the broker is down: stop here, the next sweep tries again
    return published
