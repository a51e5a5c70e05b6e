"""Helpers for the archive's tests: the demo with a correction and an undo in it, and what an event shows,
keyed by names and numbers (never database ids), so two servers' copies of one event compare equal."""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments import selectors
from tournaments.management.commands.demo import DemoLoader
from tournaments.models import Board, Device, Hand, Round, Tournament
from tournaments.services import hand_correct, hand_undo
from tournaments.services.standings import tournament_standings_recompute


def load_demo_with_history(seed: int = 2026) -> Tournament:
    """The demo (``manage.py demo``'s loader) plus a correction (a superseded version) on table 6 of round 3 and
    an undo (a voided hand) on table 1, so the archive carries versions and voids."""
    loader = DemoLoader(seed)
    tournament = loader.load()
    round_3 = Round.objects.get(tournament=tournament, number=3)
    help_board = Board.objects.get(round=round_3, table=6)
    hand = (Hand.objects.filter(game__board=help_board, status=Hand.Status.ACTIVE)
            .exclude(record__game=None).order_by("-game__number", "-number").first())
    assert hand is not None and hand.form == "tally"
    record = copy.deepcopy(hand.record)
    points = record["game"]
    record["game"] = [points[1], points[0]] if points[0] != points[1] and min(points) > 0 else [points[0] + 1, points[1]]
    hand_correct(hand=hand, record=record, expected_version=hand.version, user=loader.organiser)
    table_1 = Board.objects.get(round=round_3, table=1)
    last = Hand.objects.filter(game__board=table_1, status=Hand.Status.ACTIVE).order_by("-game__number", "-number").first()
    assert last is not None
    device = Device.objects.get(tournament=tournament, table=1, revoked_at__isnull=True)
    hand_undo(board=table_1, hand_id=last.pk, device=device)
    tournament_standings_recompute(tournament_id=tournament.pk)
    return tournament


def organiser(username: str = "importer") -> Any:
    """An account that may organise (the permission an invitation gives)."""
    user = get_user_model().objects.create_user(username=username, password="x" * 16)
    user.user_permissions.add(Permission.objects.get(content_type__app_label="tournaments", codename="organise_events"))
    return get_user_model().objects.get(pk=user.pk)


def _board_key(board: Board) -> str:
    if board.table is not None:
        return f"r{board.round.number}-t{board.table}"
    return f"r{board.round.number}-bye-{board.pair_a.pair.display_name}"


def event_view(tournament: Tournament) -> dict[str, Any]:
    """Every standings row (pairs and clubs) and every board's scorecard, as the selectors give them."""
    table = selectors.standings(tournament)
    clubs = selectors.club_standings(tournament)
    out: dict[str, Any] = {
        "columns": table.columns,
        "standings": [(r.rank, r.name, r.club, r.values) for r in table.rows],
        "club_standings": [(r.rank, r.name, r.values) for r in clubs.rows],
        "after_round": table.after_round,
        "boards": {},
    }
    boards = (Board.objects.filter(round__tournament=tournament)
              .select_related("round", "pair_a__pair__player_1", "pair_a__pair__player_2", "pair_b__pair__player_1",
                              "pair_b__pair__player_2", "pair_a__pair__club", "pair_b__pair__club"))
    for board in boards:
        games = []
        for game in selectors.scorecard_games(board, confirmations=True):
            games.append({
                "number": game.number, "status": game.status, "first_dealer": game.first_dealer, "score": game.score,
                "winner": game.winner, "next_dealer": game.next_dealer, "awarded": game.awarded,
                "confirmed": game.confirmed,
                "hands": [(h.number, h.version, h.dealer, h.form, h.record, h.trump, h.events, h.score_after, h.winner,
                           h.next_dealer) for h in game.active_hands],
                "confirmations": [(c.party, c.agrees, c.reason) for c in game.open_confirmations],
            })
        history = sorted((h.game.number, h.game.status, h.number, h.version, h.status, h.record, h.score_after)
                         for h in Hand.objects.filter(game__board=board).select_related("game"))
        out["boards"][_board_key(board)] = {
            "pair_a": board.pair_a.pair.display_name, "pair_b": board.pair_b.pair.display_name if board.pair_b else None,
            "status": board.status, "seats": selectors.seat_names(board), "result_source": board.result_source,
            "result": (board.bullseyes_a, board.bullseyes_b, board.chalks_a, board.chalks_b, board.hang_jacks_a,
                       board.hang_jacks_b, board.decided, board.winner, board.is_draw, board.all_confirmed,
                       board.disputed, board.help_called),
            "games": games, "history": history,
        }
    return out
