"""Issue 13, when the field changes during play, through the services (``tournaments/services/field.py``):
withdrawals (re-paired while no hand is played, forfeited in play, a knockout walkover, a club's substitute),
forfeits after the grace time and their cancellation, a club's team forfeit, absent pairs of a round robin
forfeited at publishing, late entries, and what the standings and the next Swiss draft make of a forfeit.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.tournaments.factories import make_device, make_user, seat, submit, tally, win_game
from tests.tournaments.field_helpers import (
    board_of,
    boards_of,
    byes_of,
    fresh,
    grace_over,
    history_before,
    live_games,
    opponent,
    pairs_of,
    play_and_close,
    play_to,
    side_of,
    standing,
)
from tests.tournaments.test_pairing_service import clubs_event, pairs_event
from tournaments.formats import FORFEIT_PRESETS
from tournaments.models import (
    AuditEvent,
    Board,
    BoardPair,
    Club,
    Entry,
    Game,
    Pair,
    Player,
    Round,
    TeamMatch,
    Tournament,
)
from tournaments.selectors.availability import LATE, PRESENT, round_field
from tournaments.services import (
    Conflict,
    NotAllowed,
    NotFound,
    ValidationFailed,
    entry_bye_request,
    entry_check_in,
    game_confirm,
    hand_submit,
    round_draft_swap,
    round_publish,
    round_start,
    round_start_play,
)
from tournaments.services.field import (
    board_forfeit,
    board_forfeit_cancel,
    entry_enter_late,
    entry_withdraw,
    grace_ends,
    team_match_forfeit,
)
from tournaments.services.organisations import organisation_personal

pytestmark = pytest.mark.django_db


def swiss(n: int, rounds: int = 5, **kwargs):
    tournament, entries, organiser = pairs_event(n, **kwargs)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=rounds)
    return fresh(tournament), entries, organiser


def published(round_: Round, organiser, *, play: bool = False) -> Round:
    round_publish(round=round_, user=organiser)
    if play:
        round_start_play(round=round_, user=organiser)
    return fresh(round_)


def late_pair(organiser) -> Pair:
    """A pair of the organiser's own organisation (one it may enter)."""
    owner = organisation_personal(user=organiser)
    one = Player.objects.create(name="Late One", owner=owner)
    two = Player.objects.create(name="Late Two", owner=owner)
    return Pair.objects.create(player_1=one, player_2=two, owner=owner)


# ---- withdrawals before play: only the affected boards are re-paired -----------------------------------
def test_a_withdrawal_in_a_drafted_odd_swiss_round_hands_the_opponent_the_bye_holder():
    tournament, e, organiser = swiss(5)
    round_ = round_start(tournament=tournament, user=organiser)
    before = {b.pk: (b.table, b.pair_a_id, b.pair_b_id) for b in boards_of(round_)}
    leaving = board_of(round_, e[0])
    left_alone = opponent(leaving, e[0])
    (bye_holder,) = byes_of(round_)
    report = entry_withdraw(entry=e[0], user=organiser)
    entry = fresh(e[0])
    assert entry.withdrawn and entry.withdrawn_from == 1
    board = fresh(leaving)
    assert {board.pair_a_id, board.pair_b_id} == {left_alone, bye_holder}
    assert board.table == before[leaving.pk][0] and side_of(board, bye_holder) == side_of(leaving, e[0])
    assert board.explanation.startswith("re-paired:")
    assert byes_of(round_) == [], "the bye holder's board goes"
    for pk, seated in before.items():  # every other board as it was
        if pk not in (leaving.pk,) and seated[2] is not None:
            b = Board.objects.get(pk=pk)
            assert (b.table, b.pair_a_id, b.pair_b_id) == seated
    assert not BoardPair.objects.filter(round=round_, entry=e[0]).exists()
    assert BoardPair.objects.filter(round=round_).count() == 4
    assert [(a["round"], a["kind"]) for a in report.actions] == [(1, "re-paired")]
    assert str(e[0].pair) in report.summary
    change = fresh(round_).changes[-1]
    assert change["kind"] == "withdrawal" and change["entries"] == [e[0].pk] and change["warnings"] == []
    assert AuditEvent.objects.filter(action="entry.withdraw", object_id=str(e[0].pk)).exists()
    assert fresh(round_).status == Round.Status.DRAFTED


def test_a_withdrawal_gives_the_opponent_the_bye_when_it_met_the_bye_holder():
    tournament, e, organiser = swiss(5)
    first = round_start(tournament=tournament, user=organiser)
    play_and_close(first, organiser, lambda b: 0 if b.pair_a_id < b.pair_b_id else 1)
    second = round_start(tournament=tournament, user=organiser)
    (holder,) = byes_of(second)
    met_holder = opponent(board_of(first, holder), holder)
    assert met_holder is not None, "the round 2 bye holder played in round 1"
    board = board_of(second, met_holder)
    leaving = opponent(board, met_holder)
    report = entry_withdraw(entry=leaving, user=organiser)
    board = fresh(board)
    assert (board.pair_a_id, board.pair_b_id, board.table) == (met_holder, None, None)
    assert board.result_source == Board.Source.BYE and board.decided
    assert byes_of(second) == sorted([holder, met_holder]), "two byes: the pairs had met"
    assert report.actions[0]["kind"] == "bye"
    assert Board.objects.filter(round=second, pair_b__isnull=False).count() == 1


