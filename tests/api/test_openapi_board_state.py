"""Issue 16: the tablet's board state declares what the tablet reads (can_undo, undo_reason, the round clock).

Every key ``selectors.board_state`` returns is a property of the BoardState schema in the OpenAPI document
(so a generated client sees it), and the schema's example carries them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from api.serializers.boards import BoardStateSerializer
from tests.tournaments.factories import make_board, submit, tally
from tournaments.selectors import board_state


def board_state_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    document = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    return document["components"]["schemas"]["BoardState"], document["components"]["schemas"]


def test_the_board_state_schema_declares_undo_and_the_round_clock() -> None:
    schema, components = board_state_schema()
    props = schema["properties"]
    assert props["can_undo"]["type"] == "boolean"
    assert props["undo_reason"]["type"] == "string"
    clock_ref = props["clock"].get("$ref") or next(r["$ref"] for r in props["clock"].get("allOf", []))
    clock = components[clock_ref.rsplit("/", 1)[-1]]
    assert {"ends_at", "seconds_left", "time_called", "ends_local", "time_zone"} <= set(clock["properties"])
    assert {"can_undo", "undo_reason", "clock"} <= set(schema.get("required", []))


@pytest.mark.django_db
def test_every_key_of_the_board_state_is_declared() -> None:
    board = make_board()
    submit(board, tally(0, to=0))
    state = board_state(board)
    assert set(state) <= set(BoardStateSerializer().fields), set(state) - set(BoardStateSerializer().fields)
    assert state["can_undo"] is True and state["undo_reason"] == ""
    data = BoardStateSerializer(state).data
    assert set(data["clock"]) == {"ends_at", "seconds_left", "time_called", "ends_local", "time_zone"}
    assert data["can_undo"] is True
