"""The newest standings snapshot and its table are kept across renders while they are the same
(tournaments.selectors.snapshots: ``_kept_snapshot``, ``_kept_table``).

At 1,000 pairs a snapshot's rows are about 300 kB of JSON (11 ms for PostgreSQL to hand over, as long to
decode) and its table about 40 ms of CPU, in every render, while a new snapshot comes with a confirmed game
only. Kept only inside a render on PostgreSQL, by the snapshot's id and row version; a new snapshot, one
rewritten in place, other entries or other tie-breaks make them again.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import make_published_event
from tournaments.models import Entry, Player, StandingsSnapshot, Tournament
from tournaments.selectors import public, snapshots
from tournaments.selectors.memo import render_memo

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def event():
    for kept in (snapshots._kept_snapshots, snapshots._kept_tables, public._kept):
        kept.clear()
    tournament, *_ = make_published_event(6)
    yield tournament
    for kept in (snapshots._kept_snapshots, snapshots._kept_tables, public._kept):
        kept.clear()


def _read(tournament_id: int):
    tournament = Tournament.objects.get(pk=tournament_id)  # each render reads its own tournament
    with render_memo(), CaptureQueriesContext(connection) as queries:
        snapshot = snapshots.latest_snapshot(tournament)
        table = snapshots.standings(tournament, snapshot=snapshot)
    return snapshot, table, [q["sql"] for q in queries]


def _fresh(tournament_id: int):
    tournament = Tournament.objects.get(pk=tournament_id)
    return snapshots.standings(tournament)  # outside a render: read and made afresh


def _same(table, fresh):
    assert [(r.rank, r.name, r.club, r.values) for r in table.rows] == [
        (r.rank, r.name, r.club, r.values) for r in fresh.rows]
    assert table.columns == fresh.columns


def test_a_second_render_reuses_the_snapshot_and_its_table(event):
    snapshot, table, _ = _read(event.pk)
    again, table_again, sql = _read(event.pk)
    assert again is snapshot and table_again is table
    assert not any('"rows"' in q for q in sql)  # the snapshot's rows are not read again
    _same(table_again, _fresh(event.pk))


def test_a_new_snapshot_or_one_rewritten_in_place_is_read_again(event):
    snapshot, table, _ = _read(event.pk)
    newer = StandingsSnapshot.objects.create(tournament=event, after_round=snapshot.after_round,
                                             source_hash="another", rows=list(reversed(snapshot.rows)),
                                             clubs=snapshot.clubs)
    read, table_new, _ = _read(event.pk)
    assert read.pk == newer.pk and table_new is not table
    _same(table_new, _fresh(event.pk))

    rows = [dict(r) for r in newer.rows]
    rows[0]["match_points"] = 99
    StandingsSnapshot.objects.filter(pk=newer.pk).update(rows=rows)  # in place (a club merge rewrites them)
    rewritten, table_rewritten, _ = _read(event.pk)
    assert rewritten is not read and rewritten.rows[0]["match_points"] == 99
    assert table_rewritten is not table_new
    _same(table_rewritten, _fresh(event.pk))


def test_other_entries_or_tie_breaks_make_the_table_again(event):
    _snapshot, table, _ = _read(event.pk)
    entry = Entry.objects.filter(tournament=event).select_related("pair").first()
    Player.objects.filter(pk=entry.pair.player_1_id).update(name="Renamed Player")
    _s, renamed, _ = _read(event.pk)
    assert renamed is not table and any("Renamed Player" in r.name for r in renamed.rows)

    Tournament.objects.filter(pk=event.pk).update(tiebreaks=["match_points", "chalk_difference"])
    _s, other, _ = _read(event.pk)
    assert other is not renamed and [c[0] for c in other.columns] == [c[0] for c in _fresh(event.pk).columns]


def test_outside_a_render_nothing_is_kept(event):
    first = snapshots.latest_snapshot(event)
    assert snapshots.latest_snapshot(event) is not first
    assert not snapshots._kept_snapshots and not snapshots._kept_tables
