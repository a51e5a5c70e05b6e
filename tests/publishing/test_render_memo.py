"""A change's render reads the event once (``tournaments.selectors.memo``): its query count does not grow
with the field, its files are still what Django serves, and the memo is off outside a render."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from publishing import files, publish
from tournaments.selectors import boards as boards_module
from tournaments.selectors import (
    latest_snapshot,
    public,
    round_boards,
    snapshots,
    standings,
    tournament_entries,
)
from tournaments.selectors.memo import active, render_memo

pytestmark = pytest.mark.django_db

#: The most queries one change's render (event pages, the live round's, one board's) may make, any size;
#: measured 2026-12-01: 37 (89 before the memo); 38 since the standings' group has a fingerprint of its own
#: (2026-12-06: a hand in play no longer renders the standings' JSON and whole table); 39 on PostgreSQL since
#: the entries' read is kept across renders (its digest, one query: the same count again once kept); 32 (33
#: on PostgreSQL) since a board's page, live part and JSON share one read of the board and its scorecard.
CHANGE_BUDGET = 33


def _event(pairs: int) -> tuple[Any, Any]:
    """A published event of ``pairs`` pairs in four clubs: two closed rounds with results, one in play with
    one game started; returns the tournament and the live board."""
    from tests.tournaments.factories import make_published_event

    tournament, live, _ids, _made, _players = make_published_event(pairs)
    return tournament, live


def _change(tournament: Any, board: Any) -> tuple[int, publish.Outcome]:
    """One change's render (a hand on ``board``), results not due; the queries it made."""
    state = publish.load_state(tournament.slug)
    state["rendered_at"], state["results_at"] = 0, 9e18
    publish.save_state(tournament.slug, state)
    with CaptureQueriesContext(connection) as queries:
        outcome = publish.publish_event(tournament.pk, {"boards": [board.pk]})
    return len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]), outcome


def test_a_changes_render_makes_as_many_queries_at_2n_pairs_as_at_n(publish_root: Path) -> None:
    small_event, small_board = _event(8)
    large_event, large_board = _event(16)
    publish.publish_site()  # the list of events, once: not part of a change's render
    small, small_outcome = _change(small_event, small_board)
    large, large_outcome = _change(large_event, large_board)
    # the first change: the standings' 2 (JSON, whole table), the event's 6 pages, the round's 3, the board's 3
    assert small_outcome.rendered == large_outcome.rendered == 14, (small_outcome, large_outcome)
    assert large == small, (small, large)
    assert large <= CHANGE_BUDGET, large


def test_a_changes_files_are_what_django_serves(publish_root: Path) -> None:
    tournament, board = _event(12)
    publish.publish_site()
    _, outcome = _change(tournament, board)
    addresses = [a for g in publish.event_groups(tournament, rounds=[3], boards=[board.pk], results=False)
                 for a in g.addresses]
    assert len(addresses) == outcome.rendered == 14
    client = Client()
    for address in addresses:
        assert files.file_for(address, publish_root).read_bytes() == client.get(address).content, address


def test_the_memo_is_off_outside_a_render_and_dropped_after_it(publish_root: Path) -> None:
    tournament, board = _event(4)
    round_ = board.round
    public._kept.clear()
    boards_module._kept_rounds.clear()
    snapshots._kept_snapshots.clear()

    def reads() -> int:
        with CaptureQueriesContext(connection) as queries:
            tournament_entries(tournament)
            round_boards(round_)
            standings(tournament, snapshot=latest_snapshot(tournament))
        return len(queries)

    reads()  # the round's tournament, loaded once on the instance
    outside = reads()
    assert not active() and reads() == outside  # nothing remembered: every call reads again
    with render_memo():
        assert active()
        first = reads()
        assert reads() == 0  # the second time, from the memo
        with render_memo():  # a nested block shares the open memo
            assert reads() == 0
        assert tournament_entries(tournament) is tournament_entries(tournament)
    # the entries read once, not by the boards and the standings again (and, on PostgreSQL, their digest, the
    # boards' digests and the newest snapshot's version: the reads kept across renders,
    # tests/tournaments/test_entries_kept.py, test_boards_kept.py and test_snapshot_kept.py)
    assert first == outside - 2 + 3 * (connection.vendor == "postgresql")
    assert not active() and reads() == outside  # dropped when the render ends
