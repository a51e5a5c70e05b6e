"""Rounds and boards before play: seating boards from pairings, byes, publishing, seating a table, help.

Also the engine round trip: a whole simulated game submitted hand by hand (either form) ends exactly as
``scoring.score_game`` scores the same document (docs/hand-format.md: both forms score the same events).
"""

from __future__ import annotations

import pytest

from scoring import score_game
from scoring.simulate import simulate_game
from tests.tournaments.factories import (
    current_game,
    make_board,
    make_device,
    make_entries,
    make_tournament,
    submit,
    tally,
)
from tournaments import adapters
from tournaments.models import Board, BoardPair, Game, Hand, Round
from tournaments.selectors import board_for_table, board_state
from tournaments.services import (
    Conflict,
    ValidationFailed,
    board_call_help,
    board_help_clear,
    board_seat,
    round_create,
    round_pair_rotation,
    round_publish,
    round_seat_boards,
)

pytestmark = pytest.mark.django_db


def test_seating_boards_numbers_tables_copies_the_match_format_and_gives_a_bye_no_table():
    tournament = make_tournament(match_format={"kind": "games", "n": 3})
    a, b, c = make_entries(tournament, 3)
    round_ = round_create(tournament=tournament)
    boards = round_seat_boards(round=round_, pairings=[(a, b), (c, None)], explanations=["1v2", "bye"])
    assert [(x.table, x.match_format) for x in boards] == [(1, {"kind": "games", "n": 3}), (None, {"kind": "games", "n": 3})]
    assert BoardPair.objects.filter(round=round_).count() == 3
    bye = Board.objects.get(pk=boards[1].pk)
    assert (bye.decided, bye.winner, bye.status) == (True, 0, "done")
    assert Round.objects.get(pk=round_.pk).status == "drafted"


def test_a_pair_sits_at_one_board_per_round():
    tournament = make_tournament()
    a, b = make_entries(tournament, 2)
    with pytest.raises(ValidationFailed) as exc:
        round_seat_boards(round=round_create(tournament=tournament), pairings=[(a, b), (b, None)])
    assert exc.value.code == "pair_seated_twice"


def test_publishing_resolves_and_stores_the_rules_and_the_table_finds_its_board():
    tournament = make_tournament(rules={"preset": "trinidad", "game_points": 2})
    tournament.rules_resolved = {}
    tournament.save()
    entries = make_entries(tournament, 4)
    round_ = round_create(tournament=tournament)
    round_pair_rotation(round_)
    assert board_for_table(tournament=tournament, table=1) is None  # drafted: tablets do not see it
    round_publish(round=round_)
    tournament.refresh_from_db()
    assert tournament.rules_resolved["game_points"] == 2 and tournament.rules_resolved["preset"] == "trinidad"
    board = board_for_table(tournament=tournament, table=2)
    assert board is not None and board.round_id == round_.pk
    assert {board.pair_a_id, board.pair_b_id} <= {e.pk for e in entries}


def test_seating_names_pair_As_players_in_seats_0_and_2_and_can_be_redone_until_hand_1():
    board = make_board(first_dealer=None)
    a, b = board.pair_a.pair, board.pair_b.pair
    wrong = {"0": b.player_1_id, "1": a.player_1_id, "2": a.player_2_id, "3": b.player_2_id}
    with pytest.raises(ValidationFailed) as exc:
        board_seat(board=board, seating=wrong, first_dealer=0)
    assert exc.value.code == "seating_invalid" and "seating.0" in exc.value.fields
    seating = {"0": a.player_1_id, "1": b.player_1_id, "2": a.player_2_id, "3": b.player_2_id}
    board_seat(board=board, seating=seating, first_dealer=2)
    board_seat(board=board, seating=seating, first_dealer=3)  # the cut was redone
    assert Game.objects.get(board=board).first_dealer == 3
    submit(board, tally(3))
    with pytest.raises(Conflict) as exc:
        board_seat(board=board, seating=seating, first_dealer=0)
    assert exc.value.code == "board_started"


def test_the_help_call_is_a_flag_beside_the_status():
    board = make_board()
    device = make_device(board)
    board_call_help(board=board, device=device)
    state = board_state(board)
    assert (state["help_called"], state["status"]) == (True, "in_play")
    board_help_clear(board=board)
    assert board_state(board)["help_called"] is False


@pytest.mark.parametrize("form", ["tally", "play"])
@pytest.mark.parametrize("seed", [3, 11])
def test_a_simulated_game_submitted_hand_by_hand_ends_as_the_engine_scores_its_document(form, seed):
    board = make_board(first_dealer=1)
    game = simulate_game("trinidad-tournament", seed=seed, first_dealer=1, renege_rate=0.05, misdeal_rate=0.05)
    hands = game.play_hands if form == "play" else game.tally_hands
    for record in hands:
        submit(board, record)
    stored = Game.objects.get(board=board, number=1)
    doc = adapters.game_document(stored, Hand.objects.filter(game=stored, status="active").order_by("number")
                                 .values_list("record", flat=True))
    result = score_game(doc)
    assert (stored.score, stored.winner) == (list(result["score"]), result["winner"])
    assert stored.winner == game.winner and stored.score == list(game.score)
    stored_forms = {h.form for h in Hand.objects.filter(game=stored)}
    assert form in stored_forms  # a misdeal or a hand a kick ended has no cards: it is stored as tally
    assert current_game(board).number == 2
