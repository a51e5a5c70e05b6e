"""A standings recomputation holds the tournament's row without holding up the tablets (services/standings.py).

Every hand and confirmation writes an audit record naming the tournament, and PostgreSQL checks that foreign
key at commit with ``FOR KEY SHARE`` on the tournament's row. The recomputation locked that row ``FOR
UPDATE``, which conflicts with ``FOR KEY SHARE``: each tablet write committing during one (0.05-0.8 s, several a
second at a national day) waited for it. ``FOR NO KEY UPDATE`` lets the check through and still keeps two
recomputations of one tournament apart.
"""

from __future__ import annotations

import threading

import psycopg
import pytest
from django.db import connections

from tests.pg import second_connection
from tests.tournaments.factories import make_entries, make_tournament
from tournaments.models import Tournament
from tournaments.services import standings

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_recomputation_lets_a_foreign_key_check_through_and_keeps_others_out(monkeypatch: pytest.MonkeyPatch):
    tournament = make_tournament()
    make_entries(tournament, 4)
    inside, release = threading.Event(), threading.Event()
    real_input = standings.standings_input
    outcome: list[object] = []

    def slow_input(t: Tournament) -> standings.StandingsInput:
        inside.set()  # the row is locked by now: the recomputation's first statement
        release.wait(10)
        return real_input(t)

    monkeypatch.setattr(standings, "standings_input", slow_input)

    def recompute() -> None:
        try:
            outcome.append(standings.tournament_standings_recompute(tournament_id=tournament.pk))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            outcome.append(exc)
        finally:
            connections.close_all()

    worker = threading.Thread(target=recompute)
    worker.start()
    other = second_connection()
    try:
        assert inside.wait(10), "the recomputation did not start"
        other.execute("SET lock_timeout = '1s'")
        table = Tournament._meta.db_table
        # what the commit of a hand's audit record runs: answered at once, not after the recomputation
        other.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR KEY SHARE", (tournament.pk,)).fetchall()
        other.rollback()
        # a second recomputation (the publisher's, NOWAIT) still finds the row taken
        with pytest.raises(psycopg.errors.LockNotAvailable):
            other.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR NO KEY UPDATE NOWAIT", (tournament.pk,))
        other.rollback()
    finally:
        release.set()
        worker.join(15)
        other.close()
    assert outcome == [True]  # the first snapshot of the tournament was stored
