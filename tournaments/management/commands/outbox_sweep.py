"""``manage.py outbox_sweep``: publish the outbox rows still unsent, once, and say how many.

Celery beat runs the same sweep every 15 seconds (``tournaments.tasks.outbox_sweep``); this command is
for an operator after a Redis outage, or where no beat runs (docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import OutboxMessage
from tournaments.services.outbox import outbox_sweep


class Command(BaseCommand):
    help = "Publish unsent outbox messages to Celery now (what the periodic sweep does)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=500, help="At most this many rows in one sweep.")

    def handle(self, *args: Any, limit: int, **options: Any) -> None:
        published = outbox_sweep(limit=limit)
        left = OutboxMessage.objects.filter(sent_at__isnull=True).count()
        self.stdout.write(f"outbox: {published} published, {left} still unsent")
        if left and not published:
            self.stderr.write("outbox: the broker could not be reached; the rows stay for the next sweep")
