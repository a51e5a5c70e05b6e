"""A scorer tablet's day through the API: pair, seat, preview, submit, undo, confirm, call for help."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Game, Hand, IdempotencyRecord

from .conftest import World
from .helpers import hands_of_game, key, play_game, post, seat

pytestmark = pytest.mark.django_db

def test_current_board_is_the_tablets_table(api: Any, world: World) -> None:
    response = api.get("/api/v1/tablet/board/", **world.auth("tablet"))
    assert response.status_code == 200, response.content
    state = response.json()
    assert state["board"] == world.board.pk and state["table"] == 1
    assert state["status"] == "waiting"
    assert state["pairs"]["a"]["entry"] == world.board.pair_a_id


def test_seating_opens_game_one(api: Any, world: World) -> None:
    response = seat(api, world)
    assert response.status_code == 200, response.content
    assert response.json()["game_number"] == 1
    assert response.json()["next_dealer"] == 0


def test_submit_a_whole_game_and_read_the_engines_events(api: Any, world: World) -> None:
    seat(api, world)
    hands = hands_of_game(seed=3)
    for number, hand in enumerate(hands, start=1):
        response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/",
                        {"game": 1, "number": number, "hand": hand})
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["number"] == number and body["game"] == 1
        assert isinstance(body["events"], list)
        assert set(body) >= {"score", "winner", "next_dealer"}
    assert body["winner"] is not None
    assert body["game_status"] == "finished"
    state = api.get("/api/v1/tablet/board/", **world.auth("tablet")).json()
    assert state["game_number"] == 2  # play goes on to game 2 without waiting for confirmation


def test_preview_stores_nothing(api: Any, world: World) -> None:
    seat(api, world)
    hand = hands_of_game(seed=5)[0]
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/preview/", {"hand": hand}, format="json",
                        **world.auth("tablet"))
    assert response.status_code == 200, response.content
    assert response.json()["hand_number"] == 1
    assert not Hand.objects.exists()


def test_same_key_same_body_replays_the_stored_answer(api: Any, world: World) -> None:
    seat(api, world)
    body = {"game": 1, "number": 1, "hand": hands_of_game(seed=7)[0]}
    k = key()
    first = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", body, idem=k)
    second = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", body, idem=k)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 1


def test_same_key_other_body_is_422(api: Any, world: World) -> None:
    seat(api, world)
    hands = hands_of_game(seed=7)
    k = key()
    post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": hands[0]}, idem=k)
    response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/",
                    {"game": 1, "number": 2, "hand": hands[1]}, idem=k)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"


def test_missing_idempotency_key_is_400(api: Any, world: World) -> None:
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/help/", {}, format="json", **world.auth("tablet"))
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]["fields"]


def test_hand_number_taken_by_another_key_is_409_with_current(api: Any, world: World) -> None:
    seat(api, world)
    hands = hands_of_game(seed=7)
    post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": hands[0]})
    response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": hands[0]})
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "hand_number_taken"
    assert error["current"]["next_hand_number"] == 2


def test_engine_refusal_is_400_with_a_hand_field(api: Any, world: World) -> None:
    seat(api, world)
    stored = IdempotencyRecord.objects.count()
    bad = {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 0, "card": "2H"},
           "low": {"side": 1, "card": "9H"}, "jack": None, "game": [10, 10]}
    response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": bad})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert all(path.startswith("hand") for path in error["fields"])
    assert IdempotencyRecord.objects.count() == stored  # refusals are not stored


def test_undo_voids_the_last_hand_once(api: Any, world: World) -> None:
    seat(api, world)
    hands = hands_of_game(seed=11)
    post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": hands[0]})
    last = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 2, "hand": hands[1]})
    response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/undo/", {"hand": last.json()["id"]})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "voided"
    again = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/undo/", {"hand": last.json()["id"]})
    assert again.status_code == 409
    listed = api.get(f"/api/v1/tablet/boards/{world.board.pk}/hands/", **world.auth("tablet")).json()
    assert [h["number"] for h in listed["results"]] == [1]


def play_game_one(api: Any, world: World, seed: int = 3) -> dict[str, Any]:
    seat(api, world)
    return play_game(api, world, seed=seed)[-1]


def test_both_pairs_confirm_a_finished_game(api: Any, world: World) -> None:
    play_game_one(api, world)
    path = f"/api/v1/tablet/boards/{world.board.pk}/confirmations/"
    a = post(api, world, path, {"game": 1, "side": "a"})
    assert a.status_code == 201, a.content
    assert a.json()["game_confirmed"] is False
    b = post(api, world, path, {"game": 1, "side": "b"})
    assert b.json()["game_confirmed"] is True
    assert Game.objects.get(board=world.board, number=1).confirmed


def test_a_refusal_puts_the_board_in_dispute(api: Any, world: World) -> None:
    play_game_one(api, world)
    path = f"/api/v1/tablet/boards/{world.board.pk}/confirmations/"
    response = post(api, world, path, {"game": 1, "side": "b", "agrees": False, "reason": "hand 4 High was ours"})
    assert response.status_code == 201, response.content
    assert api.get("/api/v1/tablet/board/", **world.auth("tablet")).json()["status"] == "disputed"
    # The organiser rules by confirming the game: the dispute ends.
    game = Game.objects.get(board=world.board, number=1)
    ruling = api.post(f"/api/v1/games/{game.pk}/confirm/", **world.auth("organiser"))
    assert ruling.status_code == 201, ruling.content
    assert api.get("/api/v1/tablet/board/", **world.auth("tablet")).json()["status"] != "disputed"


def test_calling_the_organiser(api: Any, world: World) -> None:
    response = post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/help/", None)
    assert response.status_code == 200, response.content
    assert response.json()["help_called"] is True
    cleared = api.post(f"/api/v1/boards/{world.board.pk}/help/clear/", **world.auth("organiser"))
    assert cleared.json()["help_called"] is False