def test_a_withdrawal_in_a_drafted_even_round_gives_the_opponent_the_bye():
    tournament, e, organiser = swiss(6)
    round_ = round_start(tournament=tournament, user=organiser)
    others = {(b.pk, b.table, b.pair_a_id, b.pair_b_id) for b in boards_of(round_) if e[2].pk not in (b.pair_a_id, b.pair_b_id)}
    board = board_of(round_, e[2])
    left = opponent(board, e[2])
    entry_withdraw(entry=e[2], user=organiser)
    assert byes_of(round_) == [left]
    board = fresh(board)
    assert board.table is None and board.explanation.startswith("a bye:")
    assert {(b.pk, b.table, b.pair_a_id, b.pair_b_id) for b in boards_of(round_) if b.pk != board.pk} == others
    # The next round is drawn without the pair, and the pair given the bye has had its bye.
    play_and_close(round_, organiser, lambda b: 0 if b.pair_a_id < b.pair_b_id else 1)
    second = round_start(tournament=tournament, user=organiser)
    assert e[2].pk not in {x for pair in pairs_of(second) for x in pair} | set(byes_of(second))
    assert len(byes_of(second)) == 1 and byes_of(second) != [left]


def test_only_the_affected_board_changes_and_the_organisers_swap_stays():
    tournament, e, organiser = swiss(7)
    round_ = round_start(tournament=tournament, user=organiser)
    (holder,) = byes_of(round_)
    boards = [b for b in boards_of(round_) if b.pair_b_id is not None]
    first, second, third = boards
    # The organiser swaps a pair of table 2 with one of table 3.
    round_draft_swap(round=round_, entry_a=second.pair_b_id, entry_b=third.pair_b_id, user=organiser)
    swapped = {b.pk: (b.table, b.pair_a_id, b.pair_b_id) for b in boards_of(round_) if b.pk in (second.pk, third.pk)}
    assert swapped[second.pk][2] == third.pair_b_id
    entry_withdraw(entry=first.pair_a_id, user=organiser)
    after = {b.pk: (b.table, b.pair_a_id, b.pair_b_id) for b in boards_of(round_)}
    assert {pk: after[pk] for pk in swapped} == swapped, "the swap stands"
    assert after[first.pk] == (first.table, holder, first.pair_b_id)
    assert len(after) == 3
    kinds = [c["kind"] for c in fresh(round_).changes]
    assert kinds == ["swap_entries", "withdrawal"]


def test_a_pair_withdrawing_from_its_bye_loses_the_bye_board():
    tournament, e, organiser = swiss(5)
    round_ = round_start(tournament=tournament, user=organiser)
    (holder,) = byes_of(round_)
    bye_board = Board.objects.get(round=round_, pair_b__isnull=True)
    before = pairs_of(round_)
    report = entry_withdraw(entry=holder, user=organiser)
    assert byes_of(round_) == [] and pairs_of(round_) == before
    assert not Board.objects.filter(pk=bye_board.pk).exists()
    assert [a["kind"] for a in report.actions] == ["bye_removed"]
    assert fresh(round_).changes[-1]["what"].endswith("its bye is removed")


def test_the_withdrawal_report_names_the_bye_board_it_removed():
    tournament, e, organiser = swiss(5)
    round_ = round_start(tournament=tournament, user=organiser)
    bye_board = Board.objects.get(round=round_, pair_b__isnull=True)
    report = entry_withdraw(entry=bye_board.pair_a_id, user=organiser)
    assert report.actions[0]["boards"] == [bye_board.pk], "the board's id, not None (read after its delete)"


def test_a_requested_bye_is_not_handed_an_opponent():
    tournament, e, organiser = swiss(5)
    entry_bye_request(entry=e[4], round_number=1, user=organiser)
    round_ = round_start(tournament=tournament, user=organiser)
    assert byes_of(round_) == [e[4].pk] and len(pairs_of(round_)) == 2
    board = board_of(round_, e[0])
    left = opponent(board, e[0])
    report = entry_withdraw(entry=e[0], user=organiser)
    assert report.actions[0]["kind"] == "bye"
    assert byes_of(round_) == sorted([e[4].pk, left]), "the requested bye stays a bye"


def test_a_withdrawal_in_a_published_round_without_a_hand_is_re_paired_as_if_drafted():
    tournament, e, organiser = swiss(5)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    (holder,) = byes_of(round_)
    leaving = board_of(round_, e[1])
    left_alone = opponent(leaving, e[1])
    report = entry_withdraw(entry=e[1], user=organiser)
    board = fresh(leaving)
    assert {board.pair_a_id, board.pair_b_id} == {left_alone, holder}
    assert board.forfeited is None and board.result_source == Board.Source.HANDS and not board.decided
    assert byes_of(round_) == [] and report.actions[0]["kind"] == "re-paired"
    assert fresh(round_).status == Round.Status.IN_PLAY
    # The new pair plays the board: seating it names its own players.
    seat(board)
    assert Game.objects.filter(board=board).count() == 1


