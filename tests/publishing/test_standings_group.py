"""The standings' JSON and whole table are rendered when the standings move, not on every hand
(``publishing.pages.standings_addresses``, the ``standings`` fingerprint tier).

At 1,000 pairs those two files were a third of a change's render (the JSON 191 ms of about 0.8 s of CPU,
docs/operations.md), and a hand in play never changes them: they show the latest snapshot, the rounds' and the
event's states. A new snapshot, a round closed and ``full`` (names, settings) render them again; what is
written is still what Django serves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from publishing import files, pages, publish
from tests.tournaments.factories import make_published_event
from tournaments.models import Round, StandingsSnapshot

pytestmark = pytest.mark.django_db


def _change(tournament: Any, hints: dict[str, Any]) -> publish.Outcome:
    state = publish.load_state(tournament.slug)
    state["rendered_at"], state["results_at"] = 0, 9e18  # not merged into an earlier render; results not due
    publish.save_state(tournament.slug, state)
    return publish.publish_event(tournament.pk, hints)


def _served(address: str) -> bytes:
    return Client().get(address).content


def test_a_hand_in_play_leaves_the_standings_files_alone_and_a_new_snapshot_renders_them(publish_root: Path):
    tournament, live, *_ = make_published_event(8)
    publish.publish_site()  # the list of events, once: not part of a change's render
    json_address, whole_address = pages.standings_addresses(tournament.slug)
    first = _change(tournament, {"boards": [live.pk]})
    assert first.groups[0] == "standings" and first.rendered == 14
    assert files.file_for(json_address, publish_root).read_bytes() == _served(json_address)

    again = _change(tournament, {"boards": [live.pk]})  # another hand on the board: no new snapshot
    assert "standings" not in again.groups and "event" in again.groups
    assert again.rendered == 12  # the event's 6, the round's 3, the board's 3

    latest = StandingsSnapshot.objects.filter(tournament=tournament).latest("id")
    rows = list(reversed(latest.rows))  # the order changed: what a confirmed game does
    StandingsSnapshot.objects.create(tournament=tournament, after_round=latest.after_round, source_hash="new",
                                     rows=rows, clubs=latest.clubs)
    moved = _change(tournament, {"boards": [live.pk], "standings": True})
    assert moved.groups[0] == "standings" and moved.rendered == 14
    for address in (json_address, whole_address):
        assert files.file_for(address, publish_root).read_bytes() == _served(address), address


def test_a_round_closed_or_a_full_render_brings_the_standings_files_up_to_date(publish_root: Path):
    tournament, live, *_ = make_published_event(8)
    _change(tournament, {"boards": [live.pk]})
    assert "standings" not in _change(tournament, {"boards": [live.pk]}).groups
    Round.objects.filter(pk=live.round_id).update(status=Round.Status.CLOSED)  # the caption says so
    closed = _change(tournament, {"rounds": [3]})
    assert "standings" in closed.groups
    json_address, whole_address = pages.standings_addresses(tournament.slug)
    assert files.file_for(whole_address, publish_root).read_bytes() == _served(whole_address)
    full = _change(tournament, {"full": True})  # a pair renamed, the tie-breaks changed: every group
    assert "standings" in full.groups
    assert files.file_for(json_address, publish_root).read_bytes() == _served(json_address)
