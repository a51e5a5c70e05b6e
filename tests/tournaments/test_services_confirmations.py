"""Confirmation per game, disputes, derived board results and closing a round (docs/decisions.md)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.factories import (
    current_game,
    make_board,
    make_device,
    make_organiser,
    submit,
    tally,
    win_game,
)
from tournaments.models import Board, Game, GameConfirmation, OutboxMessage, Round
from tournaments.services import (
    Conflict,
    NotAllowed,
    ValidationFailed,
    game_confirm,
    hand_correct,
    round_close,
    round_confirm_all,
)

pytestmark = pytest.mark.django_db


def fresh(board: Board) -> Board:
    return Board.objects.get(pk=board.pk)


def game(board: Board, number: int) -> Game:
    return Game.objects.exclude(status="voided").get(board=board, number=number)


def test_a_game_counts_once_both_pairs_confirmed():
    board = make_board()
    win_game(board, to=0)
    device = make_device(board)
    game_confirm(game=game(board, 1), party="a", device=device)
    assert not game(board, 1).confirmed
    game_confirm(game=game(board, 1), party="b", device=device)
    assert game(board, 1).confirmed
    assert fresh(board).bullseyes_a == 1  # standings count confirmed games only


def test_the_organisers_confirmation_alone_counts():
    board = make_board()
    win_game(board, to=1)
    organiser = make_organiser(board.round.tournament)
    game_confirm(game=game(board, 1), party="organiser", user=organiser)
    assert game(board, 1).confirmed and fresh(board).bullseyes_b == 1
    assert OutboxMessage.objects.filter(coalesce_key=f"standings:{board.round.tournament_id}").exists()


def test_only_an_organiser_confirms_as_the_organiser_and_never_refuses():
    board = make_board()
    win_game(board, to=0)
    with pytest.raises(NotAllowed):
        game_confirm(game=game(board, 1), party="organiser", user=None)
    with pytest.raises(ValidationFailed) as exc:
        game_confirm(game=game(board, 1), party="organiser", agrees=False,
                     user=make_organiser(board.round.tournament))
    assert exc.value.code == "organiser_cannot_refuse"


def test_a_refusal_puts_the_board_in_dispute_until_the_organiser_rules_by_confirming():
    board = make_board()
    win_game(board, to=0)
    device = make_device(board)
    game_confirm(game=game(board, 1), party="b", agrees=False, reason="Low was ours", device=device)
    board = fresh(board)
    assert (board.disputed, board.status) == (True, "disputed")
    submit(board, tally(0))  # a dispute does not stop play
    game_confirm(game=game(board, 1), party="organiser", user=make_organiser(board.round.tournament))
    board = fresh(board)
    assert not board.disputed and game(board, 1).confirmed


def test_one_word_per_party_per_game_same_word_twice_is_one_row():
    board = make_board()
    win_game(board, to=0)
    device = make_device(board)
    first = game_confirm(game=game(board, 1), party="a", device=device)
    again = game_confirm(game=game(board, 1), party="a", device=device)
    assert first.pk == again.pk and GameConfirmation.objects.count() == 1
    with pytest.raises(Conflict) as exc:
        game_confirm(game=game(board, 1), party="a", agrees=False, device=device)
    assert exc.value.code == "party_already_answered"


def test_the_database_holds_one_uncleared_confirmation_per_party_per_game():
    board = make_board()
    win_game(board, to=0)
    g = game(board, 1)
    GameConfirmation.objects.create(game=g, party="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        GameConfirmation.objects.create(game=g, party="a")
    GameConfirmation.objects.filter(game=g).update(cleared=True)
    GameConfirmation.objects.create(game=g, party="a")  # a cleared row does not count


def test_a_game_in_play_cannot_be_confirmed():
    board = make_board()
    submit(board, tally(0))
    with pytest.raises(Conflict) as exc:
        game_confirm(game=current_game(board), party="a", device=make_device(board))
    assert exc.value.code == "game_not_finished"


def test_a_board_is_done_once_its_match_is_decided_and_all_its_games_confirmed():
    board = make_board()
    win_game(board, to=0, hands=2)  # two hang jacks per game
    win_game(board, to=0, hands=2)
    organiser = make_organiser(board.round.tournament)
    assert fresh(board).status == "awaiting_confirmation"
    game_confirm(game=game(board, 1), party="organiser", user=organiser)
    assert fresh(board).status == "awaiting_confirmation"
    game_confirm(game=game(board, 2), party="organiser", user=organiser)
    board = fresh(board)
    assert (board.status, board.all_confirmed, board.bullseyes_a, board.bullseyes_b) == ("done", True, 2, 0)
    assert (board.hang_jacks_a, board.hang_jacks_b) == (4, 0)
    assert (board.chalks_a, board.chalks_b) == (28, 0)


def test_chalks_count_a_kick_overshoot_as_scored():
    """docs/rules.md 2: a jack kicked at 12 makes 15, and the true total is what the chalks count."""
    board = make_board()
    for dealer in (0, 1, 2):
        submit(board, tally(dealer, to=0))
    submit(board, tally(3, to=1))
    hand = submit(board, {"dealer": 0, "kicks": ["JS"]})
    assert (hand.score_after, hand.winner) == ([15, 4], 0)
    game_confirm(game=game(board, 1), party="organiser", user=make_organiser(board.round.tournament))
    board = fresh(board)
    assert (board.chalks_a, board.chalks_b) == (15, 4)


def test_chalks_count_a_lost_game_penalty_as_the_target():
    """docs/rules.md 7: a top-five trump renege loses the game: the opponents are raised to the target."""
    board = make_board()
    submit(board, tally(0, to=0))
    hand = submit(board, dict(tally(1, to=1), penalties=[{"kind": "trump_revoke", "side": 1}]))
    assert (hand.score_after, hand.winner) == ([14, 0], 0)
    game_confirm(game=game(board, 1), party="organiser", user=make_organiser(board.round.tournament))
    assert (fresh(board).chalks_a, fresh(board).chalks_b) == (14, 0)


def test_organiser_rules_a_dispute_by_correcting_which_changes_the_game_and_its_winner():
    board = make_board()
    hands = win_game(board, to=0)
    device = make_device(board)
    organiser = make_organiser(board.round.tournament)
    game_confirm(game=game(board, 1), party="b", agrees=False, reason="hand 4 was ours", device=device)
    submit(board, tally(0))
    with pytest.raises(Conflict) as exc:  # game 2 has a hand: game 1 may not stop ending
        hand_correct(hand=hands[-1], record=tally(3, to=1), expected_version=1, user=organiser)
    assert exc.value.code == "correction_breaks_later_hands"
    assert fresh(board).disputed


# ---- bulk confirmation and closing the round ------------------------------------------------------------
def test_round_confirm_all_confirms_finished_games_and_leaves_disputes_alone():
    board = make_board()
    win_game(board, to=0)
    win_game(board, to=1)
    device = make_device(board)
    game_confirm(game=game(board, 2), party="a", agrees=False, reason="no", device=device)
    organiser = make_organiser(board.round.tournament)
    assert round_confirm_all(round=board.round, user=organiser) == 1
    assert game(board, 1).confirmed and not game(board, 2).confirmed


def test_a_round_cannot_close_while_a_dispute_is_open():
    board = make_board()
    win_game(board, to=0)
    game_confirm(game=game(board, 1), party="a", agrees=False, reason="no", device=make_device(board))
    with pytest.raises(Conflict) as exc:
        round_close(round=board.round, user=make_organiser(board.round.tournament), confirm_remaining=True)
    assert exc.value.code == "dispute_open"


def test_closing_asks_for_unconfirmed_games_to_be_confirmed_first_or_in_bulk():
    board = make_board()
    win_game(board, to=0)
    organiser = make_organiser(board.round.tournament)
    with pytest.raises(Conflict) as exc:
        round_close(round=board.round, user=organiser)
    assert exc.value.code == "games_unconfirmed"
    round_close(round=board.round, user=organiser, confirm_remaining=True)
    assert game(board, 1).confirmed


def test_time_called_voids_unfinished_games_and_the_pair_with_more_bullseyes_wins_a_first_to_board():
    board = make_board()
    win_game(board, to=1)
    submit(board, tally(0, to=0))  # game 2 under way, 4-0
    organiser = make_organiser(board.round.tournament)
    closed = round_close(round=board.round, user=organiser, confirm_remaining=True)
    assert closed.status == "closed" and closed.closed_at
    assert Game.objects.get(board=board, number=2).status == "voided"
    board = fresh(board)
    assert (board.decided, board.winner, board.is_draw, board.status) == (True, 1, False, "done")


def test_time_called_award_policy_gives_an_unfinished_game_to_the_side_ahead():
    board = make_board(time_called="award")
    win_game(board, to=1)
    submit(board, tally(0, to=0))
    round_close(round=board.round, user=make_organiser(board.round.tournament), confirm_remaining=True)
    g2 = Game.objects.get(board=board, number=2)
    assert (g2.status, g2.winner, g2.awarded, g2.confirmed) == ("finished", 0, True, True)
    board = fresh(board)
    assert (board.decided, board.is_draw, board.bullseyes_a, board.bullseyes_b) == (True, True, 1, 1)


def test_time_called_level_first_to_board_is_a_draw_in_a_swiss():
    board = make_board()
    round_close(round=board.round, user=make_organiser(board.round.tournament))
    board = fresh(board)
    assert (board.decided, board.is_draw, board.winner) == (True, True, None)


def test_a_knockout_round_closes_only_when_every_match_is_decided():
    board = make_board(pairing_system="knockout")
    win_game(board, to=0)
    organiser = make_organiser(board.round.tournament)
    with pytest.raises(Conflict) as exc:
        round_close(round=board.round, user=organiser, confirm_remaining=True)
    assert exc.value.code == "match_undecided"
    assert Round.objects.get(pk=board.round_id).status == "in_play"  # nothing changed
    assert not game(board, 1).confirmed


# ---- the confirmation's statements ----------------------------------------------------------------------------
DERIVED = ("bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "decided", "winner",
           "is_draw", "all_confirmed", "disputed")


def _derived(board: Board) -> tuple:
    row = Board.objects.filter(pk=board.pk).values(*DERIVED).get()
    games = list(Game.objects.filter(board=board).order_by("number", "id").values_list("number", "status", "confirmed"))
    return row, games


@pytest.mark.parametrize("words", [
    [("a", True), ("b", True)],
    [("b", True), ("a", True), ("a", True)],
    [("a", False), ("organiser", True)],
    [("b", False), ("a", True), ("organiser", True), ("organiser", True)],
])
def test_a_confirmation_derives_the_board_as_a_full_refresh_does(words):
    """game_confirm derives the board from the words it read under the lock (no second read of them): after
    every word, deriving the board again from the database changes nothing."""
    from tournaments.services.boards import board_results_refresh

    board = make_board(match_format={"kind": "first_to", "n": 2})
    win_game(board, to=0, hands=2)
    win_game(board, to=1, hands=2)  # a game with a hang jack or not, two games to confirm
    device = make_device(board)
    organiser = make_organiser(board.round.tournament)
    for number in (1, 2):
        for party, agrees in words:
            kwargs = {"user": organiser} if party == "organiser" else {"device": device}
            game_confirm(game=game(board, number), party=party, agrees=agrees, reason="" if agrees else "no", **kwargs)
            after = _derived(board)
            board_results_refresh(Board.objects.select_related("round__tournament").get(pk=board.pk))
            assert _derived(board) == after, (number, party, agrees)


def test_a_confirmation_reads_the_words_once_and_writes_without_a_savepoint():
    """Pinned like the hand's: on PostgreSQL the games' lock, the board, the board's words, the new row, the
    game's flag, the audit event, the games again (a hand that ended the game the lock waited on created the
    next one, which the locking statement's snapshot does not hold), the hang jacks' hands, the board's
    results and two outbox rows; no second read of the words, no savepoint around the insert (the game's
    lock keeps a second tap of the same pair out)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    board = make_board()
    win_game(board, to=0)
    device = make_device(board)
    game_confirm(game=game(board, 1), party="a", device=device)
    first = game(board, 1)
    with CaptureQueriesContext(connection) as queries:
        game_confirm(game=first, party="b", device=device)
    statements = [q["sql"] for q in queries.captured_queries]
    postgres = connection.vendor == "postgresql"
    savepoints = [s for s in statements if "SAVEPOINT" in s]
    assert len(savepoints) == (2 if postgres else 4), statements  # the test's own transaction (and SQLite's)
    confirmations = [s for s in statements if "tournaments_gameconfirmation" in s and s.startswith("SELECT")]
    games = [s for s in statements if s.startswith('SELECT') and 'FROM "tournaments_game"' in s]
    assert len(confirmations) == 1 and len(games) == 2, statements
    assert len(statements) - len(savepoints) <= 11, statements