def test_a_seated_board_re_paired_before_its_first_hand_drops_the_leavers_seating():
    """A board seated on the tablet (game 1 open, no hand yet) is still re-paired, like a drafted one; the
    seating recorded for the pair that left should not stay on it."""
    tournament, e, organiser = swiss(5)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    leaver_players = {e[0].pair.player_1_id, e[0].pair.player_2_id}
    entry_withdraw(entry=e[0], user=organiser)
    board = fresh(board)
    assert e[0].pk not in (board.pair_a_id, board.pair_b_id)
    assert not leaver_players & set((board.seating or {}).values()), "the seating still names the pair that left"


def test_a_seated_board_turned_into_a_bye_keeps_no_game_in_play():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    entry_withdraw(entry=e[0], user=organiser)
    board = fresh(board)
    assert board.is_bye and board.decided
    assert live_games(board) == [], "a bye has no game to play"


# ---- withdrawals in play: a forfeit keeping the games played ----------------------------------------------
def test_a_withdrawal_in_play_forfeits_keeping_the_game_won_and_voiding_the_game_in_play():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    leaver = side_of(board, e[0])
    stays = 1 - leaver
    win_game(board, to=stays, hands=2)  # 1-0 to the pair that stays
    submit(board, tally(live_games(board)[-1].next_dealer, leaver))  # game 2 under way
    game_1, game_2 = live_games(board)
    report = entry_withdraw(entry=e[0], user=organiser)
    board = fresh(board)
    assert (board.forfeited, board.result_source) == (leaver, Board.Source.FORFEIT)
    assert board.decided and board.winner == stays and not board.is_draw and board.all_confirmed
    bulls = (board.bullseyes_a, board.bullseyes_b)
    assert bulls[stays] == 2 and bulls[leaver] == 0, "the game won kept, the one still needed awarded"
    assert (board.chalks_a, board.chalks_b)[stays] == 14 and (board.chalks_a, board.chalks_b)[leaver] == 0
    assert (board.hang_jacks_a, board.hang_jacks_b)[stays] == 2, "the kept game's hang jacks"
    assert fresh(game_1).confirmed and fresh(game_1).status == Game.Status.FINISHED
    assert fresh(game_2).status == Game.Status.VOIDED
    assert board.status == "forfeited"
    assert report.actions[0]["kind"] == "forfeit"
    assert fresh(round_).changes[-1]["kind"] == "forfeit"
    forfeit_audit = AuditEvent.objects.filter(action="board.forfeit", object_id=str(board.pk)).get()
    assert forfeit_audit.after["voided_games"] == [game_2.pk] and forfeit_audit.after["confirmed_games"] == 1
    # Nothing more is written on the board from the table.
    with pytest.raises(Conflict) as exc:
        hand_submit(board=board, game_number=2, hand_number=2, record=tally(0, stays))
    assert exc.value.code == "board_forfeited"
    # The standings: a win and a loss by forfeit, the kept game's figures (no awarded chalks on top).
    round_close_all(round_, organiser)
    row, lost = standing(tournament, opponent(board, e[0])), standing(tournament, e[0])
    assert (row["wins"], row["forfeits_won"], row["bullseyes_won"], row["chalks_for"]) == (1, 1, 2, 14)
    assert (lost["losses"], lost["forfeits_lost"], lost["bullseyes_lost"], lost["chalks_against"]) == (1, 1, 2, 14)


def round_close_all(round_: Round, organiser) -> Round:
    """Play the other boards of the round and close it."""
    return play_and_close(round_, organiser, lambda b: 0, publish=False)


def test_a_withdrawal_by_the_pair_leading_1_0_still_gives_the_match_to_the_other_pair():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    leaver = side_of(board, e[0])
    win_game(board, to=leaver, hands=2)  # the leaver leads 1-0; game 2 opened, no hand in it
    entry_withdraw(entry=e[0], user=organiser)
    board = fresh(board)
    bulls = (board.bullseyes_a, board.bullseyes_b)
    assert (bulls[leaver], bulls[1 - leaver]) == (1, 2)
    assert board.winner == 1 - leaver and board.decided and board.all_confirmed
    assert [g.number for g in live_games(board)] == [1]


def test_a_withdrawal_in_a_fixed_number_of_games_awards_the_games_not_played():
    tournament, e, organiser = swiss(4, match_format={"kind": "games", "n": 3})
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    leaver = side_of(board, e[0])
    win_game(board, to=leaver, hands=2)
    entry_withdraw(entry=e[0], user=organiser)
    board = fresh(board)
    bulls = (board.bullseyes_a, board.bullseyes_b)
    assert (bulls[leaver], bulls[1 - leaver]) == (1, 2) and board.winner == 1 - leaver


