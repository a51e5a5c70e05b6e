"""Small request helpers shared by the API tests."""

from __future__ import annotations

import uuid
from typing import Any

from scoring.simulate import simulate_game
from tournaments.models import Board

from .conftest import RULES, World


def key() -> str:
    return str(uuid.uuid4())


def post(api: Any, world: World, path: str, body: Any, who: str = "tablet", idem: str | None = None) -> Any:
    """A tablet write (with a fresh Idempotency-Key unless one is given)."""
    headers = {**world.auth(who), "HTTP_IDEMPOTENCY_KEY": idem or key()}
    return api.post(path, body, format="json", **headers)


def seating_for(board: Board) -> dict[str, int]:
    a, b = board.pair_a.pair, board.pair_b.pair
    return {"0": a.player_1_id, "1": b.player_1_id, "2": a.player_2_id, "3": b.player_2_id}


def seat(api: Any, world: World, board: Board | None = None, first_dealer: int = 0, who: str = "tablet") -> Any:
    board = board or world.board
    return post(api, world, f"/api/v1/tablet/boards/{board.pk}/seating/",
                {"seating": seating_for(board), "first_dealer": first_dealer}, who=who)


def hands_of_game(seed: int, first_dealer: int = 0) -> list[dict[str, Any]]:
    return simulate_game(RULES, seed=seed, first_dealer=first_dealer).tally_hands


def play_game(api: Any, world: World, *, seed: int = 3, game: int = 1, first_dealer: int = 0,
              board: Board | None = None, who: str = "tablet") -> list[dict[str, Any]]:
    """Submit a whole simulated game; returns the answers."""
    board = board or world.board
    answers = []
    for number, hand in enumerate(hands_of_game(seed, first_dealer), start=1):
        response = post(api, world, f"/api/v1/tablet/boards/{board.pk}/hands/",
                        {"game": game, "number": number, "hand": hand}, who=who)
        assert response.status_code == 201, response.content
        answers.append(response.json())
    return answers
