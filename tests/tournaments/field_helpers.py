"""Helpers for the issue 13 service tests (tests/tournaments/test_services_field.py and
test_services_swiss_steering.py): events built and played through the services, boards played to a given
score, the grace time run out, and the pure core's view of a stored round.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tests.tournaments.factories import seat, win_game
from tournaments.models import Board, Entry, Game, Round, StandingsSnapshot, Tournament
from tournaments.pairing import DraftBoard, DraftBye, DraftRound, Entrant, History, PastBoard, PastBye
from tournaments.services import round_close, round_publish, round_start_play


def fresh(obj: Any) -> Any:
    """The row as stored now."""
    return type(obj).objects.get(pk=obj.pk)


def boards_of(round_: Round) -> list[Board]:
    """The round's boards: tables in order, then byes."""
    boards = list(Board.objects.filter(round=round_))
    return sorted(boards, key=lambda b: (b.table is None, b.table or 0, b.pk))


def pairs_of(round_: Round) -> set[frozenset[int]]:
    """The boards with two pairs, as sets of entry ids."""
    return {frozenset((b.pair_a_id, b.pair_b_id)) for b in Board.objects.filter(round=round_, pair_b__isnull=False)}


def byes_of(round_: Round) -> list[int]:
    return sorted(Board.objects.filter(round=round_, pair_b__isnull=True).values_list("pair_a_id", flat=True))


def board_of(round_: Round, entry: Entry | int) -> Board:
    pk = entry.pk if isinstance(entry, Entry) else entry
    return Board.objects.get(Q(pair_a_id=pk) | Q(pair_b_id=pk), round=round_)


def opponent(board: Board, entry: Entry | int) -> int | None:
    pk = entry.pk if isinstance(entry, Entry) else entry
    return board.pair_b_id if board.pair_a_id == pk else board.pair_a_id


def side_of(board: Board, entry: Entry | int) -> int:
    pk = entry.pk if isinstance(entry, Entry) else entry
    assert pk in (board.pair_a_id, board.pair_b_id)
    return 0 if board.pair_a_id == pk else 1


def live_games(board: Board) -> list[Game]:
    return list(Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED).order_by("number"))


def grace_over(round_: Round, minutes: int | None = None) -> Round:
    """Move the round's publication into the past, beyond the event's grace time."""
    tournament = Tournament.objects.get(pk=round_.tournament_id)
    back = (tournament.grace_minutes if minutes is None else minutes) + 1
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=back))
    return fresh(round_)


def play_to(board: Board, winner: int, loser_games: int = 0) -> Board:
    """Seat ``board`` (unless seated) and play it to a decision: the loser (``1 - winner``) wins its
    ``loser_games`` first, then the winner every game it needs. Each game is two hang-jack hands: 14-0
    in chalks, two hang jacks."""
    if not Game.objects.filter(board=board).exists():
        seat(board)
    for _ in range(loser_games):
        win_game(board, to=1 - winner, hands=2)
    while not fresh(board).decided:
        win_game(board, to=winner, hands=2)
    return fresh(board)


def play_and_close(round_: Round, organiser: Any, winner_of: Callable[[Board], int], *,
                   loser_games: Callable[[Board], int] | int = 0, publish: bool = True) -> Round:
    """Publish (unless already), start play, play every undecided board and close the round."""
    round_ = fresh(round_)
    if publish and round_.status == Round.Status.DRAFTED:
        round_publish(round=round_, user=organiser)
    round_start_play(round=round_, user=organiser)
    for board in Board.objects.filter(round=round_, pair_b__isnull=False, decided=False).order_by("table"):
        lost = loser_games(board) if callable(loser_games) else loser_games
        play_to(board, winner_of(board), lost)
    return round_close(round=round_, user=organiser, confirm_remaining=True)


def winners(ids: Collection[int]) -> Callable[[Board], int]:
    """The side of each board holding an entry of ``ids`` wins (exactly one of them must be there)."""
    def winner(board: Board) -> int:
        a, b = board.pair_a_id in ids, board.pair_b_id in ids
        assert a != b, f"board {board.pair_a_id} v {board.pair_b_id}: name one winner of {sorted(ids)}"
        return 0 if a else 1
    return winner


def latest_snapshot(tournament: Tournament) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


def standing(tournament: Tournament, entry: Entry | int) -> dict[str, Any]:
    """The entry's row of the standings, recomputed now."""
    from tournaments.services import tournament_standings_recompute

    tournament_standings_recompute(tournament_id=tournament.pk)
    pk = entry.pk if isinstance(entry, Entry) else entry
    return next(r for r in latest_snapshot(tournament).rows if r["entry_id"] == pk)


# ---- the pure core's view ---------------------------------------------------------------------------------
def ranked_from(round_: Round) -> list[Entrant]:
    """The field a stored round was paired from, in its snapshot's order (what the service handed the core)."""
    from tournaments.services.pairing import _field

    round_ = fresh(round_)
    tournament = Tournament.objects.get(pk=round_.tournament_id)
    return list(_field(tournament, round_, round_.paired_from).ranked)


def history_before(tournament: Tournament, number: int) -> History:
    from tournaments.services.pairing import _history

    return _history(Tournament.objects.get(pk=tournament.pk), number, clubs=False)


def draft_of(round_: Round) -> DraftRound:
    """A stored round of pairs as a ``DraftRound`` (tables in order, the single bye if any)."""
    boards = boards_of(round_)
    real = [b for b in boards if b.pair_b_id is not None]
    byes = [b for b in boards if b.pair_b_id is None]
    return DraftRound(round_.number,
                      tuple(DraftBoard(b.table or 0, b.pair_a_id, b.pair_b_id, b.explanation) for b in real),
                      DraftBye(byes[0].pair_a_id, byes[0].explanation) if len(byes) == 1 else None)


def as_sets(boards: Iterable[Sequence[int | None]]) -> set[frozenset[int]]:
    return {frozenset(pair[:2]) for pair in boards if pair[1] is not None}  # type: ignore[misc]


def stored_history(tournament: Tournament, upto: int) -> History:
    """Every board and bye of rounds 1..upto as the pure core's history (no floats)."""
    boards, byes = [], []
    for number, a, b in Board.objects.filter(round__tournament=tournament, round__number__lte=upto).values_list(
            "round__number", "pair_a_id", "pair_b_id"):
        if b is None:
            byes.append(PastBye(number, a))
        else:
            boards.append(PastBoard(number, a, b))
    return History(tuple(boards), tuple(byes))
