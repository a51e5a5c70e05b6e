"""The hot path's lean row writes and read (services/_common.py) store and load exactly what the ORM does.

``row_insert``, ``row_update``, ``rows_write`` and ``row_fetch`` build their statements from the models'
fields instead of compiling a query per call; these tests pin that a row written or read through them is
the row ``save()`` and the ORM would write or read, on SQLite and on PostgreSQL (one statement there).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.tournaments.factories import make_board, make_device, make_user, submit, tally
from tournaments.models import AuditEvent, Game, Hand
from tournaments.services.rows import model_columns, row_fetch, row_insert, row_update, rows_write

pytestmark = pytest.mark.django_db


def columns(obj: Any) -> dict[str, Any]:
    """Every stored field of a row, read back through the ORM (the primary key and the clocks left out)."""
    skip = {"id", "created_at", "at", "started_at"}
    row = type(obj).objects.filter(pk=obj.pk).values().get()
    return {k: v for k, v in row.items() if k not in skip}


def new_hand(game: Game, number: int, **extra: Any) -> Hand:
    return Hand(game=game, number=number, record=tally(0, to=1, hang_jack=True), form="tally", dealer=0,
                events=[{"kind": "high", "side": 1}], trump="H", score_after=[0, 7], winner=None, next_dealer=1,
                **extra)


def test_row_insert_stores_what_save_stores_and_sets_the_key():
    board = make_board()
    game = Game.objects.get(board=board, number=1)
    device, user = make_device(board), make_user()
    by_orm = new_hand(game, 1, device=device, user=user, status="voided")
    by_orm.save()
    lean = new_hand(game, 2, device=device, user=user, status="voided")
    row_insert(lean)
    assert lean.pk is not None and lean.pk != by_orm.pk and not lean._state.adding
    assert columns(lean) == dict(columns(by_orm), number=2)
    assert Hand.objects.get(pk=lean.pk).created_at is not None  # auto_now_add applied
    kwargs = {"tournament_id": board.round.tournament_id, "device": device, "action": "hand.submit",
              "object_type": "hand", "object_id": "7", "before": None, "after": {"score_after": [0, 7]}}
    event_orm = AuditEvent.objects.create(**kwargs)
    event = row_insert(AuditEvent(**kwargs))
    assert columns(event) == columns(event_orm) and AuditEvent.objects.get(pk=event.pk).before is None


def test_row_update_sets_only_the_named_fields_and_refuses_a_missing_row():
    board = make_board()
    game = Game.objects.get(board=board, number=1)
    game.score, game.next_dealer, game.winner = [3, 9], 2, 1  # winner changed but not named
    row_update(game, ["score", "next_dealer"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.score, stored.next_dealer, stored.winner) == ([3, 9], 2, None)
    gone = Game(pk=10**9, score=[0, 0])
    with pytest.raises(DatabaseError):
        row_update(gone, ["score"])


def test_rows_write_is_one_statement_on_postgresql_and_stores_each_row_as_save_would():
    board = make_board()
    game = Game.objects.get(board=board, number=1)
    hand = new_hand(game, 1, status="voided")
    if connection.vendor == "postgresql":  # an insert before the last one carries its id (drawn from the sequence)
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval(pg_get_serial_sequence('tournaments_hand', 'id'))")
            hand.pk = cursor.fetchone()[0]
    else:
        row_insert(hand)
    game.score, game.ended_at = [1, 2], timezone.now()
    event = AuditEvent(tournament_id=board.round.tournament_id, action="hand.submit", object_type="hand",
                       object_id=str(hand.pk), after={"id": hand.pk, "score_after": [1, 2]})
    nxt = Game(board=board, number=2, first_dealer=1, next_dealer=1, rules=game.rules, score=[0, 0])
    writes = [(game, ["score", "ended_at"]), event, nxt]
    with CaptureQueriesContext(connection) as queries:
        rows_write([hand, *writes] if connection.vendor == "postgresql" else writes)
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 3)
    assert event.pk is not None and nxt.pk is not None
    stored = Game.objects.get(pk=game.pk)
    assert stored.score == [1, 2] and stored.ended_at is not None
    assert AuditEvent.objects.get(pk=event.pk).after == {"id": hand.pk, "score_after": [1, 2]}
    assert Hand.objects.get(pk=hand.pk).record == hand.record
    by_orm = Game(board=board, number=3, first_dealer=1, next_dealer=1, rules=game.rules, score=[0, 0])
    by_orm.save()
    assert columns(nxt) == dict(columns(by_orm), number=2)


def test_rows_write_refuses_an_update_that_meets_no_row_and_writes_nothing():
    board = make_board()
    game = Game.objects.get(board=board, number=1)
    event = AuditEvent(action="x", object_type="game", object_id="0")
    with pytest.raises(DatabaseError), transaction.atomic():
        rows_write([event, (Game(pk=10**9, score=[5, 5]), ["score"])])
    assert not AuditEvent.objects.filter(action="x").exists()
    assert Game.objects.get(pk=game.pk).score == [0, 0]


def test_row_fetch_loads_what_the_orm_loads_with_extra_columns():
    board = make_board()
    submit(board, tally(0))
    game = Game.objects.get(board=board, number=1)
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now(), confirmed=True)
    q = connection.ops.quote_name
    sql = (f"SELECT {model_columns(Game, 'g')}, b.{q('table')} FROM {q('tournaments_game')} g "
           f"JOIN {q('tournaments_board')} b ON b.id = g.board_id WHERE g.id = %s")
    fetched = row_fetch(Game, sql, [game.pk], ["board_table"])
    expected = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(fetched, field.attname) == getattr(expected, field.attname), field.name
    assert fetched.confirmed is True and fetched.board_table == 1 and not fetched._state.adding
    assert row_fetch(Game, sql, [10**9], ["board_table"]) is None
