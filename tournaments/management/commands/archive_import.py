"""``manage.py archive_import FILE --owner USERNAME [--organisation SLUG] [--preview]``: an archive
(docs/archive.md) imported as a new event, the account ``--owner`` its organiser, its clubs, players and pairs
in that account's personal organisation (or ``--organisation``, of which it must be a member). Every live hand
is replayed by the engine first; an archive whose results differ is refused, naming the board, and nothing is
written. ``--preview`` says what would be created and writes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Organisation
from tournaments.services.archive import archive_import_summary, archive_load, archive_preview
from tournaments.services.errors import DomainError


class Command(BaseCommand):
    help = "Import an archive (JSON, docs/archive.md) as a new event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The archive file (.json), or - for standard input.")
        parser.add_argument("--owner", required=True, help="The username of the account that organises the copy.")
        parser.add_argument("--organisation", help="The slug of the organisation its people go into (default: the "
                                                   "owner's personal organisation).")
        parser.add_argument("--preview", action="store_true", help="Say what would be created; write nothing.")

    def handle(self, *args: Any, file: str, owner: str, organisation: str | None, preview: bool,
               **options: Any) -> None:
        user = get_user_model().objects.filter(username=owner).first()
        if user is None:
            raise CommandError(f"No account has the username {owner!r}.")
        org = None
        if organisation:
            org = Organisation.objects.filter(slug=organisation).first()
            if org is None:
                raise CommandError(f"No organisation has the slug {organisation!r}.")
        try:
            raw = Path(file).read_bytes() if file != "-" else self.stdin_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from None
        try:
            document = archive_load(raw)
            if preview:
                self.stdout.write(self.describe(archive_preview(document=document, user=user, owner=org).to_dict()))
                return
            tournament, plan = archive_import_summary(document=document, user=user, owner=org)
        except DomainError as exc:
            where = "; ".join(f"{path or '(the file)'}: {text}" for path, text in (exc.fields or {}).items())
            raise CommandError(f"{exc.code}: {exc.message}" + (f" [{where}]" if where else "")) from None
        self.stdout.write(f"Imported {tournament.name} as /t/{tournament.slug}/ "
                          f"({plan.counts['boards']} boards, {plan.counts['hands']} hand versions).")

    def stdin_bytes(self) -> bytes:
        import sys

        return sys.stdin.buffer.read()

    @staticmethod
    def describe(preview: dict[str, Any]) -> str:
        counts = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in preview["counts"].items())
        people = "; ".join(f"{k}: {v['matched']} matched, {v['created']} new" for k, v in preview["people"].items())
        taken = " (its own slug is taken here)" if preview["slug_changed"] else ""
        return (f"Would import {preview['name']} as /t/{preview['slug']}/{taken} into {preview['organisation']}: {counts}. "
                f"People: {people}.")