def test_a_withdrawal_from_a_later_round_leaves_the_round_in_play_alone():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    report = entry_withdraw(entry=e[0], user=organiser, from_round=2)
    assert report.actions == [] and report.summary == "No round was drawn with this pair yet."
    assert fresh(e[0]).withdrawn_from == 2 and board_of(round_, e[0]).forfeited is None
    with pytest.raises(Conflict) as exc:
        entry_withdraw(entry=e[0], user=organiser)
    assert exc.value.code == "entry_withdrawn"
    with pytest.raises(ValidationFailed) as exc:
        entry_withdraw(entry=e[1], user=organiser, from_round=0)
    assert exc.value.code == "round_invalid"
    with pytest.raises(NotFound):
        entry_withdraw(entry=10**8, user=organiser)


# ---- knockout: a walkover ------------------------------------------------------------------------------
def test_a_knockout_withdrawal_is_a_walkover_and_the_winner_goes_through():
    tournament, e, organiser = pairs_event(4, pairing_system="knockout")
    first = round_start(tournament=tournament, user=organiser)
    board = board_of(first, e[3])
    through = opponent(board, e[3])
    report = entry_withdraw(entry=e[3], user=organiser)  # still drafted: a walkover all the same
    board = fresh(board)
    leaver = side_of(board, e[3])
    assert board.forfeited == leaver and board.result_source == Board.Source.FORFEIT
    assert board.decided and board.all_confirmed and board.winner == 1 - leaver
    assert (board.bullseyes_a, board.bullseyes_b)[1 - leaver] == 2
    assert report.actions[0]["kind"] == "walkover" and "goes through" in report.actions[0]["text"]
    other = next(b for b in boards_of(first) if b.pk != board.pk)
    play_and_close(first, organiser, lambda b: 0 if b.pk == other.pk else 1 - leaver)
    final = round_start(tournament=tournament, user=organiser)
    (seated,) = pairs_of(final)
    assert through in seated and e[3].pk not in seated
    assert seated == {through, other.pair_a_id}


def test_a_knockout_seed_withdrawing_from_its_first_round_bye_leaves_the_bracket_playable():
    """Six pairs in a bracket of eight: seeds 1 and 2 have byes. Seed 1 withdraws in round 1; the winner of
    the match that meets it in the semi-final should go through, and the semi-finals should still be
    drawn."""
    tournament, e, organiser = pairs_event(6, pairing_system="knockout")
    first = round_start(tournament=tournament, user=organiser)
    assert byes_of(first) == [e[0].pk, e[1].pk]
    entry_withdraw(entry=e[0], user=organiser)
    play_and_close(first, organiser, lambda b: 0)
    second = round_start(tournament=tournament, user=organiser)  # refused before the fix: pairing_bad_size
    second = published(second, organiser)  # the walkover is given when the round is published
    for board in boards_of(second):
        if e[0].pk in (board.pair_a_id, board.pair_b_id):
            assert board.pair_b_id is None or board.forfeited == side_of(board, e[0])


def test_a_knockout_winner_withdrawing_between_rounds_gives_its_next_opponent_a_walkover():
    """Pair 1 wins its first-round match, then withdraws before the final is drawn (the default: from the
    next round). The final should be drawn with a walkover for the other finalist, not fail."""
    tournament, e, organiser = pairs_event(4, pairing_system="knockout")
    first = round_start(tournament=tournament, user=organiser)
    play_and_close(first, organiser, lambda b: 0 if b.pair_a_id < b.pair_b_id else 1)
    other_finalist = next(b.pair_a_id for b in boards_of(first) if e[0].pk not in (b.pair_a_id, b.pair_b_id))
    report = entry_withdraw(entry=e[0], user=organiser)
    assert fresh(e[0]).withdrawn_from == 2 and report.actions == []
    final = round_start(tournament=tournament, user=organiser)  # before the fix: KeyError, a server error
    final = published(final, organiser)
    for board in boards_of(final):
        if e[0].pk in (board.pair_a_id, board.pair_b_id):
            assert board.pair_b_id is None or board.forfeited == side_of(board, e[0])
            assert other_finalist in (board.pair_a_id, board.pair_b_id)


def test_both_pairs_absent_in_a_knockout_does_not_leave_the_bracket_stuck():
    """Nobody can go through from a knockout board both pairs forfeited: either the forfeit is refused, or
    the next round is still drawn (the next opponent through on a walkover). Today it is accepted and the
    next round is refused for good (409 match_undecided), with the forfeit no longer cancellable."""
    tournament, e, organiser = pairs_event(4, pairing_system="knockout")
    first = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    board = boards_of(first)[0]
    try:
        board_forfeit(board=board, absent="both", user=organiser)
    except Conflict:
        return  # refused: the organiser decides who goes through instead
    play_and_close(first, organiser, lambda b: 0, publish=False)
    final = round_start(tournament=tournament, user=organiser)
    assert boards_of(final)


