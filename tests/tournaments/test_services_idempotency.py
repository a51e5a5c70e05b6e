"""Idempotent tablet writes and the transactional outbox (docs/decisions.md: idempotency, resilience)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_board, make_device, tally
from tournaments import tasks
from tournaments.models import Device, Hand, IdempotencyRecord, OutboxMessage, StandingsSnapshot
from tournaments.selectors import hand_data
from tournaments.services import (
    IdempotencyKeyReused,
    PreconditionRequired,
    ValidationFailed,
    hand_submit,
    idempotent_call,
    outbox_enqueue,
    outbox_sweep,
)
from tournaments.services import outbox as outbox_module
from tournaments.services.idempotency import idempotent_outcome, request_fingerprint

pytestmark = pytest.mark.django_db

PATH = "/api/v1/tablet/boards/1/hands"


def submit_once(board, device, key, body):
    def call():
        hand = hand_submit(
            board=board,
            game_number=body["game"],
            hand_number=body["hand"],
            record=body["record"],
            device=device,
        )
        return 201, {"hand": hand_data(hand)}

    return idempotent_call(device=device, key=key, method="POST", path=PATH, body=body, call=call)


def body(hand_number: int, record: dict) -> dict:
    return {"game": 1, "hand": hand_number, "record": record}


def test_the_same_key_and_body_returns_the_stored_answer_and_writes_once():
    board = make_board()
    device = make_device(board)
    first = submit_once(board, device, "k-1", body(1, tally(0)))
    again = submit_once(board, device, "k-1", body(1, tally(0)))
    assert first == again and first[0] == 201
    assert Hand.objects.count() == 1 and IdempotencyRecord.objects.count() == 1


def test_the_same_key_with_another_body_is_refused_as_reused():
    board = make_board()
    device = make_device(board)
    submit_once(board, device, "k-1", body(1, tally(0)))
    with pytest.raises(IdempotencyKeyReused) as exc:
        submit_once(board, device, "k-1", body(1, tally(0, to=1)))
    assert exc.value.code == "idempotency_key_reused" and exc.value.status_code == 422


def test_keys_are_per_device():
    board = make_board()
    one, other = make_device(board), make_device(make_board())
    submit_once(board, one, "k-1", body(1, tally(0)))
    IdempotencyRecord.objects.create(device=other, key="k-1", request_hash="x", status_code=201, response={})
    assert IdempotencyRecord.objects.filter(key="k-1").count() == 2


def test_a_tablet_paired_again_to_its_table_replays_a_queued_hand_the_old_token_stored():
    """Issue 16: a hand reached the server but its answer was lost; the tablet is paired again (a new
    device token) and sends its queue: the same key and body is the same write (one hand, the stored
    answer), not a refused ``hand_number_taken`` that the scorer would re-enter as a second hand."""
    from django.utils import timezone

    board = make_board()
    old = make_device(board)
    first = submit_once(board, old, "k-1", body(1, tally(0)))
    old.revoked_at = timezone.now()
    old.save(update_fields=["revoked_at"])
    new = make_device(board)  # the same table, paired again
    outcome = idempotent_outcome(device=new, key="k-1", method="POST", path=PATH, body=body(1, tally(0)),
                                 call=lambda: (500, {"error": "the write ran a second time"}))
    assert (outcome.status, outcome.body, outcome.replayed) == (*first, True)
    assert Hand.objects.count() == 1 and IdempotencyRecord.objects.count() == 1
    with pytest.raises(IdempotencyKeyReused):  # the same key with another body is still refused
        submit_once(board, new, "k-1", body(1, tally(0, to=1)))


def test_another_tables_key_is_not_replayed():
    board = make_board()
    here = make_device(board)
    other_table = Device.objects.create(tournament_id=board.round.tournament_id, table=2, token_digest="b" * 64,
                                        token_prefix="bbbbbbbb")
    IdempotencyRecord.objects.create(device=other_table, key="k-1", request_hash=request_fingerprint(
        "POST", PATH, body(1, tally(0))), status_code=201, response={"hand": "not this table's"})
    status, answer = submit_once(board, here, "k-1", body(1, tally(0)))
    assert status == 201 and answer["hand"] != "not this table's" and Hand.objects.count() == 1


def test_a_refused_write_is_not_stored_so_the_fixed_request_may_reuse_its_key():
    board = make_board()
    device = make_device(board)
    with pytest.raises(ValidationFailed):
        submit_once(board, device, "k-1", body(1, tally(1)))  # wrong dealer
    assert IdempotencyRecord.objects.count() == 0
    status, _ = submit_once(board, device, "k-1", body(1, tally(0)))
    assert status == 201


def test_a_taken_hand_number_under_another_key_is_a_409_not_a_replay():
    from tournaments.services import Conflict

    board = make_board()
    device = make_device(board)
    submit_once(board, device, "k-1", body(1, tally(0)))
    with pytest.raises(Conflict) as exc:
        submit_once(board, device, "k-2", body(1, tally(0)))
    assert exc.value.code == "hand_number_taken"


def test_the_record_commits_with_the_write_or_not_at_all():
    board = make_board()
    device = make_device(board)

    def call():
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(0), device=device)
        raise RuntimeError("the process died after the write")

    with pytest.raises(RuntimeError):
        idempotent_call(device=device, key="k-1", method="POST", path=PATH, body={}, call=call)
    assert Hand.objects.count() == 0 and IdempotencyRecord.objects.count() == 0


def test_a_key_is_required_and_short():
    board = make_board()
    device = make_device(board)
    with pytest.raises(PreconditionRequired):
        idempotent_call(device=device, key="", method="POST", path=PATH, body={}, call=lambda: (200, {}))
    with pytest.raises(ValidationFailed):
        idempotent_call(
            device=device, key="x" * 101, method="POST", path=PATH, body={}, call=lambda: (200, {})
        )


def test_the_request_hash_ignores_key_order_in_the_body():
    board = make_board()
    device = make_device(board)
    submit_once(board, device, "k-1", body(1, tally(0)))
    reordered = {"record": dict(reversed(list(tally(0).items()))), "hand": 1, "game": 1}
    assert submit_once(board, device, "k-1", reordered)[0] == 201


# ---- outbox ------------------------------------------------------------------------------------------
def test_outbox_row_is_published_on_commit_and_marked_sent(django_capture_on_commit_callbacks):
    board = make_board()
    tournament_id = board.round.tournament_id
    with django_capture_on_commit_callbacks(execute=True):
        message = outbox_enqueue(
            "tournaments.tasks.standings_recompute",
            [tournament_id],
            coalesce_key=f"standings:{tournament_id}",
        )
    message.refresh_from_db()
    assert message.sent_at is not None
    assert StandingsSnapshot.objects.filter(tournament_id=tournament_id).count() == 1


def test_broker_down_leaves_the_row_unsent_quietly_and_the_sweep_publishes_it_later(
    monkeypatch, django_capture_on_commit_callbacks
):
    board = make_board()
    tournament_id = board.round.tournament_id
    OutboxMessage.objects.all().delete()  # the set-up's own messages (its rounds' publications) are not the test

    def down(task, args):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(outbox_module, "_send", down)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            outbox_enqueue(
                "tournaments.tasks.standings_recompute",
                [tournament_id],
                coalesce_key=f"standings:{tournament_id}",
            )
    unsent = OutboxMessage.objects.filter(sent_at__isnull=True)
    assert unsent.count() == 3 and "Redis is down" in unsent.first().last_error
    assert outbox_sweep() == 0  # still down: nothing published, nothing raised
    published = []
    monkeypatch.setattr(outbox_module, "_send", lambda task, args: published.append((task, args)))
    assert outbox_sweep() == 1  # three rows with one coalesce key: one publication
    assert published == [("tournaments.tasks.standings_recompute", [tournament_id])]
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()


def test_standings_recompute_is_idempotent():
    board = make_board()
    tournament_id = board.round.tournament_id
    assert tasks.standings_recompute(tournament_id) is True
    assert tasks.standings_recompute(tournament_id) is False
    assert StandingsSnapshot.objects.filter(tournament_id=tournament_id).count() == 1


@pytest.mark.django_db(transaction=True)
def test_after_the_commit_the_sent_mark_is_one_statement_and_leaves_the_session_durable(monkeypatch):
    """An ``on_commit`` hook runs outside any transaction: the mark is one UPDATE (no BEGIN, SET LOCAL,
    COMMIT round trips) that marks the message and the older unsent rows of its key, nothing else, and turns
    the WAL flush off for its own implicit transaction only: the session's next commit waits for it again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    older = OutboxMessage.objects.create(task="t.a", args=[1], coalesce_key="k:1")
    other = OutboxMessage.objects.create(task="t.a", args=[2], coalesce_key="k:2")
    alone = OutboxMessage.objects.create(task="t.b", args=[3])
    message = OutboxMessage.objects.create(task="t.a", args=[1], coalesce_key="k:1")
    later = OutboxMessage.objects.create(task="t.a", args=[1], coalesce_key="k:1")
    monkeypatch.setattr(outbox_module, "_send", lambda task, args: None)
    assert not connection.in_atomic_block
    with CaptureQueriesContext(connection) as queries:
        assert outbox_module.outbox_publish(message_id=message.pk, task="t.a", args=[1], coalesce_key="k:1")
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 1, statements
    sent = dict(OutboxMessage.objects.values_list("pk", "sent_at"))
    assert sent[older.pk] and sent[message.pk] and not sent[other.pk] and not sent[later.pk] and not sent[alone.pk]
    with CaptureQueriesContext(connection) as queries:
        outbox_module.outbox_publish(message_id=alone.pk, task="t.b", args=[3])
    assert len(queries.captured_queries) == 1
    assert OutboxMessage.objects.get(pk=alone.pk).sent_at is not None
    if connection.vendor == "postgresql":
        assert "set_config('synchronous_commit', 'off', true)" in statements[0]
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"
