"""The archive: a whole event as one versioned JSON document, exported here and imported on another server
(docs/archive.md; the format's JSON Schema is docs/schemas/archive-v1.schema.json).

- ``export``: ``archive_export(tournament=..., user=...)`` builds the document (settings, people with local
  ids, entries, rounds, team matches, boards, games, every version of every hand in the hand format with
  who and when, confirmations, prizes and the standings it derives). No tokens, device keys, idempotency
  keys, password hashes or e-mail addresses.
- ``schema``: ``archive_validate(document)`` checks the shape against the JSON Schema.
- ``replay``: every live hand scored again by the engine (pure, before anything is written); the first
  figure that differs from the archive's refuses the import, naming the board, game and hand.
- ``people``: clubs, players and pairs matched by name within the importer's organisation, or created.
- ``import_``: ``archive_preview`` (what an import would create) and ``archive_import`` (one transaction:
  the event written, its boards, team matches and standings derived again and compared with the archive).
"""

from .export import ARCHIVE_FORMAT, ARCHIVE_VERSION, archive_export, archive_filename
from .import_ import ArchivePreview, archive_import, archive_import_summary, archive_preview
from .schema import archive_load, archive_validate

__all__ = [
    "ARCHIVE_FORMAT", "ARCHIVE_VERSION", "ArchivePreview", "archive_export", "archive_filename", "archive_import",
    "archive_import_summary", "archive_load", "archive_preview", "archive_validate",
]