# ---- club teams: a substitute, else a forfeit ---------------------------------------------------------------
def test_a_club_pair_that_withdraws_is_replaced_by_a_pair_from_the_roster():
    tournament, clubs, organiser = clubs_event(2, 3)
    round_ = round_start(tournament=tournament, user=organiser)
    match = TeamMatch.objects.get(round=round_)
    club = match.club_a_id
    leaving = match.lineup_a[0]
    bench = Entry.objects.filter(tournament=tournament, pair__club_id=club).exclude(pk__in=match.lineup_a).get()
    board = board_of(round_, leaving)
    side = side_of(board, leaving)
    report = entry_withdraw(entry=leaving, user=organiser)
    match.refresh_from_db()
    assert match.lineup_a[0] == bench.pk and leaving not in match.lineup_a
    board = fresh(board)
    assert (board.pair_a_id, board.pair_b_id)[side] == bench.pk and board.forfeited is None
    assert set(BoardPair.objects.filter(board=board).values_list("entry_id", "side")) == {
        (board.pair_a_id, 0), (board.pair_b_id, 1)}
    assert report.actions[0]["kind"] == "substitute"
    assert fresh(round_).changes[-1]["entries"] == [leaving, bench.pk]


def test_a_club_pair_that_withdraws_without_a_substitute_forfeits_its_board():
    tournament, clubs, organiser = clubs_event(2, 2)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    match = TeamMatch.objects.get(round=round_)
    leaving = match.lineup_a[0]
    board = board_of(round_, leaving)
    report = entry_withdraw(entry=leaving, user=organiser)
    board = fresh(board)
    assert board.forfeited == side_of(board, leaving) and board.decided
    assert report.actions[0]["kind"] == "forfeit" and "no substitute" in report.actions[0]["text"]
    match.refresh_from_db()
    assert (match.bullseyes_a, match.bullseyes_b) == (0, 1), "the forfeited board counts for club B"
    assert not match.decided, "the other board is still to play"
    other = next(b for b in match.boards.all() if b.pk != board.pk)
    play_to(other, side_of(other, match.lineup_b[1]))
    match.refresh_from_db()
    assert match.decided and match.winner == 1 and (match.bullseyes_a, match.bullseyes_b) == (0, 2)


# ---- forfeits of pairs that have not come ---------------------------------------------------------------
def test_a_no_show_is_forfeited_only_after_the_grace_time():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    board = board_of(round_, e[0])
    ends = grace_ends(fresh(round_))
    assert ends == fresh(round_).published_at + timedelta(minutes=15)
    with pytest.raises(Conflict) as exc:
        board_forfeit(board=board, absent="a", user=organiser)
    local = timezone.localtime(ends, ZoneInfo(tournament.time_zone)).strftime("%H:%M")
    assert exc.value.code == "grace_time" and local in exc.value.message and "15 minutes" in exc.value.message
    with pytest.raises(Conflict):
        board_forfeit(board=board, absent="a", user=organiser, now=ends - timedelta(seconds=1))
    assert fresh(board).forfeited is None
    done = board_forfeit(board=board, absent="a", user=organiser, now=ends + timedelta(minutes=1))
    assert (done.forfeited, done.result_source, done.decided, done.winner) == (0, Board.Source.FORFEIT, True, 1)
    assert (done.bullseyes_a, done.bullseyes_b, done.all_confirmed, done.disputed) == (0, 2, True, False)
    change = fresh(round_).changes[-1]
    assert change["kind"] == "forfeit" and change["absent"] == "a" and "forfeited to" in change["what"]
    with pytest.raises(Conflict) as exc:
        board_forfeit(board=board, absent="b", user=organiser, now=ends + timedelta(minutes=1))
    assert exc.value.code == "board_forfeited"


def test_the_grace_time_follows_the_events_setting_and_a_past_publication():
    tournament, e, organiser = swiss(4)
    Tournament.objects.filter(pk=tournament.pk).update(grace_minutes=5)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    grace_over(round_, 5)
    board = board_forfeit(board=board_of(round_, e[1]), absent="b", user=organiser)
    assert board.forfeited == 1 and board.winner == 0


def test_forfeit_refusals_a_drafted_round_a_bye_and_a_wrong_side():
    tournament, e, organiser = swiss(5)
    round_ = round_start(tournament=tournament, user=organiser)
    board = board_of(round_, e[0])
    with pytest.raises(Conflict) as exc:
        board_forfeit(board=board, absent="a", user=organiser)
    assert exc.value.code == "round_not_open"
    published(round_, organiser)
    grace_over(round_)
    with pytest.raises(ValidationFailed) as exc:
        board_forfeit(board=board, absent="x", user=organiser)
    assert exc.value.code == "absent_invalid"
    bye = Board.objects.get(round=round_, pair_b__isnull=True)
    with pytest.raises(Conflict) as exc:
        board_forfeit(board=bye, absent="a", user=organiser)
    assert exc.value.code == "board_is_bye"
    with pytest.raises(NotFound):
        board_forfeit(board=10**8, absent="a", user=organiser)


def test_a_pair_that_walks_out_after_a_hand_is_forfeited_at_once():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    submit(board, tally(0, 0))
    done = board_forfeit(board=board, absent="b", user=organiser)  # no grace time once play has started
    assert done.forfeited == 1 and done.winner == 0 and done.bullseyes_a == 2


def test_a_board_in_dispute_is_not_forfeited_until_the_organiser_rules():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    win_game(board, to=0, hands=2)
    game = live_games(board)[0]
    game_confirm(game=game, party="b", agrees=False, reason="the last hand was miscounted", device=make_device(board))
    with pytest.raises(Conflict) as exc:
        board_forfeit(board=board, absent="b", user=organiser)
    assert exc.value.code == "dispute_open"
    assert fresh(board).forfeited is None and fresh(game).status == Game.Status.FINISHED


