"""Hand services on the database: submit, preview, end of a game and of a board, undo, correction, void.

Each test names the rule it pins (docs/decisions.md "A board's life" unless said otherwise). Records are
hand-written tally records (tests/tournaments/factories.py): ``tally(dealer, to=s)`` is +4 to side s.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import (
    current_game,
    make_board,
    make_device,
    make_entries,
    make_organiser,
    make_round,
    misdeal,
    submit,
    tally,
    win_game,
)
from tournaments.models import AuditEvent, Board, Game, GameConfirmation, Hand, OutboxMessage, Round
from tournaments.selectors import board_state
from tournaments.services import (
    Conflict,
    NotAllowed,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
    board_results_refresh,
    board_seat,
    game_confirm,
    hand_correct,
    hand_preview,
    hand_submit,
    hand_undo,
    hand_void,
    round_close,
)
from tournaments.services import hands as hands_service

pytestmark = pytest.mark.django_db


def fresh(board: Board) -> Board:
    return Board.objects.get(pk=board.pk)


# ---- submit --------------------------------------------------------------------------------------------
def test_a_hand_is_stored_exactly_as_submitted_with_the_engines_reading():
    board = make_board()
    record = tally(0, to=1, hang_jack=True)
    hand = hand_submit(board=board, game_number=1, hand_number=1, record=record)
    hand.refresh_from_db()
    assert hand.record == record
    assert (hand.form, hand.dealer, hand.version, hand.status) == ("tally", 0, 1, "active")
    assert [e["kind"] for e in hand.events] == ["high", "low", "hang_jack", "game"]
    assert (hand.score_after, hand.winner, hand.next_dealer, hand.trump) == ([0, 7], None, 1, "H")
    game = Game.objects.get(board=board, number=1)
    assert (game.score, game.next_dealer, game.status) == ([0, 7], 1, "in_play")
    audit = AuditEvent.objects.get(action="hand.submit")
    assert audit.object_id == str(hand.pk) and audit.after["score_after"] == [0, 7]


def test_misdeal_passes_the_deal_under_trinidad_tournament_and_scores_one_to_the_opponents():
    board = make_board()
    hand = submit(board, misdeal(0))
    assert (hand.score_after, hand.next_dealer) == ([0, 1], 1)


def test_game_ends_at_the_target_and_next_game_opens_with_the_engines_next_dealer():
    board = make_board(first_dealer=1)
    hands = win_game(board, to=1)
    game1 = Game.objects.get(board=board, number=1)
    assert (game1.status, game1.winner, game1.score) == ("finished", 1, [0, 14])
    assert game1.ended_at is not None
    game2 = Game.objects.get(board=board, number=2)
    assert game2.first_dealer == hands[-1].next_dealer == 1  # dealers 1,2,3,0 -> seat 1 deals next
    assert (game2.next_dealer, game2.score, game2.status) == (1, [0, 0], "in_play")
    assert game2.rules == game1.rules  # each game stores the fully resolved options
    # Standings count confirmed games only: a game's end enqueues no recomputation, its confirmation will
    # (each hand only asks for its pages to be published).
    assert not OutboxMessage.objects.exclude(task="publishing.tasks.publish_event").exists()


def test_first_to_2_board_is_decided_by_the_second_bullseye_and_opens_no_third_game():
    board = make_board()
    win_game(board, to=0)
    win_game(board, to=1)
    win_game(board, to=0, hands=2)
    board = fresh(board)
    assert (board.decided, board.winner, board.is_draw) == (True, 0, False)
    assert board.status == "awaiting_confirmation"
    assert not Game.objects.filter(board=board, number=4).exists()
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=3, hand_number=3, record=tally(0))
    assert exc.value.code == "game_over"
    assert exc.value.current["result"]["decided"] is True


def test_games_2_format_level_is_a_draw_in_a_swiss():
    board = make_board(match_format={"kind": "games", "n": 2})
    win_game(board, to=0)
    win_game(board, to=1)
    board = fresh(board)
    assert (board.decided, board.winner, board.is_draw) == (True, None, True)


def test_knockout_match_level_after_its_games_is_decided_by_one_more_game():
    board = make_board(match_format={"kind": "games", "n": 2}, pairing_system="knockout")
    win_game(board, to=0)
    win_game(board, to=1)
    assert not fresh(board).decided
    assert current_game(board).number == 3
    win_game(board, to=1)
    board = fresh(board)
    assert (board.decided, board.winner) == (True, 1)


def test_a_hand_number_already_taken_answers_409_with_the_current_state():
    board = make_board()
    submit(board, tally(0))
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(0, to=1))
    assert exc.value.code == "hand_number_taken"
    state = exc.value.current
    assert (state["game_number"], state["next_hand_number"], state["score"]) == (1, 2, [4, 0])
    assert Hand.objects.count() == 1


def test_the_unique_active_hand_per_number_still_answers_hand_number_taken_if_the_checks_miss():
    """The database constraint, not the Python check, is what keeps one active hand per number: with the
    game's last_hand_number wrong (as a check that raced would see it) the write is refused, nothing lands."""
    board = make_board()
    submit(board, tally(0))
    Game.objects.filter(board=board, number=1).update(last_hand_number=0)
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(1, to=1))
    assert exc.value.code == "hand_number_taken"
    assert Hand.objects.count() == 1 and AuditEvent.objects.filter(action="hand.submit").count() == 1
    assert Game.objects.get(board=board, number=1).score == [4, 0]


