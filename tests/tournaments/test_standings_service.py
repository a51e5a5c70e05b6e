"""The standings service: confirmed games only, byes, tie-breaks, clubs, idempotent snapshots, a constant
number of queries, and a burst of confirmations coalesced into one recomputation."""

from __future__ import annotations

import itertools
from unittest import mock

import pytest
from django.db import OperationalError
from django.utils import timezone

from tests.tournaments.factories import make_device, make_tournament, seat, win_game
from tests.tournaments.test_pairing_service import club_a_wins, clubs_event, pairs_event, play_round
from tests.tournaments.test_tournament_e2e import eager_celery  # noqa: F401 - a fixture
from tournaments.models import Board, BoardPair, Game, OutboxMessage, Round, StandingsSnapshot, Tournament
from tournaments.services import (
    ValidationFailed,
    game_confirm,
    outbox_sweep,
    round_publish,
    round_start,
    round_start_play,
    tournament_standings_recompute,
)
from tournaments.services import outbox as outbox_module

pytestmark = pytest.mark.django_db


def latest(tournament: Tournament) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


def row(snapshot: StandingsSnapshot, entry_id: int) -> dict:
    return next(r for r in snapshot.rows if r["entry_id"] == entry_id)


def started(n: int = 4, **kwargs):
    """A tournament of ``n`` pairs with round 1 paired, published and in play."""
    tournament, entries, organiser = pairs_event(n, **kwargs)
    round_ = round_start(tournament=tournament, user=organiser)
    round_publish(round=round_, user=organiser)
    round_start_play(round=round_, user=organiser)
    return tournament, entries, organiser, round_


def test_only_confirmed_games_count_and_match_points_wait_for_every_game_of_the_decided_match():
    tournament, e, organiser, round_ = started(2)
    board = seat(Board.objects.get(round=round_, table=1))
    win_game(board, to=0, hands=2)
    tournament_standings_recompute(tournament_id=tournament.pk)
    a = row(latest(tournament), board.pair_a_id)
    assert (a["bullseyes_won"], a["match_points"], a["played"]) == (0, 0, 0)  # finished, not confirmed
    device = make_device(board)
    game1 = Game.objects.get(board=board, number=1)
    game_confirm(game=game1, party="a", device=device)
    game_confirm(game=game1, party="b", device=device)
    tournament_standings_recompute(tournament_id=tournament.pk)
    a = row(latest(tournament), board.pair_a_id)
    assert (a["bullseyes_won"], a["chalks_for"], a["hang_jacks_for"], a["match_points"]) == (1, 14, 2, 0)
    win_game(board, to=0, hands=2)  # the match is decided 2-0, game 2 unconfirmed: no match points yet
    tournament_standings_recompute(tournament_id=tournament.pk)
    assert row(latest(tournament), board.pair_a_id)["match_points"] == 0
    game_confirm(game=Game.objects.get(board=board, number=2), party="organiser", user=organiser)
    tournament_standings_recompute(tournament_id=tournament.pk)
    a, b = row(latest(tournament), board.pair_a_id), row(latest(tournament), board.pair_b_id)
    assert (a["match_points"], a["wins"], a["rank"], b["rank"], b["losses"]) == (2, 1, 1, 2, 1)
    assert (b["chalks_against"], b["hang_jacks_against"]) == (28, 4)


def test_the_same_input_stores_no_new_snapshot():
    tournament, _, organiser, round_ = started(4)
    tournament_standings_recompute(tournament_id=tournament.pk)  # publishing the round changed the input
    count = StandingsSnapshot.objects.filter(tournament=tournament).count()
    assert tournament_standings_recompute(tournament_id=tournament.pk) is False
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == count
    board = seat(Board.objects.get(round=round_, table=1))
    win_game(board, to=1, hands=2)
    game_confirm(game=Game.objects.get(board=board, number=1), party="organiser", user=organiser)
    assert tournament_standings_recompute(tournament_id=tournament.pk) is True
    assert tournament_standings_recompute(tournament_id=tournament.pk) is False
    snapshot = latest(tournament)
    assert len(snapshot.source_hash) == 64 and StandingsSnapshot.objects.filter(tournament=tournament).count() == count + 1


def test_a_drafted_round_counts_nothing_not_even_its_bye():
    tournament, e, organiser = pairs_event(3)
    round_start(tournament=tournament, user=organiser)
    tournament_standings_recompute(tournament_id=tournament.pk)
    assert all(r["match_points"] == 0 and r["byes"] == 0 for r in latest(tournament).rows)