def test_a_board_decided_at_the_table_is_not_turned_into_a_forfeit():
    """A withdrawal leaves a board decided by play alone ("its result stands"); a forfeit recorded on such a
    board (the pair that lost walks out once the match is over) should be refused the same way, not hand
    the match to the pair that lost it."""
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = play_to(board_of(round_, e[0]), 0)
    assert board.decided and board.winner == 0
    with pytest.raises(Conflict):
        board_forfeit(board=board, absent="a", user=organiser)
    board = fresh(board)
    assert board.forfeited is None and board.winner == 0 and board.result_source == Board.Source.HANDS


def test_both_pairs_absent_is_two_losses():
    tournament, e, organiser = swiss(4)
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    board = board_of(round_, e[0])
    done = board_forfeit(board=board, absent="both", user=organiser)
    assert (done.forfeited, done.decided, done.winner, done.is_draw) == (Board.Forfeit.BOTH, True, None, False)
    assert (done.bullseyes_a, done.bullseyes_b) == (0, 0)
    assert "two losses" in fresh(round_).changes[-1]["what"]
    round_close_all(round_, organiser)
    for entry in (board.pair_a_id, board.pair_b_id):
        row = standing(tournament, entry)
        assert (row["played"], row["losses"], row["draws"], row["match_points"]) == (1, 1, 0, 0)
        assert (row["forfeits_won"], row["forfeits_lost"], row["chalks_for"], row["chalks_against"]) == (0, 1, 0, 0)


def test_a_forfeit_cancelled_puts_the_stopped_game_back_in_play():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    board = seat(board_of(round_, e[0]))
    submit(board, tally(0, 1))
    (game,) = live_games(board)
    board_forfeit(board=board, absent="a", user=organiser)
    assert fresh(game).status == Game.Status.VOIDED
    restored = board_forfeit_cancel(board=board, user=organiser)
    assert restored.forfeited is None and restored.result_source == Board.Source.HANDS
    board = fresh(board)
    assert not board.decided and board.winner is None and (board.bullseyes_a, board.bullseyes_b) == (0, 0)
    assert board.status != "forfeited"
    game = fresh(game)
    assert game.status == Game.Status.IN_PLAY and game.ended_at is None
    assert [c["kind"] for c in fresh(round_).changes][-2:] == ["forfeit", "forfeit_cancel"]
    assert AuditEvent.objects.filter(action="board.forfeit_cancel", object_id=str(board.pk)).get().after == {
        "restored_games": [game.pk]}
    # Play goes on where it stopped.
    submit(board, tally(game.next_dealer, 1))
    assert game.hands.filter(status="active").count() == 2
    with pytest.raises(Conflict) as exc:
        board_forfeit_cancel(board=board, user=organiser)
    assert exc.value.code == "not_forfeited"


def test_a_forfeit_stands_once_its_round_is_closed():
    tournament, e, organiser = swiss(4)
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    board = board_forfeit(board=board_of(round_, e[0]), absent="a", user=organiser)
    round_close_all(round_, organiser)
    with pytest.raises(Conflict) as exc:
        board_forfeit_cancel(board=board, user=organiser)
    assert exc.value.code == "round_closed"
    assert fresh(board).forfeited == 0


def test_a_club_that_cannot_field_its_team_forfeits_every_board_of_the_match():
    tournament, clubs, organiser = clubs_event(2, 2)
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    match = TeamMatch.objects.get(round=round_)
    out = team_match_forfeit(team_match=match, club=match.club_a_id, user=organiser)
    boards = list(match.boards.order_by("slot"))
    assert len(boards) == 2
    for board in boards:
        club_a_side = 0 if board.pair_a_id in match.lineup_a else 1
        assert board.forfeited == club_a_side and board.winner == 1 - club_a_side
    assert out.decided and out.winner == 1 and (out.bullseyes_a, out.bullseyes_b) == (0, 2)
    with pytest.raises(ValidationFailed) as exc:
        team_match_forfeit(team_match=match, club=Club.objects.create(name="Elsewhere"), user=organiser)
    assert exc.value.code == "not_in_match"
    # Forfeiting again changes nothing: every board is forfeited already.
    again = team_match_forfeit(team_match=match, club=match.club_a_id, user=organiser)
    assert (again.bullseyes_a, again.bullseyes_b) == (0, 2)


def test_a_team_forfeit_in_a_race_to_a_total_gives_the_match_to_the_other_club():
    """In a ``first_to_total`` race a forfeited board adds no games (the clubs race on their other boards),
    but when a club forfeits every board there is no other board: the match should go to the other club,
    not stay undecided (and end level when time is called)."""
    tournament, clubs, organiser = clubs_event(2, 2, team_format={"boards": 2, "kind": "first_to_total", "n": 3})
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    match = TeamMatch.objects.get(round=round_)
    out = team_match_forfeit(team_match=match, club=match.club_a_id, user=organiser)
    assert all(b.forfeited is not None for b in match.boards.all())
    assert out.decided and out.winner == 1


