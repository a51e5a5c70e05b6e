"""``board_state``'s ``can_undo`` / ``undo_reason`` (issue 16: the server says whether undo is possible).

Each case compares the selector's answer with what ``hand_undo`` really does with ``last_hand_id``: the
tablet shows Undo enabled exactly when the service would take it.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from tournaments.models import Board, Game
from tournaments.selectors import board_state
from tournaments.services import DomainError, game_confirm, hand_undo

from .factories import make_board, make_device, make_organiser, submit, tally, win_game

pytestmark = pytest.mark.django_db


def undo_taken(board: Board) -> bool:
    """Whether ``hand_undo`` takes the board's ``last_hand_id`` (rolled back either way)."""
    state = board_state(board)
    if state["last_hand_id"] is None:
        return False
    try:
        with transaction.atomic():
            hand_undo(board=board, hand_id=state["last_hand_id"])
            transaction.set_rollback(True)
    except DomainError:
        return False
    return True


def check(board: Board) -> dict:
    state = board_state(board)
    assert state["can_undo"] is undo_taken(board), state["undo_reason"]
    assert bool(state["undo_reason"]) is not state["can_undo"]
    return state


def test_no_hand_yet_nothing_to_undo():
    state = check(make_board())
    assert state["can_undo"] is False and state["undo_reason"] == "No hand to undo yet."


def test_a_hand_in_play_can_be_undone():
    board = make_board()
    submit(board, tally(0))
    assert check(board)["can_undo"] is True


def test_a_finished_game_nobody_confirmed_can_be_reopened():
    board = make_board()
    win_game(board, to=0)
    assert check(board)["can_undo"] is True  # game 2 has no hand: the undo reaches back into game 1


def test_a_game_one_pair_confirmed_cannot_be_undone():
    board = make_board()
    win_game(board, to=0)
    game_confirm(game=Game.objects.get(board=board, number=1), party="a", device=make_device(board))
    state = check(board)
    assert state["can_undo"] is False and "Game 1 is confirmed" in state["undo_reason"]


def test_a_disputed_game_cannot_be_undone():
    board = make_board()
    win_game(board, to=0)
    game_confirm(game=Game.objects.get(board=board, number=1), party="b", agrees=False, reason="High was ours",
                 device=make_device(board))
    state = check(board)
    assert state["can_undo"] is False and "disputed" in state["undo_reason"]


def test_a_decided_and_confirmed_board_cannot_be_undone():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    win_game(board, to=0)
    win_game(board, to=0)
    for game in Game.objects.filter(board=board):
        game_confirm(game=game, party="organiser", user=organiser)
    board.refresh_from_db()
    assert board.decided and board.all_confirmed
    state = check(board)
    assert state["can_undo"] is False and "Game 2 is confirmed" in state["undo_reason"]


def test_a_closed_round_cannot_be_undone():
    board = make_board()
    submit(board, tally(0))
    board.round.status = "closed"
    board.round.save(update_fields=["status"])
    state = check(Board.objects.get(pk=board.pk))
    assert state["can_undo"] is False and "closed" in state["undo_reason"]