def test_a_bye_scores_a_win_with_the_rounds_average_never_more_than_a_real_win():
    tournament, e, organiser = pairs_event(5)
    round_ = round_start(tournament=tournament, user=organiser)
    play_round(round_, organiser)
    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = latest(tournament)
    bye = Board.objects.get(round=round_, pair_b__isnull=True).pair_a_id
    r = row(snapshot, bye)
    # two boards, each won 2-0 with 14-0 games and two hang jacks a game: the average pair won one game,
    # capped at the winner's two; chalks 14 a pair on average, capped at 28.
    assert (r["match_points"], r["wins"], r["byes"], r["played"]) == (2, 1, 1, 0)
    assert (r["bullseyes_won"], r["bullseyes_lost"], r["chalks_for"], r["chalks_against"]) == (1, 1, 14, 14)
    Tournament.objects.filter(pk=tournament.pk).update(bye_policy={"result": "draw", "score": "none"})
    tournament_standings_recompute(tournament_id=tournament.pk)
    r = row(latest(tournament), bye)
    assert (r["match_points"], r["draws"], r["bullseyes_won"], r["chalks_for"]) == (1, 1, 0, 0)


def test_the_tournaments_tie_break_order_ranks_the_table():
    tournament, e, organiser = pairs_event(4)
    play_round(round_start(tournament=tournament, user=organiser), organiser)
    tournament_standings_recompute(tournament_id=tournament.pk)
    winners = [r["entry_id"] for r in latest(tournament).rows[:2]]
    assert set(winners) == {e[0].pk, e[1].pk}
    Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=["hang_jacks_against"])  # fewest against first
    tournament_standings_recompute(tournament_id=tournament.pk)
    assert {r["entry_id"] for r in latest(tournament).rows[:2]} == {e[0].pk, e[1].pk}
    assert latest(tournament).rows[0]["rank"] == 1 and latest(tournament).rows[1]["tied"] is True
    Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=["no_such_thing"])
    with pytest.raises(ValidationFailed) as exc:
        tournament_standings_recompute(tournament_id=tournament.pk)
    assert exc.value.code == "tiebreaks_invalid"


def test_club_standings_sum_a_clubs_pairs_in_a_pairs_event():
    tournament, e, organiser = pairs_event(4, clubs=2)
    play_round(round_start(tournament=tournament, user=organiser), organiser)
    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = latest(tournament)
    assert len(snapshot.clubs) == 2
    by_club = {c["club_id"]: c for c in snapshot.clubs}
    for club_id, club_row in by_club.items():
        members = [r for r in snapshot.rows if r["club_id"] == club_id]
        assert club_row["match_points"] == sum(r["match_points"] for r in members)


def test_club_standings_come_from_team_matches_in_a_club_team_event():
    tournament, clubs, organiser = clubs_event(3, 2)
    round_ = round_start(tournament=tournament, user=organiser)
    play_round(round_, organiser, winner=club_a_wins)  # club A takes both boards
    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = latest(tournament)
    match = round_.team_matches.get(club_b__isnull=False)
    bye_club = round_.team_matches.get(club_b__isnull=True).club_a_id
    clubs_rows = {c["club_id"]: c for c in snapshot.clubs}
    assert (clubs_rows[match.club_a_id]["match_points"], clubs_rows[match.club_a_id]["bullseyes_won"]) == (2, 2)
    assert clubs_rows[match.club_b_id]["match_points"] == 0 and clubs_rows[match.club_b_id]["losses"] == 1
    assert clubs_rows[bye_club]["byes"] == 1 and clubs_rows[bye_club]["match_points"] == 2
    assert len(snapshot.rows) == 6  # pairs keep their own rows


def _bulk_field(tournament: Tournament, pairs: int, rounds: int) -> None:
    """Closed rounds of confirmed boards written directly (the service only reads them)."""
    from tournaments.models import Club, Entry, Pair, Player

    clubs = [Club.objects.create(name=f"Bulk {tournament.pk}-{i}") for i in range(4)]
    players = Player.objects.bulk_create([Player(name=f"P{i}") for i in range(2 * pairs)])
    made = Pair.objects.bulk_create([Pair(player_1=players[2 * i], player_2=players[2 * i + 1],
                                          club=clubs[i % 4], seed=i + 1) for i in range(pairs)])
    entries = Entry.objects.bulk_create([Entry(tournament=tournament, pair=p, seed=p.seed) for p in made])
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="closed")
        ids = [x.pk for x in entries]
        boards = []
        for i in range(0, pairs, 2):
            a, b = ids[i], ids[i + 1]
            boards.append(Board(round=round_, table=i // 2 + 1, pair_a_id=a, pair_b_id=b, bullseyes_a=2,
                                bullseyes_b=number % 2, chalks_a=28, chalks_b=9, hang_jacks_a=1, decided=True,
                                winner=0, all_confirmed=True))
        Board.objects.bulk_create(boards)


