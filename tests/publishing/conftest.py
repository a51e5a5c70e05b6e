"""Published results on: each test gets a fresh publish folder of its own (inside the worker's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.factories import make_entries, make_round, make_tournament, seat


@pytest.fixture
def publish_root(settings: Any, tmp_path: Path, monkeypatch: Any) -> Path:
    # Pages say "Updated HH:MM" (when made, to the minute): held still here, so comparing a file with what
    # Django serves a moment later, or two renders, never straddles a minute's turn.
    monkeypatch.setattr("web.public_words.updated_at", lambda tournament, now=None: "12:00")
    root = tmp_path / "published"
    root.mkdir()
    settings.PUBLISH_ROOT = str(root)
    settings.PUBLISH_ENABLED = True
    settings.PUBLISH_RESULTS_SECONDS = 0
    return root


@pytest.fixture
def event(db: Any, publish_root: Path) -> Any:
    """A published Swiss of four pairs (two of one club), round 1 in play on two seated boards."""
    from tests.tournaments.factories import make_club

    tournament = make_tournament()
    club = make_club("Sangre Grande")
    entries = make_entries(tournament, 2, club=club) + make_entries(tournament, 2)
    tournament.published = True
    tournament.save(update_fields=["published"])
    round_ = make_round(tournament, [(entries[0], entries[2]), (entries[1], entries[3])])
    boards = [seat(b) for b in round_.boards.order_by("table")]
    return tournament, round_, boards, entries
