"""Issue 14, the round clock and a safe close (tournaments/services/closing.py; docs/decisions.md, "The clock
and closing"): the clock set at publishing, read with ``now=``, moved and called by hand, and the hand
services refusing a new game once time is called; the close preview (what every unfinished board becomes
under each time-called policy, writing nothing) and closing from its token; reopening the last round
(every row closing touched back as it was) and its refusals; ``round_start``'s refusals of a round that
skips rounds and of a Swiss past its planned rounds; the standings after closing and after reopening.

Most tests play ``closing_helpers.ClosingEvent``: round 1 of ten pairs with a board at 6-7 in game 1, one at
5-9 in game 2 after 1-0 (the issue's example), one won 2-0 by play but unconfirmed, one won and confirmed,
and one seated with no hand.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.closing_helpers import (
    A2_B2,
    A4,
    B4,
    ClosingEvent,
    board_at,
    boards_state,
    database,
    fresh,
    game_of,
    games_state,
    hand,
    minutes,
    play,
    play_and_close,
    set_round_minutes,
    state,
)
from tests.tournaments.factories import (
    current_game,
    make_board,
    make_entries,
    make_organiser,
    make_round,
    make_tournament,
    make_user,
    seat,
    win_game,
)
from tests.tournaments.test_tournament_e2e import eager_celery  # noqa: F401 - a fixture
from tournaments.models import (
    AuditEvent,
    Board,
    Game,
    Hand,
    OutboxMessage,
    Round,
    StandingsSnapshot,
    Tournament,
)
from tournaments.services import (
    Conflict,
    NotAllowed,
    ValidationFailed,
    game_confirm,
    hand_correct,
    round_call_time,
    round_clock,
    round_clock_set,
    round_close,
    round_close_preview,
    round_publish,
    round_reopen,
    round_start,
    tournament_standings_recompute,
    tournament_update,
)
from tournaments.services.closing import time_is_called
from tournaments.services.standings import standings_input

pytestmark = pytest.mark.django_db

PORT_OF_SPAIN = timedelta(hours=-4)  # America/Port_of_Spain: UTC-4 all year (no summer time)


def clocked_round(boards: int = 1, round_minutes: int | None = 30) -> tuple[Tournament, Round, Any, list[Board]]:
    """A tournament with ``round_minutes``, round 1 in play with ``boards`` seated boards, its organiser."""
    tournament = set_round_minutes(make_tournament(), round_minutes)
    organiser = make_organiser(tournament)
    e = make_entries(tournament, 2 * boards)
    round_ = make_round(tournament, [(e[2 * i], e[2 * i + 1]) for i in range(boards)])
    seated = [seat(board_at(round_, t)) for t in range(1, boards + 1)]
    return tournament, round_, organiser, seated


def refused(code: str, call: Any, *args: Any, kind: type[Exception] = Conflict, **kwargs: Any) -> Any:
    """``call`` refuses with ``code``: the error."""
    with pytest.raises(kind) as exc:
        call(*args, **kwargs)
    assert exc.value.code == code, exc.value
    return exc.value


def result_words(board: Board) -> str:
    """A closed board's result in the preview's words (every counted game is confirmed once closed)."""
    games = f"{board.bullseyes_a}-{board.bullseyes_b} in games"
    if board.is_draw:
        return f"drawn, {games}"
    return f"pair {'AB'[board.winner]} wins {games}"


# ---- the clock -----------------------------------------------------------------------------------------
def test_publishing_with_round_minutes_starts_the_clock_and_it_reads_time_left_in_the_venues_zone():
    tournament = set_round_minutes(make_tournament(), 45)
    a, b = make_entries(tournament, 2)
    drafted = make_round(tournament, [(a, b)], status="drafted")
    assert drafted.ends_at is None  # no clock before publishing
    round_ = fresh(round_publish(round=drafted))
    assert round_.published_at is not None
    assert round_.ends_at == round_.published_at + minutes(45)

    clock = round_clock(round_, now=round_.published_at + minutes(10))
    assert (clock.ends_at, clock.seconds_left, clock.time_called) == (round_.ends_at, 35 * 60, False)
    assert clock.zone == "America/Port_of_Spain"
    assert clock.ends_local == (round_.ends_at + PORT_OF_SPAIN).strftime("%H:%M")
    assert clock.as_dict() == {"ends_at": round_.ends_at.isoformat(), "seconds_left": 35 * 60,
                               "time_called": False, "ends_local": clock.ends_local,
                               "time_zone": "America/Port_of_Spain"}
    assert round_clock(round_, now=round_.ends_at - timedelta(seconds=1)).time_called is False
    at_limit = round_clock(round_, now=round_.ends_at)
    assert (at_limit.seconds_left, at_limit.time_called) == (0, True)
    later = round_clock(round_, now=round_.ends_at + minutes(20))
    assert (later.seconds_left, later.time_called) == (0, True)
    assert time_is_called(tournament.pk, 1, now=round_.ends_at)
    assert not time_is_called(tournament.pk, 1, now=round_.ends_at - timedelta(seconds=1))


def test_no_clock_without_round_minutes_and_play_is_never_stopped_by_one():
    tournament, round_, organiser, (board,) = clocked_round(round_minutes=None)
    assert round_.ends_at is None
    clock = round_clock(round_, now=timezone.now() + timedelta(days=3))
    assert (clock.ends_at, clock.seconds_left, clock.time_called) == (None, None, False)
    assert clock.as_dict()["ends_at"] is None
    assert not time_is_called(tournament.pk, 1, now=timezone.now() + timedelta(days=3))
    win_game(board, to=0)
    play(board, [A4])  # the next game starts: no clock, no limit


def test_the_organiser_extends_and_shortens_the_clock_from_now_and_calls_time():
    tournament, round_, organiser, _ = clocked_round()
    before = timezone.now()
    extended = round_clock_set(round=round_, minutes=50, user=organiser)
    after = timezone.now()
    assert before + minutes(50) <= fresh(round_).ends_at == extended.ends_at <= after + minutes(50)
    assert not round_clock(fresh(round_)).time_called

    shortened = round_clock_set(round=round_, minutes=5, user=organiser)
    assert shortened.ends_at < extended.ends_at
    assert 4 * 60 < round_clock(fresh(round_)).seconds_left <= 5 * 60

    before = timezone.now()
    called = round_call_time(round=round_, user=organiser)
    assert before <= called.ends_at <= timezone.now()
    clock = round_clock(fresh(round_))
    assert (clock.seconds_left, clock.time_called) == (0, True)
    assert round_clock_set(round=round_, minutes=600, user=organiser).ends_at > timezone.now() + minutes(599)

    audits = list(AuditEvent.objects.filter(action="round.clock", object_id=str(round_.pk)).order_by("id"))
    assert len(audits) == 4
    assert audits[0].before == {"ends_at": (fresh(round_).published_at + minutes(30)).isoformat()}
    assert audits[0].after == {"ends_at": extended.ends_at.isoformat()}


@pytest.mark.parametrize("value", [-1, 601, "10", 2.5, True, None])
def test_the_clock_takes_whole_minutes_from_0_to_600(value):
    _, round_, organiser, _ = clocked_round()
    ends = fresh(round_).ends_at
    error = refused("minutes_invalid", round_clock_set, kind=ValidationFailed, round=round_, minutes=value,
                    user=organiser)
    assert error.fields is not None and "minutes" in error.fields
    assert "0" in error.message and "600" in error.message
    assert fresh(round_).ends_at == ends


def test_only_the_organiser_moves_the_clock_of_a_round_in_play():
    tournament, round_, organiser, _ = clocked_round()
    with pytest.raises(NotAllowed):
        round_clock_set(round=round_, minutes=10, user=make_user())
    with pytest.raises(NotAllowed):
        round_call_time(round=round_, user=make_user())
    a, b = make_entries(tournament, 2)
    round_close(round=round_, user=organiser, token=round_close_preview(round=round_, user=organiser).token)
    drafted = make_round(tournament, [(a, b)], status="drafted")
    for which in (round_, drafted):
        error = refused("round_not_open", round_clock_set, round=which, minutes=10, user=organiser)
        assert f"Round {which.number}" in error.message
        refused("round_not_open", round_call_time, round=which, user=organiser)


def test_once_time_is_called_no_new_game_starts_but_the_game_in_play_finishes():
    tournament, round_, organiser, (playing, waiting) = clocked_round(boards=2)
    play(playing, [A4, A4, A4])  # game 1 at 12-0
    round_call_time(round=round_, user=organiser)

    error = refused("time_called", play, waiting, [A4])  # a game not begun does not begin
    assert "Time has been called" in error.message
    assert error.current is not None and error.current["status"]  # the board's state comes with it
    assert not Hand.objects.filter(game__board=waiting).exists()

    last = play(playing, [A4])[0]  # the hand in play finishes its game
    assert last.winner == 0 and game_of(playing, 1).status == "finished"
    assert current_game(playing).number == 2
    refused("time_called", play, playing, [A4])  # game 2 would be a new game
    assert game_of(playing, 2).last_hand_number == 0

    round_clock_set(round=round_, minutes=10, user=organiser)  # the organiser gives more time
    play(waiting, [A4])
    play(playing, [A4])


def test_a_hand_in_a_started_game_is_taken_after_time_is_called_even_in_game_2():
    _, round_, organiser, (board,) = clocked_round()
    win_game(board, to=1, hands=2)
    play(board, [A4])  # game 2 begun before time is called
    round_call_time(round=round_, user=organiser)
    play(board, [B4, A4])
    assert game_of(board, 2).last_hand_number == 3


def test_a_closed_round_reads_as_time_called():
    _, round_, organiser, _ = clocked_round()
    round_close(round=round_, user=organiser, token=round_close_preview(round=round_, user=organiser).token)
    clock = round_clock(fresh(round_))
    assert (clock.seconds_left, clock.time_called) == (0, True)


# ---- the preview ---------------------------------------------------------------------------------------
EXPECTED = {
    # table: (becomes, changes) per policy
    "award": {
        1: ("pair B wins 0-1 in games", ["game 1 (6-7) awarded to pair B, ahead when time was called"]),
        2: ("drawn, 1-1 in games", ["game 2 (5-9) awarded to pair B, ahead when time was called"]),
        3: ("pair A wins 2-0 in games", ["game 1 (14-0) confirmed", "game 2 (14-0) confirmed"]),
        5: ("drawn, 0-0 in games", []),
    },
    "void": {
        1: ("drawn, 0-0 in games", ["game 1 (6-7) voided"]),
        2: ("pair A wins 1-0 in games", ["game 2 (5-9) voided"]),
        3: ("pair A wins 2-0 in games", ["game 1 (14-0) confirmed", "game 2 (14-0) confirmed"]),
        5: ("drawn, 0-0 in games", []),
    },
}


@pytest.mark.parametrize("policy", ["award", "void"])
def test_the_preview_says_what_every_unfinished_board_becomes_and_writes_nothing(policy):
    event = ClosingEvent(time_called=policy, round_minutes=30)
    round_call_time(round=event.round, user=event.organiser)
    before = database()
    plan = event.preview()
    assert database() == before  # nothing written, not even an audit row

    by_table = {item.table: item for item in plan.boards}
    assert sorted(by_table) == [1, 2, 3, 5]  # table 4 is finished and confirmed: closing leaves it alone
    assert {t: (item.becomes, item.changes) for t, item in by_table.items()} == EXPECTED[policy]
    assert not any(item.undecided for item in plan.boards)
    t1 = by_table[1]
    e = event.entries
    assert (t1.board_id, t1.pair_a, t1.pair_b) == (event.t1.pk, str(e[0].pair), str(e[1].pair))

    t1g1, t2g2, t3g1, t3g2, t5g1 = (game_of(event.t1, 1), game_of(event.t2, 2), game_of(event.t3, 1),
                                    game_of(event.t3, 2), game_of(event.t5, 1))
    assert plan.confirm == [t3g1.pk, t3g2.pk]
    if policy == "award":
        assert (plan.award, plan.void) == ({t1g1.pk: 1, t2g2.pk: 1}, [t5g1.pk])
    else:
        assert (plan.award, plan.void) == ({}, [t1g1.pk, t2g2.pk, t5g1.pk])
    assert (plan.disputed, plan.blocking) == (0, [])
    data = plan.as_dict()
    assert data["round"] == 1 and data["token"] == plan.token and len(plan.token) == 16
    assert (data["games_to_confirm"], data["games_awarded"], data["games_voided"]) == (
        (2, 2, 1) if policy == "award" else (2, 0, 3))
    assert event.preview().token == plan.token  # the same state names the same token


@pytest.mark.parametrize("policy", [
    "award",
    "void",
])
def test_the_preview_says_how_each_board_stands_now(policy):
    event = ClosingEvent(time_called=policy)
    now = {item.table: item.now for item in event.preview().boards}
    assert now == {1: "0-0 in games, game 1 at 6-7", 2: "1-0 in games, game 2 at 5-9", 3: "2-0 in games",
                   5: "0-0 in games, game 1 at 0-0"}


@pytest.mark.parametrize("policy", ["award", "void"])
def test_closing_with_the_previews_token_does_exactly_what_the_preview_said(policy):
    event = ClosingEvent(time_called=policy, round_minutes=30)
    round_call_time(round=event.round, user=event.organiser)
    t4_before = boards_state(event.round)[event.t4.pk]
    t4_games = {pk: row for pk, row in games_state(event.round).items() if row["board_id"] == event.t4.pk}
    plan = event.preview()
    closed = event.close(token=plan.token)
    assert closed.status == "closed" and closed.closed_at is not None

    for item in plan.boards:  # every board became what the preview said
        assert result_words(Board.objects.get(pk=item.board_id)) == item.becomes, item.table
    games = {g.pk: g for g in Game.objects.filter(board__round=event.round)}
    for pk, ahead in plan.award.items():
        g = games[pk]
        assert (g.status, g.winner, g.awarded, g.confirmed) == ("finished", ahead, True, True)
        assert g.ended_at is not None
    for pk in plan.void:
        assert games[pk].status == "voided" and games[pk].ended_at is not None and not games[pk].confirmed
    for pk in plan.confirm:
        assert games[pk].confirmed and not games[pk].awarded
    assert Game.objects.filter(board__round=event.round, awarded=True).count() == len(plan.award)
    assert Game.objects.filter(board__round=event.round, status="voided").count() == len(plan.void)

    boards = {t: fresh(b) for t, b in zip(range(1, 6), event.boards(), strict=True)}
    for t in (1, 2, 5):  # undecided when time was called: decided by the policy
        assert boards[t].result_source == "time_called" and boards[t].decided and boards[t].all_confirmed
    for t in (3, 4):  # decided by play
        assert boards[t].result_source == "hands"
    if policy == "award":
        assert (boards[1].winner, boards[1].chalks_a, boards[1].chalks_b) == (1, 6, 7)
        assert (boards[2].is_draw, boards[2].chalks_a, boards[2].chalks_b) == (True, 19, 9)
    else:
        assert (boards[1].is_draw, boards[1].chalks_a, boards[1].chalks_b) == (True, 0, 0)
        assert (boards[2].winner, boards[2].chalks_a, boards[2].chalks_b) == (0, 14, 0)
    assert (boards[3].winner, boards[3].bullseyes_a, boards[3].all_confirmed) == (0, 2, True)
    assert boards_state(event.round)[event.t4.pk] == t4_before  # a finished, confirmed board is untouched
    assert {pk: row for pk, row in games_state(event.round).items() if row["board_id"] == event.t4.pk} == t4_games

    record = fresh(event.round).close_record
    assert record["confirmed"] == plan.confirm and record["awarded"] == sorted(plan.award)
    assert record["voided"] == plan.void
    assert record["time_called_boards"] == [event.t1.pk, event.t2.pk, event.t5.pk]
    audit = AuditEvent.objects.get(action="round.close", object_id=str(event.round.pk))
    assert audit.after["awarded_games"] == len(plan.award) and audit.after["voided_games"] == len(plan.void)
    assert OutboxMessage.objects.filter(coalesce_key=f"standings:{event.tournament.pk}").exists()


def test_a_hand_after_the_preview_makes_its_token_stale_and_closing_changes_nothing():
    event = ClosingEvent(time_called="award", round_minutes=30)
    round_call_time(round=event.round, user=event.organiser)
    plan = event.preview()
    play(event.t1, [A4])  # the hand in play (time is called, game 1 goes on): 10-7, pair A ahead now
    before = database()
    error = refused("preview_stale", round_close, round=event.round, user=event.organiser, token=plan.token)
    assert "preview" in error.message and "_" not in error.message and error.fields is None
    assert database() == before

    again = event.preview()
    assert again.token != plan.token
    t1 = next(item for item in again.boards if item.table == 1)
    assert t1.becomes == "pair A wins 1-0 in games"
    event.close(token=again.token)
    assert result_words(fresh(event.t1)) == "pair A wins 1-0 in games"


def test_a_correction_that_changes_a_games_winner_after_the_preview_makes_its_token_stale():
    board = make_board(time_called="void")
    organiser = make_organiser(board.round.tournament)
    play(board, [A2_B2] * 6)  # 12-12
    won = play(board, [A4])[0]  # pair A takes High and Low: 14-12
    assert won.winner == 0
    play(board, [A4])  # game 2 under way
    plan = round_close_preview(round=board.round, user=organiser)
    assert [item.becomes for item in plan.boards] == ["pair A wins 1-0 in games"]
    hand_correct(hand=won, record=hand(won.dealer, B4), expected_version=won.version, user=organiser)
    assert game_of(board, 1).winner == 1  # pair B won game 1 after all
    error = refused("preview_stale", round_close, round=board.round, user=organiser, token=plan.token)
    assert error  # got: closed, and the board became "pair B wins 0-1", not what the preview showed


def test_without_a_token_unconfirmed_games_are_refused_in_words_for_people_then_confirmed_on_request():
    event = ClosingEvent(time_called="void")
    before = database()
    error = refused("games_unconfirmed", round_close, round=event.round, user=event.organiser)
    assert error.fields is None
    assert "confirm_remaining" not in error.message and "token" not in error.message and "_" not in error.message
    assert "2 finished game(s)" in error.message
    assert database() == before
    event.close(confirm_remaining=True)
    assert game_of(event.t3, 1).confirmed and game_of(event.t3, 2).confirmed
    assert fresh(event.round).status == "closed"


def test_a_dispute_blocks_the_preview_and_closing_until_the_organiser_rules():
    event = ClosingEvent(time_called="award")
    disputed = game_of(event.t3, 2)
    game_confirm(game=disputed, party="b", agrees=False, reason="Low was ours", device=event.device_3)
    plan = event.preview()
    assert plan.disputed == 1 and "disputed" in plan.blocking[0]
    assert disputed.pk not in plan.confirm
    before = database()
    for kwargs in ({"token": plan.token}, {"confirm_remaining": True}, {}):
        error = refused("dispute_open", round_close, round=event.round, user=event.organiser, **kwargs)
        assert "disputed" in error.message
    assert database() == before
    event.confirm(disputed)  # the organiser rules
    event.close()
    assert fresh(event.round).status == "closed"


def test_a_knockout_preview_names_a_level_board_and_closing_it_is_refused():
    board = make_board(pairing_system="knockout")
    organiser = make_organiser(board.round.tournament)
    win_game(board, to=0, hands=2)
    win_game(board, to=1, hands=2)  # 1-1, game 3 not begun
    plan = round_close_preview(round=board.round, user=organiser)
    assert plan.boards[0].undecided and "table 1 is level" in plan.blocking[0]
    before = database()
    refused("match_undecided", round_close, round=board.round, user=organiser, token=plan.token)
    assert database() == before


def test_preview_and_close_need_the_organiser_and_a_round_in_play():
    event = ClosingEvent()
    for call in (round_close_preview, round_close):
        with pytest.raises(NotAllowed):
            call(round=event.round, user=make_user())
    event.close()
    refused("round_not_open", round_close_preview, round=event.round, user=event.organiser)
    refused("round_not_open", round_close, round=event.round, user=event.organiser, confirm_remaining=True)


# ---- reopening -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["award", "void"])
def test_reopening_puts_back_every_row_closing_touched_and_the_round_closes_again(policy):
    event = ClosingEvent(time_called=policy, round_minutes=30)
    before = state(event.round)
    closed = event.close()
    after_close = state(event.round)
    assert after_close["round"]["status"] == "closed"
    assert after_close["games"] != before["games"] and after_close["boards"] != before["boards"]

    reopened = round_reopen(round=closed, user=event.organiser)
    assert reopened.status == "in_play"
    again = state(event.round)
    assert again["games"] == before["games"]  # status, winner, awarded, confirmed, ended_at, score
    assert again["confirmations"] == before["confirmations"]
    assert again["boards"] == before["boards"]  # results, all_confirmed, result_source
    assert again["round"] == before["round"]  # status, closed_at (none), ends_at
    for number in (1, 2):  # finished by play before closing: its own end time, kept
        g = game_of(event.t3, number)
        assert g.ended_at is not None and g.ended_at == before["games"][g.pk]["ended_at"]
    row = fresh(event.round)
    assert row.reopened_at is not None and row.close_record is None
    assert AuditEvent.objects.filter(action="round.reopen", object_id=str(event.round.pk)).exists()

    event.round = row
    event.close()  # from a new preview
    closed_again = state(event.round)
    assert closed_again["boards"] == after_close["boards"]

    def settled(games: dict[int, dict[str, Any]]) -> dict[int, tuple[Any, ...]]:
        return {pk: (g["status"], g["winner"], g["awarded"], g["confirmed"]) for pk, g in games.items()}

    assert settled(closed_again["games"]) == settled(after_close["games"])


def test_play_goes_on_after_reopening_and_closing_again_settles_the_new_state():
    event = ClosingEvent(time_called="award")
    event.close()
    event.round = round_reopen(round=event.round, user=event.organiser)
    play(event.t1, [A4])  # game 1 of table 1 goes on: 10-7
    play(event.t5, [B4])  # table 5 begins (no clock)
    event.close()
    assert result_words(fresh(event.t1)) == "pair A wins 1-0 in games"
    assert result_words(fresh(event.t5)) == "pair B wins 0-1 in games"


def test_reopening_a_round_started_without_a_hand_puts_it_back_in_play():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    round_ = fresh(board.round)
    assert round_.status == "in_play"
    before = state(round_)
    round_close(round=round_, user=organiser, token=round_close_preview(round=round_, user=organiser).token)
    round_reopen(round=round_, user=organiser)
    assert state(round_) == before


def test_reopening_is_refused_once_a_later_round_is_drafted():
    event = ClosingEvent()
    event.close()
    second = round_start(tournament=event.tournament, user=event.organiser)
    assert (second.number, second.status) == (2, "drafted")
    before = database()
    error = refused("later_round", round_reopen, round=event.round, user=event.organiser)
    assert "Round 2" in error.message and "_" not in error.message
    assert database() == before


@pytest.mark.parametrize("then_confirm", [False, True])
def test_reopening_is_refused_when_a_result_closing_set_changed_since(then_confirm):
    event = ClosingEvent(time_called="void")
    event.close()
    first = Hand.objects.get(game=game_of(event.t3, 1), number=1, status="active")
    corrected = hand_correct(hand=first, record=hand(first.dealer, A2_B2), expected_version=first.version,
                             user=event.organiser)
    assert corrected.version == 2
    g = game_of(event.t3, 1)
    assert (g.status, g.winner, g.score, g.confirmed) == ("finished", 0, [14, 2], False)
    if then_confirm:  # the organiser confirms it again: the game looks as closing left it, but not its rows
        event.confirm(g)
        assert game_of(event.t3, 1).confirmed
    before = database()
    error = refused("reopen_changed", round_reopen, round=event.round, user=event.organiser)
    assert "changed since the round was closed" in error.message
    assert database() == before
    assert fresh(event.round).status == "closed"


def test_reopening_is_refused_for_a_round_not_closed_a_finished_event_and_outsiders():
    event = ClosingEvent()
    error = refused("round_not_closed", round_reopen, round=event.round, user=event.organiser)
    assert "Round 1" in error.message
    event.close()
    with pytest.raises(NotAllowed):
        round_reopen(round=event.round, user=make_user())
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.FINISHED)
    before = database()
    error = refused("tournament_finished", round_reopen, round=event.round, user=event.organiser)
    assert "finished" in error.message
    assert database() == before


# ---- starting rounds in order --------------------------------------------------------------------------
def four_pairs(**kwargs: Any) -> tuple[Tournament, Any]:
    tournament = make_tournament(**kwargs)
    make_entries(tournament, 4)
    return tournament, make_organiser(tournament)


def test_a_round_that_skips_rounds_is_refused_with_the_round_that_comes_next():
    tournament, organiser = four_pairs()
    error = refused("round_skips", round_start, tournament=tournament, number=3, user=organiser)
    assert error.message == "Round 3 cannot start yet: round 1 comes next."
    assert not Round.objects.filter(tournament=tournament).exists()
    play_and_close(round_start(tournament=tournament, user=organiser), organiser)
    error = refused("round_skips", round_start, tournament=tournament, number=4, user=organiser)
    assert error.message == "Round 4 cannot start yet: round 2 comes next."
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    assert round_start(tournament=tournament, number=2, user=organiser).number == 2


def test_a_swiss_stops_at_its_planned_rounds_until_the_organiser_plans_more():
    tournament, organiser = four_pairs()
    tournament = tournament_update(tournament=tournament, user=organiser, rounds_planned=2)
    for _ in range(2):
        play_and_close(round_start(tournament=tournament, user=organiser), organiser)
    for number in (None, 3):
        error = refused("rounds_planned_reached", round_start, tournament=tournament, number=number, user=organiser)
        assert error.message == ("All 2 planned rounds are played. To play another, raise the rounds planned in "
                                 "the event's settings first.")
    assert Round.objects.filter(tournament=tournament).count() == 2
    tournament_update(tournament=tournament, user=organiser, rounds_planned=3)
    third = round_start(tournament=tournament, user=organiser)
    assert (third.number, third.status) == (3, "drafted")


def test_a_round_robin_is_not_held_to_rounds_planned():
    tournament, organiser = four_pairs(pairing_system="round_robin")
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=1)
    play_and_close(round_start(tournament=tournament, user=organiser), organiser)
    assert round_start(tournament=tournament, user=organiser).number == 2


# ---- the standings -------------------------------------------------------------------------------------
def latest(tournament: Tournament) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


def row_of(snapshot: StandingsSnapshot, entry: Any) -> dict[str, Any]:
    return next(r for r in snapshot.rows if r["entrant_id"] == entry.pk)


@pytest.mark.usefixtures("eager_celery")
def test_the_standings_follow_closing_and_reopening_through_the_outbox(django_capture_on_commit_callbacks):
    event = ClosingEvent(time_called="award")
    tournament, e = event.tournament, event.entries
    tournament_standings_recompute(tournament_id=tournament.pk)
    open_rows, open_digest = latest(tournament).rows, standings_input(tournament).digest()
    # only table 4 counts: the other boards are undecided or unconfirmed
    assert {r["entrant_id"] for r in open_rows if r["played"]} == {e[6].pk, e[7].pk}

    with django_capture_on_commit_callbacks(execute=True):
        event.close()
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exclude(  # the standings task ran
        task="publishing.tasks.publish_event").exists()  # (the publication message waits for its worker)
    closed = latest(tournament)
    assert closed.after_round == 1
    assert tournament_standings_recompute(tournament_id=tournament.pk) is False  # already up to date
    t1_b, t2_a, t2_b, t5_a = row_of(closed, e[1]), row_of(closed, e[2]), row_of(closed, e[3]), row_of(closed, e[8])
    assert (t1_b["wins"], t1_b["bullseyes_won"], t1_b["chalks_for"]) == (1, 1, 7)  # game 1 awarded at 6-7
    assert (t2_a["draws"], t2_a["bullseyes_won"], t2_b["bullseyes_won"]) == (1, 1, 1)  # 1-1 with the award
    assert (t5_a["draws"], t5_a["played"]) == (1, 1)
    assert sum(r["played"] for r in closed.rows) == 10

    with django_capture_on_commit_callbacks(execute=True):
        round_reopen(round=event.round, user=event.organiser)
    reopened = latest(tournament)
    assert reopened.pk != closed.pk and reopened.after_round == 0
    assert reopened.rows == open_rows
    assert standings_input(tournament).digest() == open_digest
    assert tournament_standings_recompute(tournament_id=tournament.pk) is False

    event.round = fresh(event.round)
    with django_capture_on_commit_callbacks(execute=True):
        event.close()
    assert latest(tournament).rows == closed.rows
