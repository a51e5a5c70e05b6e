"""``manage.py publish [--slug SLUG]``: render every published event's pages to files now (in full), and
withdraw what is no longer published (docs/operations.md, "Publishing"): after a restore, or for events
loaded with publishing off (``make run``'s demo)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from publishing.publish import publish_full, sweep
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Render every published event's public pages and JSON to files (PUBLISH_ROOT), in full."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", help="only this event")

    def handle(self, *args: Any, slug: str | None = None, **options: Any) -> None:
        events = Tournament.objects.filter(published=True).order_by("id")
        if slug:
            events = events.filter(slug=slug)
        for tournament_id, name in events.values_list("id", "name"):
            outcome = publish_full(tournament_id)
            self.stdout.write(f"{name}: {outcome.rendered} pages rendered, {outcome.written} written, "
                              f"{outcome.removed} withdrawn in {outcome.seconds:.1f}s")
        counts = sweep()
        self.stdout.write(f"sweep: {counts.get('withdrawn', 0)} withdrawn events")
