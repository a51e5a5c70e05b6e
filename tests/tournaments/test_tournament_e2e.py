"""Whole simulated tournaments through the services, checked against a full recomputation.

Every game is dealt and played by ``scoring.simulate.simulate_game`` and entered hand by hand through
``hand_submit`` from the table's tablet; pairs confirm (one refuses and the organiser rules), rounds close
and the next is started from the confirmed standings. At the end every stored hand is rescored by the
engine (``scoring.score_game`` with each game's own stored rules), each board's results are derived
again from those rescored games, and the standings are recomputed from them independently of the
service: the stored board results and the stored snapshot must equal that recomputation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import scoring
from scoring.simulate import simulate_game
from tests.tournaments.factories import (
    make_club,
    make_device,
    make_entries,
    make_organiser,
    make_tournament,
    seat,
)
from tournaments import adapters
from tournaments.models import Board, Device, Game, Hand, Round, StandingsSnapshot, TeamMatch, Tournament
from tournaments.ranking import BoardResult, ByeRecord, compute_standings, team_match_result
from tournaments.services import (
    game_confirm,
    hand_submit,
    round_close,
    round_publish,
    round_start,
    round_start_play,
    tournament_standings_recompute,
)
from tournaments.services.standings import ranking_config

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in-process on commit, as with no REDIS_URL (the worker test covers a real worker)."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


# ---- playing ------------------------------------------------------------------------------------------
def tablet(devices: dict[int, Device], board: Board) -> Device:
    """The table's tablet: one per table, kept across rounds."""
    if board.table not in devices:
        devices[board.table] = make_device(board)
    return devices[board.table]


def play_board(board: Board, device: Device, organiser: Any, rng: random.Random) -> None:
    seat(board, first_dealer=rng.randrange(4))
    while True:
        board = Board.objects.get(pk=board.pk)
        if board.decided:
            break
        game = Game.objects.filter(board=board, status="in_play").order_by("-number").first()
        simulated = simulate_game(game.rules, seed=rng.randrange(10**9), first_dealer=game.first_dealer)
        for number, record in enumerate(simulated.tally_hands, start=1):
            hand_submit(board=board, game_number=game.number, hand_number=number, record=record, device=device)
        game.refresh_from_db()
        assert game.status == "finished" and game.winner == simulated.winner
        roll = rng.random()
        if roll < 0.1:  # pair B disputes, the organiser rules by confirming
            game_confirm(game=game, party="b", agrees=False, reason="we counted 13", device=device)
            assert Board.objects.get(pk=board.pk).disputed
            game_confirm(game=game, party="organiser", user=organiser)
        elif roll < 0.7:
            game_confirm(game=game, party="a", device=device)
            game_confirm(game=game, party="b", device=device)
        elif roll < 0.85:
            game_confirm(game=game, party="organiser", user=organiser)
        # else: left for the organiser's bulk confirmation when the round closes


