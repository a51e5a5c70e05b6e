"""Late hands look a key up per table, as the tablet's writes do (issue 16): a tablet paired again to its table
(a new token) whose queued hand its old token already stored must not file that hand as a late hand, and the
same late entry sent again under the new token is not stored twice."""

from __future__ import annotations

import secrets

import pytest
from django.utils import timezone

from tests.tournaments.factories import make_board, tally
from tournaments.models import Device, IdempotencyRecord, LateHand
from tournaments.services.devices import digest
from tournaments.services.late_hands import late_hand_submit

pytestmark = pytest.mark.django_db
PATH = "/api/v1/tablet/boards/1/hands"


def device_for(board, *, revoked: bool = False) -> tuple[Device, str]:
    token = secrets.token_hex(16)
    device = Device.objects.create(tournament_id=board.round.tournament_id, table=board.table, token_digest=digest(token),
                                   token_prefix=token[:8], revoked_at=timezone.now() if revoked else None)
    return device, token


def entry(key: str, board) -> dict:
    return {"key": key, "board": board.pk, "reason": "round_closed",
            "payload": {"kind": "hand", "game": 1, "number": 1, "hand": tally(0), "label": "Game 1, hand 1"}}


def test_a_hand_the_old_token_stored_is_already_on_the_server_for_the_new_token():
    board = make_board()
    old, _ = device_for(board, revoked=True)
    IdempotencyRecord.objects.create(device=old, key="k-1", request_hash="h", status_code=201, response={})
    new, token = device_for(board, revoked=True)  # paired again, then refused for good (round closed)
    _, rows, already = late_hand_submit(token=token, entries=[entry("k-1", board), entry("k-2", board)])
    assert already == ["k-1"]
    assert [r.key for r in rows] == ["k-2"] and LateHand.objects.count() == 1


def test_a_late_entry_the_old_token_filed_is_not_filed_again_by_the_new_token():
    board = make_board()
    old, old_token = device_for(board, revoked=True)
    late_hand_submit(token=old_token, entries=[entry("k-3", board)])
    new, token = device_for(board, revoked=True)
    _, rows, already = late_hand_submit(token=token, entries=[entry("k-3", board)])
    assert already == [] and [r.key for r in rows] == ["k-3"]
    assert LateHand.objects.count() == 1


def test_another_tables_key_is_not_taken_for_this_tables():
    board = make_board()
    other = Device.objects.create(tournament_id=board.round.tournament_id, table=board.table + 1,
                                  token_digest=digest("x" * 32), token_prefix="xxxxxxxx")
    IdempotencyRecord.objects.create(device=other, key="k-4", request_hash="h", status_code=201, response={})
    _, token = device_for(board, revoked=True)
    _, rows, already = late_hand_submit(token=token, entries=[entry("k-4", board)])
    assert already == [] and [r.key for r in rows] == ["k-4"]

