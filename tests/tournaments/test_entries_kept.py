"""The entries' read is kept across renders while their rows are the same (tournaments.selectors.public).

At 1,000 pairs that read is 6,000 model instances, about 100 ms of CPU, half of a standings render; names
change a few times a day. Kept only inside a render (``render_memo``) on PostgreSQL, keyed by a digest of
every column of the rows read; anything else (a rename, a new pair, a club) reads again.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import make_club, make_entries, make_tournament
from tournaments.models import Club, Entry, Pair, Player, Tournament
from tournaments.selectors import public
from tournaments.selectors.memo import render_memo

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _read(tournament: Tournament) -> tuple[dict[int, Entry], int]:
    with render_memo(), CaptureQueriesContext(connection) as queries:
        entries = public.tournament_entries(tournament)
    return entries, len(queries)


def _names(entries: dict[int, Entry]) -> list[str]:
    return sorted(e.pair.display_name for e in entries.values())


def test_a_second_render_reuses_the_read_and_any_change_to_its_rows_reads_again():
    tournament = make_tournament()
    made = make_entries(tournament, 4)
    public._kept.clear()
    first, queries = _read(tournament)
    assert queries == 2  # the digest and the read
    again, queries = _read(tournament)
    assert again is first and queries == 1  # the digest only

    pair = Pair.objects.get(pk=made[0].pair_id)
    Player.objects.filter(pk=pair.player_1_id).update(name="Renamed Player")  # no hint, no save(): the rows
    renamed, queries = _read(tournament)
    assert renamed is not first and queries == 2
    assert any("Renamed Player" in name for name in _names(renamed))

    Club.objects.filter(pk__in=[make_club("Toco").pk]).update(name="Toco AF")
    Pair.objects.filter(pk=pair.pk).update(club=Club.objects.get(name="Toco AF"))
    moved, _ = _read(tournament)
    assert moved is not renamed and moved[made[0].pk].pair.club.name == "Toco AF"

    make_entries(tournament, 2)  # a pair entered
    more, _ = _read(tournament)
    assert len(more) == 6


def test_outside_a_render_nothing_is_kept_and_a_reuse_carries_no_lazy_relation_of_the_last_render():
    tournament = make_tournament()
    make_entries(tournament, 2)
    public._kept.clear()
    outside = public.tournament_entries(tournament)
    assert public.tournament_entries(tournament) is not outside and not public._kept

    first, _ = _read(tournament)
    entry = next(iter(first.values()))
    stale = Tournament.objects.get(pk=tournament.pk)
    entry._state.fields_cache["tournament"] = stale  # what a page's lazy read left on the instance
    Tournament.objects.filter(pk=tournament.pk).update(name="Renamed Cup")
    tournament.refresh_from_db()
    again, _ = _read(tournament)
    assert again is first and again[entry.pk].tournament is tournament
    assert again[entry.pk].tournament.name == "Renamed Cup"
