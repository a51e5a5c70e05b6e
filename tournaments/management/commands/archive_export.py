"""``manage.py archive_export <slug> [-o FILE]``: the event (or league season) as one archive document
(docs/archive.md). Without ``-o`` the JSON goes to standard output. It holds no token, key or e-mail address."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services.archive import archive_export


class Command(BaseCommand):
    help = "Export an event as one archive document (JSON, docs/archive.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The event's slug (as in /t/<slug>/).")
        parser.add_argument("-o", "--output", help="The file to write (default: standard output).")
        parser.add_argument("--indent", type=int, default=None, help="Indent the JSON (default: compact).")

    def handle(self, *args: Any, slug: str, output: str | None, indent: int | None, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No event has the slug {slug!r}.")
        document = archive_export(tournament=tournament)
        text = json.dumps(document, ensure_ascii=False, indent=indent) + "\n"
        if output is None or output == "-":
            self.stdout.write(text, ending="")
            return
        Path(output).write_text(text, encoding="utf-8")
        hands = len(document["hands"])
        self.stderr.write(f"Wrote {output}: {tournament.name}, {len(document['boards'])} boards, {hands} hand "
                          f"versions, {len(text.encode()) // 1024} KB.")
