"""One outbox message per change to public output: the published results (docs/adr/0013).

Every service that changes what a spectator sees (a hand, a confirmation, a round's state, settings, names,
paper results, a withdrawal, prizes, finishing, publishing or deleting the event) calls ``public_change``
once, in its own transaction. The message names the ``publishing`` app's task by its name only (this
package never imports ``publishing``, which sits above api and web); the task renders the event's public
pages and their JSON to files, merging bursts (at most one render per page per second).

A service that calls others (a team forfeit forfeits each board; an import enters each pair) still sends
one message per tournament and transaction: a later change in the same transaction merges its hints into
the message already waiting for the commit.

The hints say what to render besides the event's own pages: a board, a round, or everything (``full``:
names, settings, publication, finishing change every page). ``standings`` asks the render to bring the
standings up to date first (the recomputation is keyed by its input: a no-op when the standings task
already ran), so a worker rendering in parallel with that task never publishes the old table.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments.models import OutboxMessage

from .outbox import outbox_enqueue, outbox_publish

PUBLISH_TASK = "publishing.tasks.publish_event"


def public_change(
    tournament_id: int, *, board_id: int | None = None, round_number: int | None = None, full: bool = False,
    standings: bool = False, slug: str = "",
) -> None:
    """Enqueue the publication of a tournament's public output after this transaction commits.

    ``slug`` is needed only where the tournament may be gone when the task runs (its deletion): the task
    withdraws that slug's files.
    """
    hints: dict[str, Any] = {}
    if board_id is not None:
        hints["boards"] = [board_id]
    if round_number is not None:
        hints["rounds"] = [round_number]
    if full:
        hints["full"] = True
    if standings:
        hints["standings"] = True
    if slug:
        hints["slug"] = slug
    connection = transaction.get_connection()
    waiting: dict[int, tuple[int, dict[str, Any], Any]] = connection.__dict__.setdefault("hangjack_public_changes", {})
    if connection.in_atomic_block and tournament_id in waiting:
        message_id, queued, hook = waiting[tournament_id]
        if any(item[1] is hook for item in connection.run_on_commit):  # still waiting for this commit
            merged = merge_hints(queued, hints)
            queued.clear()
            queued.update(merged)  # the waiting hook publishes this very dict
            OutboxMessage.objects.filter(pk=message_id).update(args=[tournament_id, merged])
            return
    message = outbox_enqueue(PUBLISH_TASK, [tournament_id, hints], coalesce_key=f"publish:{tournament_id}")
    if connection.in_atomic_block and connection.run_on_commit:
        waiting[tournament_id] = (message.pk, hints, connection.run_on_commit[-1][1])


def public_change_row(tournament_id: int, *, board_id: int) -> OutboxMessage:
    """A hand's message as an unsaved row, for the hot path to write with the hand (``rows_write``: on
    PostgreSQL in the same one statement, no extra round trip); published once the transaction commits."""
    hints: dict[str, Any] = {"boards": [board_id]}
    key = f"publish:{tournament_id}"
    message = OutboxMessage(task=PUBLISH_TASK, args=[tournament_id, hints], coalesce_key=key)
    transaction.on_commit(lambda: outbox_publish(message_id=message.pk, task=PUBLISH_TASK,
                                                 args=[tournament_id, hints], coalesce_key=key))
    return message


def merge_hints(*many: dict[str, Any]) -> dict[str, Any]:
    """Several changes' hints as one: boards and rounds together, ``full`` and ``standings`` if any asks."""
    merged: dict[str, Any] = {}
    for hints in many:
        for key in ("boards", "rounds"):
            if hints.get(key):
                merged[key] = sorted(set(merged.get(key, [])) | {int(v) for v in hints[key]})
        for key in ("full", "standings"):
            if hints.get(key):
                merged[key] = True
        if hints.get("slug"):
            merged["slug"] = hints["slug"]
    return merged