def test_a_hand_number_beyond_the_next_is_refused_with_the_state():
    board = make_board()
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=3, record=tally(0))
    assert exc.value.code == "hand_number_ahead" and exc.value.current["next_hand_number"] == 1


def test_a_write_for_a_game_that_is_no_longer_current_is_409_and_never_lands_elsewhere():
    board = make_board()
    win_game(board, to=0)
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=5, record=tally(0))
    assert exc.value.code == "game_over"
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=3, hand_number=1, record=tally(0))
    assert exc.value.code == "stale_game" and exc.value.current["game_number"] == 2
    assert Hand.objects.count() == 4


def test_hand_before_seating_is_refused_board_not_seated():
    board = make_board(first_dealer=None)
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(0))
    assert exc.value.code == "board_not_seated" and exc.value.current["status"] == "waiting"


def test_round_not_published_and_closed_round_refuse_tablet_writes():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    round_close(round=board.round, user=organiser)
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(0))
    assert exc.value.code in ("stale_board", "stale_game")
    tournament = board.round.tournament
    a, b = make_entries(tournament, 2)
    drafted = make_round(tournament, [(a, b)], status="drafted")
    with pytest.raises(Conflict) as exc:
        board_seat(board=drafted.boards.get(), seating=None, first_dealer=0)
    assert exc.value.code == "round_not_open"


def test_engine_refusal_is_400_with_the_engine_code_and_a_hand_field():
    board = make_board()
    bad = dict(tally(0), high={"side": 0, "card": "2H"}, low={"side": 0, "card": "AH"})
    with pytest.raises(ValidationFailed) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=bad)
    assert exc.value.code == "low_above_high"
    assert list(exc.value.fields) == ["hand.low.card"]
    with pytest.raises(ValidationFailed) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(2))
    assert exc.value.code == "wrong_dealer" and "hand.dealer" in exc.value.fields
    assert Hand.objects.count() == 0


def test_a_tablet_writes_only_to_the_board_at_its_own_table():
    board = make_board()
    other = make_board()
    device = make_device(other)
    with pytest.raises(NotAllowed) as exc:
        hand_submit(board=board, game_number=1, hand_number=1, record=tally(0), device=device)
    assert exc.value.code == "not_your_board"
    own = make_device(board)
    assert hand_submit(board=board, game_number=1, hand_number=1, record=tally(0), device=own).device == own