def test_a_club_pair_checked_in_absent_is_replaced_from_the_roster_before_a_forfeit():
    """docs/decisions.md, "Availability": club teams field substitutes from the roster before a team
    forfeits. The club's first pair is absent and its third is present: the third plays, nothing is
    forfeited."""
    tournament, clubs, organiser = clubs_event(2, 3)
    roster = list(Entry.objects.filter(tournament=tournament, pair__club=clubs[0]).order_by("seed"))
    entry_check_in(entry=roster[0], round_number=1, state="absent", user=organiser)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    match = TeamMatch.objects.get(round=round_)
    lineup = match.lineup_a if match.club_a_id == clubs[0].pk else match.lineup_b
    assert not Board.objects.filter(team_match=match, forfeited__isnull=False).exists()
    assert roster[0].pk not in lineup and roster[2].pk in lineup


# ---- a round robin's absent pairs are forfeited at publishing ----------------------------------------------
def test_a_round_robin_pair_checked_in_absent_forfeits_its_board_at_publishing():
    tournament, e, organiser = pairs_event(6, pairing_system="round_robin")
    absent = {e[0].pk, e[3].pk, e[4].pk}
    for entry in e:
        if entry.pk in absent:
            entry_check_in(entry=entry, round_number=1, state="absent", user=organiser)
    round_ = round_start(tournament=tournament, user=organiser)
    assert len(pairs_of(round_)) == 3, "a round robin draws its schedule, absent pairs included"
    assert not Board.objects.filter(round=round_, forfeited__isnull=False).exists()
    published(round_, organiser)  # at once: there is no one to wait for
    for board in boards_of(round_):
        sides = [board.pair_a_id in absent, board.pair_b_id in absent]
        if all(sides):
            assert board.forfeited == Board.Forfeit.BOTH and board.winner is None
        elif any(sides):
            assert board.forfeited == (0 if sides[0] else 1) and board.winner == (1 if sides[0] else 0)
        else:
            assert board.forfeited is None and not board.decided
    forfeits = [c for c in fresh(round_).changes if c["kind"] == "forfeit"]
    assert len(forfeits) == sum(1 for b in boards_of(round_) if b.forfeited is not None) >= 2
    assert all("checked in absent" in c["what"] for c in forfeits)


def test_a_swiss_pair_checked_in_absent_is_not_drawn_nor_forfeited():
    tournament, e, organiser = swiss(5)
    entry_check_in(entry=e[0], round_number=1, state="absent", user=organiser)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    assert e[0].pk not in {x for pair in pairs_of(round_) for x in pair} | set(byes_of(round_))
    assert byes_of(round_) == [] and not Board.objects.filter(round=round_, forfeited__isnull=False).exists()


def test_a_knockout_pair_checked_in_absent_gives_a_walkover_at_publishing():
    tournament, e, organiser = pairs_event(4, pairing_system="knockout")
    entry_check_in(entry=e[3], round_number=1, state="absent", user=organiser)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    board = board_of(round_, e[3])
    assert board.forfeited == side_of(board, e[3]) and board.winner == 1 - board.forfeited
    assert Board.objects.filter(round=round_, forfeited__isnull=False).count() == 1


# ---- late entries -------------------------------------------------------------------------------------------
def _late_entry_round_two(late_entry_bye: bool):
    """Four pairs play round 1 (the losers take a game each); a fifth is entered while it is in play."""
    tournament, e, organiser = swiss(4, rounds=3)
    Tournament.objects.filter(pk=tournament.pk).update(late_entry_bye=late_entry_bye)
    first = published(round_start(tournament=tournament, user=organiser), organiser, play=True)
    late = entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=organiser)
    assert late.joins_from == 2
    assert late.pk not in {x for pair in pairs_of(first) for x in pair}
    play_and_close(first, organiser, lambda b: 0 if b.pair_a_id < b.pair_b_id else 1, loser_games=1, publish=False)
    second = round_start(tournament=tournament, user=organiser)
    return tournament, e, organiser, late, first, second


def test_a_late_entry_joins_the_next_round_without_the_bye():
    tournament, e, organiser, late, first, second = _late_entry_round_two(False)
    assert AuditEvent.objects.filter(action="entry.late", object_id=str(late.pk)).get().after == {"joins_from": 2}
    assert {x.entry.pk: x.state for x in round_field(tournament, 1).entries}[late.pk] == LATE
    assert {x.entry.pk: x.state for x in round_field(tournament, 2).entries}[late.pk] == PRESENT
    row = standing(tournament, late)
    assert (row["played"], row["match_points"], row["byes"]) == (0, 0, 0)
    # The late entry is ranked last (no game won), so the bye would be its without the rule.
    ranking = [r["entry_id"] for r in fresh(second).paired_from.rows]
    assert ranking[-1] == late.pk
    (bye,) = byes_of(second)
    assert bye != late.pk, "a late entry takes no bye in its first round"
    assert late.pk in {x for pair in pairs_of(second) for x in pair}