def play_tournament(tournament: Tournament, organiser: Any, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    devices: dict[int, Device] = {}
    for _ in range(rounds):
        round_ = round_start(tournament=tournament, user=organiser)
        assert round_.status == "drafted"
        round_publish(round=round_, user=organiser)
        round_start_play(round=round_, user=organiser)
        for board in Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table"):
            play_board(board, tablet(devices, board), organiser, rng)
        round_close(round=round_, user=organiser, confirm_remaining=True)


# ---- recomputing from the hands ----------------------------------------------------------------------
def rescored_games(board: Board) -> list[dict[str, Any]]:
    """The board's live games, every hand rescored by the engine with the game's stored rules."""
    out = []
    for game in Game.objects.filter(board=board).exclude(status="voided").order_by("number"):
        hands = list(Hand.objects.filter(game=game, status="active").order_by("number"))
        if not hands:
            continue
        result = scoring.score_game(adapters.game_document(game, [h.record for h in hands]))
        for hand, again in zip(hands, result["hands"], strict=True):
            assert hand.score_after == again["score"] and hand.winner == again["winner"]
            assert hand.events == again["events"]
        assert game.score == result["score"] and game.winner == result["winner"]
        hang = [0, 0]
        for again in result["hands"]:
            for event in again["events"]:
                if event["kind"] == "hang_jack":
                    hang[event["side"]] += 1
        out.append({"winner": result["winner"], "score": result["score"], "hang": hang, "confirmed": game.confirmed})
    return out


def recomputed_board(board: Board) -> dict[str, Any]:
    """Results of one board from its rescored games: the match format read independently."""
    games = [g for g in rescored_games(board) if g["winner"] is not None]
    fmt = board.match_format
    wins, counted = [0, 0], 0
    for g in games:
        wins[g["winner"]] += 1
        counted += 1
        if fmt["kind"] == "first_to" and max(wins) >= fmt["n"]:
            break
        if fmt["kind"] == "games" and counted >= fmt["n"]:
            break
    games = games[:counted]
    decided = max(wins) >= fmt["n"] if fmt["kind"] == "first_to" else counted >= fmt["n"]
    confirmed = [g for g in games if g["confirmed"]]
    return {
        "bullseyes": (sum(g["winner"] == 0 for g in confirmed), sum(g["winner"] == 1 for g in confirmed)),
        "chalks": (sum(g["score"][0] for g in confirmed), sum(g["score"][1] for g in confirmed)),
        "hang_jacks": (sum(g["hang"][0] for g in confirmed), sum(g["hang"][1] for g in confirmed)),
        "counts": decided and len(confirmed) == len(games),
    }


def full_recomputation(tournament: Tournament) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Pairs' and clubs' standings recomputed from rescored hands, checking every stored board on the way."""
    config = ranking_config(tournament)
    results, byes, per_match = [], [], {}
    for board in Board.objects.filter(round__tournament=tournament).select_related("round").order_by("round__number", "id"):
        if board.pair_b_id is None:
            byes.append(ByeRecord(board.round.number, board.pair_a_id))
            continue
        again = recomputed_board(board)
        stored = {"bullseyes": (board.bullseyes_a, board.bullseyes_b), "chalks": (board.chalks_a, board.chalks_b),
                  "hang_jacks": (board.hang_jacks_a, board.hang_jacks_b),
                  "counts": board.decided and board.all_confirmed}
        assert stored == again, f"board {board.pk} (round {board.round.number}, table {board.table})"
        result = BoardResult(board.round.number, board.pair_a_id, board.pair_b_id, again["bullseyes"],
                             again["chalks"], again["hang_jacks"], again["counts"])
        results.append(result)
        if board.team_match_id:
            per_match.setdefault(board.team_match_id, []).append(result)
    entries = list(tournament.entries.order_by("seed", "id").select_related("pair"))
    pairs = compute_standings([e.pk for e in entries], results, byes, config)
    club_of = {e.pk: e.pair.club_id for e in entries}
    rows = [{"entry_id": r.entrant_id, "club_id": club_of[r.entrant_id], **r.as_dict()} for r in pairs.rows]
    if tournament.entrant_type != "club_teams":
        return rows, []
    clubs = list(dict.fromkeys(e.pair.club_id for e in entries))
    club_results, club_byes = [], []
    for match in TeamMatch.objects.filter(round__tournament=tournament).select_related("round").order_by("round__number", "id"):
        if match.club_b_id is None:
            club_byes.append(ByeRecord(match.round.number, match.club_a_id))
            continue
        boards = per_match[match.pk]
        counts = match.decided and all(b.decided for b in boards)
        club_results.append(team_match_result(match.round.number, match.club_a_id, match.club_b_id, boards,
                                              club_of, decided=counts))
    table = compute_standings(clubs, club_results, club_byes, config)
    return rows, [{"club_id": r.entrant_id, **r.as_dict()} for r in table.rows]


def check_against_recomputation(tournament: Tournament) -> StandingsSnapshot:
    snapshot = tournament.snapshots.order_by("-created_at", "-id").first()
    assert snapshot is not None
    assert tournament_standings_recompute(tournament_id=tournament.pk) is False, "the stored snapshot is current"
    rows, clubs = full_recomputation(tournament)
    assert snapshot.rows == rows
    if clubs:
        assert snapshot.clubs == clubs
    assert snapshot.after_round == Round.objects.filter(tournament=tournament, status="closed").count()
    return snapshot


# ---- the tournaments ---------------------------------------------------------------------------------
def test_a_whole_swiss_of_pairs_played_hand_by_hand_equals_a_full_recomputation():
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=4)
    tournament.refresh_from_db()
    clubs = [make_club() for _ in range(3)]
    for i in range(7):  # an odd field: a bye every round
        make_entries(tournament, 1, club=clubs[i % 3])
    organiser = make_organiser(tournament)
    play_tournament(tournament, organiser, rounds=4, seed=2024)
    snapshot = check_against_recomputation(tournament)
    assert sum(r["byes"] for r in snapshot.rows) == 4 and max(r["byes"] for r in snapshot.rows) == 1
    pairs_met = [frozenset((b.pair_a_id, b.pair_b_id))
                 for b in Board.objects.filter(round__tournament=tournament, pair_b__isnull=False)]
    assert len(pairs_met) == len(set(pairs_met)), "no rematch in four rounds of seven pairs"
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.paired_from.after_round for r in rounds] == [0, 1, 2, 3]


def test_a_whole_round_robin_of_club_teams_equals_a_full_recomputation():
    tournament = make_tournament(entrant_type="club_teams", pairing_system="round_robin",
                                 team_format={"boards": 2, "kind": "games", "n": 2})
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=3)
    tournament.refresh_from_db()
    for _ in range(3):
        make_entries(tournament, 2, club=make_club())
    organiser = make_organiser(tournament)
    play_tournament(tournament, organiser, rounds=3, seed=17)
    snapshot = check_against_recomputation(tournament)
    assert len(snapshot.clubs) == 3 and sum(c["byes"] for c in snapshot.clubs) == 3
    assert sum(c["played"] for c in snapshot.clubs) == 6  # three team matches, two clubs each