def _statements(queries: CaptureQueriesContext) -> list[str]:
    """The SQL sent, without the savepoint of the test's transaction (BEGIN/COMMIT in production)."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_hand_submit_query_count_mid_game_and_at_the_end_of_a_game():
    """Zulip habit: the hot path's statements are pinned. PostgreSQL: the lock query (which also draws the
    hand's id), then one statement writing the hand, the game and the audit event; at a game's end one more
    read (the board's games) and the board and the next game ride in the same write. SQLite: one statement
    per row. The hand's publication message (ADR 0013) is one of those rows."""
    board = make_board()
    submit(board, tally(0))
    postgres = connection.vendor == "postgresql"
    with CaptureQueriesContext(connection) as mid:
        hand_submit(board=board, game_number=1, hand_number=2, record=tally(1))
    assert len(_statements(mid)) == (2 if postgres else 5), _statements(mid)  # lock, write | lock, 4 rows
    submit(board, tally(2))
    with CaptureQueriesContext(connection) as end:
        hand_submit(board=board, game_number=1, hand_number=4, record=tally(3))
    assert len(_statements(end)) == (3 if postgres else 8), _statements(end)  # + the board's games (+ 2 rows)
    assert Game.objects.get(board=board, number=2).first_dealer == 0


BOARD_FIELDS = ("bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "decided",
                "winner", "is_draw", "all_confirmed", "disputed", "needs_review", "match_format")
GAME_FIELDS = ("number", "status", "first_dealer", "next_dealer", "score", "winner", "rules", "last_hand_number",
               "confirmed")


def _derived(board: Board) -> tuple:
    b = Board.objects.filter(pk=board.pk).values(*BOARD_FIELDS).get()
    games = list(Game.objects.filter(board=board).order_by("number", "id").values_list(*GAME_FIELDS))
    return b, games


@pytest.mark.parametrize(("fmt", "pairing_system", "winners"), [
    ({"kind": "first_to", "n": 2}, "swiss", [0, 1, 1]),
    ({"kind": "first_to", "n": 1}, "swiss", [1]),
    ({"kind": "games", "n": 2}, "swiss", [0, 1]),
    ({"kind": "games", "n": 3}, "round_robin", [1, 1, 0]),
    ({"kind": "games", "n": 2}, "knockout", [0, 1, 0]),
    ({"kind": "first_to", "n": 2}, "knockout", [1, 0, 0]),
])
def test_a_game_end_derives_the_board_as_board_results_refresh_does(fmt, pairing_system, winners, monkeypatch):
    """hand_submit derives the board at a game's end without board_results_refresh's reads of confirmations
    (a game that just ended has none): after every game end, in every match format, deriving the board in
    full changes nothing, also with an earlier game confirmed by the organiser and one refused by a pair."""

    def full_derivation(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a pairs board's game end should not need the full derivation")

    monkeypatch.setattr(hands_service, "board_after_change", full_derivation)
    board = make_board(match_format=fmt, pairing_system=pairing_system)
    organiser = make_organiser(board.round.tournament)
    for i, side in enumerate(winners):
        win_game(board, to=side, hands=2 if i % 2 else 4)
        game = Game.objects.get(board=board, number=i + 1)
        if i == 0:
            game_confirm(game=game, party="organiser", user=organiser)
        elif i == 1:
            game_confirm(game=game, party="b", agrees=False, reason="we count it otherwise", user=organiser)
        before = _derived(board)
        board_results_refresh(Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk))
        assert _derived(board) == before
    assert fresh(board).decided


def test_last_hand_number_follows_the_games_active_hands_through_undo_correction_and_void():
    board = make_board()
    organiser = make_organiser(board.round.tournament)

    def check() -> None:
        for game in Game.objects.filter(board=board).exclude(status="voided"):
            numbers = list(game.hands.filter(status="active").values_list("number", flat=True))
            assert game.last_hand_number == max(numbers, default=0), game.number

    h1 = submit(board, tally(0))
    h2 = submit(board, tally(1))
    check()
    hand_undo(board=board, hand_id=h2.pk)
    check()
    assert hand_preview(board=board, record=tally(1))["hand_number"] == 2
    submit(board, tally(1))
    submit(board, tally(2))
    last = submit(board, tally(3))  # the fourth +4 ends game 1 at 14; game 2 opens with last_hand_number 0
    check()
    hand_undo(board=board, hand_id=last.pk)  # across the end of game 1: it reopens, game 2 is voided
    check()
    corrected = hand_correct(hand=h1, record=tally(0, to=1), expected_version=1, user=organiser)
    check()
    hand_void(hand=corrected, user=organiser, with_later=True)
    check()
    assert current_game(board).last_hand_number == 0
    submit(board, tally(0))
    check()


def test_preview_is_a_dry_run_that_stores_nothing():
    board = make_board()
    submit(board, tally(0))
    reading = hand_preview(board=board, record=tally(1, to=1, hang_jack=True))
    assert (reading["game_number"], reading["hand_number"], reading["dealer"]) == (1, 2, 1)
    assert reading["score_before"] == [4, 0] and reading["result"]["score"] == [4, 7]
    assert reading["ends_game"] is False
    assert Hand.objects.count() == 1 and Game.objects.get(board=board).score == [4, 0]


# ---- undo -------------------------------------------------------------------------------------------
def test_undo_voids_the_named_last_hand_and_restores_score_and_dealer_as_a_stack():
    board = make_board()
    h1 = submit(board, tally(0))
    h2 = submit(board, tally(1, to=1))
    hand_undo(board=board, hand_id=h2.pk)
    game = current_game(board)
    assert (game.score, game.next_dealer) == ([4, 0], 1)
    with pytest.raises(Conflict) as exc:  # a double tap names the same hand: it cannot void two
        hand_undo(board=board, hand_id=h2.pk)
    assert exc.value.code == "hand_not_active"
    hand_undo(board=board, hand_id=h1.pk)
    game = current_game(board)
    assert (game.score, game.next_dealer) == ([0, 0], 0)
    assert Hand.objects.filter(status="voided").count() == 2  # nothing deleted
    again = submit(board, tally(0))
    assert again.number == 1


def test_undo_names_the_last_hand_only():
    board = make_board()
    h1 = submit(board, tally(0))
    submit(board, tally(1))
    with pytest.raises(Conflict) as exc:
        hand_undo(board=board, hand_id=h1.pk)
    assert exc.value.code == "not_last_hand"
    with pytest.raises(NotFound):
        hand_undo(board=board, hand_id=999999)


def test_undo_reaches_back_across_the_end_of_an_unconfirmed_game_and_voids_the_empty_next_game():
    board = make_board()
    hands = win_game(board, to=0)
    hand_undo(board=board, hand_id=hands[-1].pk)
    game1 = Game.objects.get(board=board, number=1)
    assert (game1.status, game1.winner, game1.ended_at, game1.score) == ("in_play", None, None, [12, 0])
    assert Game.objects.get(board=board, number=2, status="voided")
    assert board_state(board)["game_number"] == 1
    submit(board, tally(3, to=0))  # the right hand goes in again, game 2 opens again
    assert Game.objects.filter(board=board, number=2).exclude(status="voided").count() == 1


def test_undo_across_a_game_end_is_refused_once_a_pair_confirmed_it():
    board = make_board()
    hands = win_game(board, to=0)
    game_confirm(game=Game.objects.get(board=board, number=1), party="a", device=make_device(board))
    with pytest.raises(Conflict) as exc:
        hand_undo(board=board, hand_id=hands[-1].pk)
    assert exc.value.code == "undo_game_confirmed"


def test_undo_across_a_game_end_is_refused_while_the_game_is_disputed():
    board = make_board()
    hands = win_game(board, to=0)
    game_confirm(game=Game.objects.get(board=board, number=1), party="b", agrees=False, reason="wrong Low",
                 device=make_device(board))
    with pytest.raises(Conflict) as exc:
        hand_undo(board=board, hand_id=hands[-1].pk)
    assert exc.value.code == "undo_game_disputed"


def test_undo_across_a_game_end_is_refused_once_the_next_game_has_a_hand():
    board = make_board()
    hands = win_game(board, to=0)
    submit(board, tally(0))
    with pytest.raises(Conflict) as exc:
        hand_undo(board=board, hand_id=hands[-1].pk)
    assert exc.value.code == "not_last_hand"


def test_undo_of_the_deciding_hand_reopens_the_match():
    board = make_board()
    win_game(board, to=0)
    hands = win_game(board, to=0)
    assert fresh(board).decided
    hand_undo(board=board, hand_id=hands[-1].pk)
    board = fresh(board)
    assert (board.decided, board.status) == (False, "in_play")


# ---- correction and void (the organiser) ------------------------------------------------------------
def test_correction_replaces_a_hand_by_a_new_version_and_rescores_later_hands_as_recorded():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    h1 = submit(board, tally(0))
    h2 = submit(board, tally(1))
    new = hand_correct(hand=h1, record=tally(0, to=1), expected_version=1, user=organiser)
    assert (new.version, new.supersedes_id, new.score_after) == (2, h1.pk, [0, 4])
    h1.refresh_from_db()
    h2.refresh_from_db()
    assert h1.status == "superseded"
    assert h2.score_after == [4, 4] and h2.record == tally(1)  # rescored, record untouched
    assert current_game(board).score == [4, 4]
    assert AuditEvent.objects.filter(action="hand.correct").count() == 1


def test_correction_that_ends_the_game_sooner_is_refused_naming_the_first_hand_that_no_longer_fits():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    h1 = submit(board, tally(0))
    h2 = submit(board, tally(1))
    h3 = submit(board, tally(2))
    # hand 2 with a hang jack: 4 + 7 = 11, then hand 3 (+4) reaches 15 with Game: the game ends at hand 3
    submit(board, tally(3))
    with pytest.raises(Conflict) as exc:
        hand_correct(hand=h2, record=tally(1, hang_jack=True), expected_version=1, user=organiser)
    assert exc.value.code == "correction_breaks_later_hands"
    assert list(exc.value.fields) == ["games[1].hands[4]"]
    assert "now ends at hand 3" in exc.value.message
    assert Hand.objects.get(pk=h2.pk).status == "active"  # nothing changed
    assert exc.value.current["games"][0]["score"] == [14, 0]
    # the organiser voids the hands that no longer fit, then corrects
    last = Hand.objects.get(game__board=board, number=4, status="active")
    hand_void(hand=last, user=organiser)
    game2 = Game.objects.get(board=board, number=2)
    assert game2.status == "voided"  # game 1 no longer ended: the empty game 2 is voided
    hand_correct(hand=h2, record=tally(1, hang_jack=True), expected_version=1, user=organiser)
    game1 = Game.objects.get(board=board, number=1)
    assert (game1.status, game1.winner, game1.score) == ("finished", 0, [15, 0])
    assert Hand.objects.get(pk=h3.pk).winner == 0
    assert Game.objects.exclude(status="voided").get(board=board, number=2).first_dealer == 3
    assert Hand.objects.get(pk=h1.pk).score_after == [4, 0]


def test_correction_that_stops_a_game_ending_is_refused_while_the_next_game_has_hands():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    hands = win_game(board, to=0)
    submit(board, tally(0))
    with pytest.raises(Conflict) as exc:
        hand_correct(hand=hands[0], record=tally(0, to=1), expected_version=1, user=organiser)
    assert exc.value.code == "correction_breaks_later_hands"
    assert list(exc.value.fields) == ["games[2].hands[1]"]


def test_correction_needs_the_version_seen_and_the_same_dealer_and_an_organiser():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    h1 = submit(board, tally(0))
    with pytest.raises(PreconditionRequired):
        hand_correct(hand=h1, record=tally(0, to=1), expected_version=None, user=organiser)
    with pytest.raises(NotAllowed) as exc:
        hand_correct(hand=h1, record=tally(0, to=1), expected_version=1, user=None)
    assert exc.value.code == "not_organiser"
    with pytest.raises(ValidationFailed) as exc:
        hand_correct(hand=h1, record=tally(1, to=1), expected_version=1, user=organiser)
    assert exc.value.code == "wrong_dealer"
    hand_correct(hand=h1, record=tally(0, to=1), expected_version=1, user=organiser)
    with pytest.raises(PreconditionFailed) as exc:
        hand_correct(hand=h1, record=tally(0), expected_version=1, user=organiser)
    assert exc.value.code == "stale_version" and exc.value.current["score"] == [0, 4]


def test_correction_clears_the_confirmations_of_the_games_it_changes_and_ends_a_dispute():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    hands = win_game(board, to=0)
    device = make_device(board)
    game1 = Game.objects.get(board=board, number=1)
    game_confirm(game=game1, party="a", device=device)
    game_confirm(game=game1, party="b", agrees=False, reason="hand 1 High was theirs", device=device)
    assert fresh(board).status == "disputed"
    hand_correct(hand=hands[0], record=dict(tally(0), high={"side": 1, "card": "AH"}), expected_version=1,
                 user=organiser)
    assert GameConfirmation.objects.filter(game=game1, cleared=False).count() == 0
    assert GameConfirmation.objects.filter(game=game1, cleared=True).count() == 2  # kept for the audit
    board = fresh(board)
    assert not board.disputed
    assert Game.objects.get(pk=game1.pk).score == [15, 1]  # Game (2) overshoots: scores as recorded


def test_changing_a_confirmed_result_a_later_round_was_paired_from_flags_review_instead():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    hands = win_game(board, to=0)
    game1 = Game.objects.get(board=board, number=1)
    game_confirm(game=game1, party="organiser", user=organiser)
    tournament = board.round.tournament
    a, b = make_entries(tournament, 2)
    later = make_round(tournament, [(a, b)], status="drafted")
    hand_correct(hand=hands[0], record=dict(tally(0), high={"side": 1, "card": "AH"}), expected_version=1,
                 user=organiser)
    assert Round.objects.get(pk=later.pk).needs_review is True
    assert fresh(board).needs_review is True


def test_organiser_void_rescores_later_hands_and_refuses_when_the_dealer_order_breaks():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    h1 = submit(board, tally(0))
    h2 = submit(board, tally(1, to=1))
    with pytest.raises(Conflict) as exc:
        hand_void(hand=h1, user=organiser)
    assert exc.value.code == "correction_breaks_later_hands" and "dealer order breaks" in exc.value.message
    voided = hand_void(hand=h2, user=organiser)
    assert voided.status == "voided" and current_game(board).score == [4, 0]
    hand_void(hand=Hand.objects.get(pk=h1.pk), user=organiser, with_later=True)
    assert current_game(board).score == [0, 0]


def test_a_correction_and_the_void_of_the_hands_it_breaks_are_one_call_all_or_nothing():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    submit(board, tally(0))
    h2 = submit(board, tally(1))
    submit(board, tally(2))
    last = submit(board, tally(3))
    # void_from names the first hand that no longer fits: it and every later hand go, then the correction
    new = hand_correct(hand=h2, record=tally(1, hang_jack=True), expected_version=1, user=organiser,
                       void_from=last)
    assert new.version == 2
    assert Hand.objects.get(pk=last.pk).status == "voided"
    game1 = Game.objects.get(board=board, number=1)
    assert (game1.status, game1.score) == ("finished", [15, 0])
    # a refused correction leaves the void undone too
    h1 = Hand.objects.get(game__board=board, number=1, status="active")
    later = Hand.objects.get(game__board=board, number=3, status="active")
    with pytest.raises(ValidationFailed):
        hand_correct(hand=h1, record=tally(1), expected_version=1, user=organiser, void_from=later)
    assert Hand.objects.get(pk=later.pk).status == "active"
    other = make_board()
    stranger = submit(other, tally(0))
    with pytest.raises(ValidationFailed) as exc:
        hand_correct(hand=h1, record=tally(0), expected_version=1, user=organiser, void_from=stranger)
    assert exc.value.code == "void_from_invalid"