@pytest.mark.parametrize("pairs", [8, 64])
def test_recomputation_takes_a_constant_number_of_queries(pairs, django_assert_max_num_queries):
    tournament = make_tournament()
    _bulk_field(tournament, pairs, 3)
    # lock, rounds, entries, boards, latest digest, insert (+ the savepoint pair inside the test's transaction)
    with django_assert_max_num_queries(8):
        assert tournament_standings_recompute(tournament_id=tournament.pk) is True
    with django_assert_max_num_queries(7):  # the same input: read, digest, nothing stored
        assert tournament_standings_recompute(tournament_id=tournament.pk) is False
    assert len(latest(tournament).rows) == pairs


def test_a_club_team_recomputation_takes_a_constant_number_of_queries(django_assert_max_num_queries):
    tournament, clubs, organiser = clubs_event(4, 2)
    play_round(round_start(tournament=tournament, user=organiser), organiser)
    Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=["match_points", "buchholz"])
    with django_assert_max_num_queries(9):  # and the team matches
        assert tournament_standings_recompute(tournament_id=tournament.pk) is True


@pytest.mark.usefixtures("eager_celery")  # the sweep's task runs here, even with REDIS_URL set
def test_a_burst_of_confirmations_with_the_broker_down_coalesces_into_one_recomputation(django_capture_on_commit_callbacks):
    tournament, e, organiser, round_ = started(8)
    boards = [seat(b) for b in Board.objects.filter(round=round_).order_by("table")]
    for board in boards:
        win_game(board, to=0, hands=2)
    OutboxMessage.objects.filter(sent_at__isnull=True).update(sent_at=timezone.now())  # earlier work is done
    tournament_standings_recompute(tournament_id=tournament.pk)
    before = StandingsSnapshot.objects.filter(tournament=tournament).count()
    refused = OSError("broker unreachable")
    with mock.patch.object(outbox_module, "_send", side_effect=refused), \
            django_capture_on_commit_callbacks(execute=True):
        for board in boards:
            game_confirm(game=Game.objects.get(board=board, number=1), party="organiser", user=organiser)
    key = f"standings:{tournament.pk}"
    unsent = OutboxMessage.objects.filter(coalesce_key=key, sent_at__isnull=True)
    assert unsent.count() >= len(boards)
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == before  # nothing ran yet
    with mock.patch("tournaments.services.standings.tournament_standings_recompute",
                    wraps=tournament_standings_recompute) as recompute:
        published = outbox_sweep()
    assert published == 1 and recompute.call_count == 1  # one task for the whole burst
    assert not unsent.exists()
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == before + 1
    assert sum(r["bullseyes_won"] for r in latest(tournament).rows) == len(boards)


def test_the_standings_task_retries_a_transient_database_error():
    from tournaments.tasks import standings_recompute

    tournament, _, organiser, round_ = started(2)
    calls = itertools.count()

    def flaky(*, tournament_id: int) -> bool:
        if next(calls) == 0:
            raise OperationalError("server closed the connection unexpectedly")
        return tournament_standings_recompute(tournament_id=tournament_id)

    with mock.patch("tournaments.services.standings.tournament_standings_recompute", side_effect=flaky):
        result = standings_recompute.apply(args=[tournament.pk], throw=False)
    assert result.successful() and next(calls) == 2
    assert standings_recompute.max_retries and standings_recompute.autoretry_for == (OperationalError,)


def test_the_pairing_task_records_a_refusal_on_the_round_and_does_not_retry_it():
    from tournaments.services.rounds import round_create
    from tournaments.tasks import round_pair

    tournament, e, organiser = pairs_event(4, pairing_system="round_robin")
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=3)
    round_ = round_create(tournament=tournament, number=9)  # past the end of the round robin
    assert round_pair(round_.pk) == "pending"
    round_.refresh_from_db()
    assert round_.status == "pending" and round_.feasibility_note.startswith("Pairing failed: ")
    assert round_pair(987654) is None  # a deleted round: nothing to do
    assert not BoardPair.objects.filter(round=round_).exists()