def test_a_late_entry_may_take_the_bye_when_the_event_says_so():
    tournament, e, organiser, late, first, second = _late_entry_round_two(True)
    assert byes_of(second) == [late.pk]


def test_an_entry_before_round_one_is_drawn_is_an_ordinary_entry():
    tournament, e, organiser = swiss(3)
    entry = entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=organiser)
    assert entry.joins_from is None
    round_ = round_start(tournament=tournament, user=organiser)
    assert entry.pk in {x for pair in pairs_of(round_) for x in pair} | set(byes_of(round_))


def test_a_late_entry_while_a_round_is_drafted_joins_the_round_after_it():
    tournament, e, organiser = swiss(4)
    round_ = round_start(tournament=tournament, user=organiser)
    late = entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=organiser)
    assert late.joins_from == 2 and late.pk not in {x for pair in pairs_of(round_) for x in pair}


def test_no_late_entry_once_a_knockouts_bracket_is_seated():
    tournament, e, organiser = pairs_event(4, pairing_system="knockout")
    early = entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=organiser)
    assert early.joins_from is None
    round_start(tournament=tournament, user=organiser)
    with pytest.raises(Conflict) as exc:
        entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=organiser)
    assert exc.value.code == "bracket_seated"
    assert Entry.objects.filter(tournament=tournament).count() == 5


# ---- what a forfeit counts for --------------------------------------------------------------------------------
def test_the_standings_count_a_forfeit_with_the_policys_chalks():
    tournament, e, organiser = swiss(4)
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser, play=True))
    played, forfeited = [b for b in boards_of(round_)]
    play_to(played, 0)  # 2-0, chalks 28-0: the round's average pair scored 14, its winner 28
    board = board_forfeit(board=forfeited, absent="b", user=organiser)
    round_close_all(round_, organiser)
    present, absent = standing(tournament, board.pair_a_id), standing(tournament, board.pair_b_id)
    assert (present["wins"], present["match_points"], present["forfeits_won"], present["forfeits_lost"]) == (1, 2, 1, 0)
    assert (absent["losses"], absent["match_points"], absent["forfeits_won"], absent["forfeits_lost"]) == (1, 0, 0, 1)
    assert (present["bullseyes_won"], present["chalks_for"], present["chalks_against"], present["hang_jacks_for"]) == (2, 14, 0, 0)
    assert (absent["bullseyes_lost"], absent["chalks_for"], absent["chalks_against"]) == (2, 0, 14)
    winner_row = standing(tournament, played.pair_a_id)
    assert (winner_row["chalks_for"], winner_row["forfeits_won"]) == (28, 0)
    # The bare-win policy, chosen between rounds: no chalks.
    Tournament.objects.filter(pk=tournament.pk).update(forfeit_policy=FORFEIT_PRESETS["bare_win"].policy.to_dict())
    present = standing(tournament, board.pair_a_id)
    assert (present["chalks_for"], present["match_points"], present["bullseyes_won"]) == (0, 2, 2)
    assert standing(tournament, board.pair_b_id)["chalks_against"] == 0


def test_a_swiss_may_draw_two_pairs_together_again_after_their_board_was_forfeited():
    tournament, e, organiser = swiss(4)
    first = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    drawn = pairs_of(first)
    for board in boards_of(first):
        board_forfeit(board=board, absent="both", user=organiser)
    round_close_all(first, organiser)
    assert history_before(tournament, 2).boards == (), "a forfeit is not a meeting"
    second = round_start(tournament=tournament, user=organiser)
    assert pairs_of(second) == drawn, "nobody has met: the same fold as round 1"
    for board in boards_of(second):
        assert "not met before" in board.explanation and "rematch" not in board.explanation


# ---- who may ---------------------------------------------------------------------------------------------------
def test_only_an_organiser_changes_the_field():
    tournament, e, organiser = swiss(4)
    round_ = grace_over(published(round_start(tournament=tournament, user=organiser), organiser))
    board = board_of(round_, e[0])
    outsider = make_user()
    refused = [
        lambda: entry_withdraw(entry=e[0], user=outsider),
        lambda: board_forfeit(board=board, absent="a", user=outsider),
        lambda: entry_enter_late(tournament=tournament, pair=late_pair(organiser), user=outsider),
    ]
    for call in refused:
        with pytest.raises(NotAllowed) as exc:
            call()
        assert exc.value.status_code == 403 and exc.value.code == "not_organiser"
    board_forfeit(board=board, absent="a", user=organiser)
    with pytest.raises(NotAllowed):
        board_forfeit_cancel(board=board, user=outsider)
    assert fresh(board).forfeited == 0 and not fresh(e[0]).withdrawn
    clubs_tournament, clubs, club_organiser = clubs_event(2, 2)
    club_round = grace_over(published(round_start(tournament=clubs_tournament, user=club_organiser), club_organiser))
    match = TeamMatch.objects.get(round=club_round)
    with pytest.raises(NotAllowed):
        team_match_forfeit(team_match=match, club=match.club_a_id, user=outsider)
    with pytest.raises(NotAllowed):  # another event's organiser is an outsider here
        entry_withdraw(entry=match.lineup_a[0], user=organiser)

