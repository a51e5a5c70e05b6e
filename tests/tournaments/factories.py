"""Builders for service tests: a tournament with entries, a round with boards, seated boards, tablets,
organisers, and hand-written tally records whose scores are easy to follow.

Under ``trinidad-tournament`` (Game = 2, target 14) ``tally(dealer, to=s)`` gives side ``s`` exactly 4
chalks (High 1, Low 1, Game 2; the kick, a nine, scores nothing), so a game is won on the fourth such hand
(12, then High 13 and Low 14: counting stops at the target). ``tally(..., hang_jack=True)`` adds a hang
jack (3): two such hands win a game.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

from tournaments.models import (
    Board,
    Club,
    Device,
    Entry,
    Hand,
    Pair,
    Player,
    Round,
    Tournament,
    TournamentRole,
)
from tournaments.services import (
    board_seat,
    hand_submit,
    round_create,
    round_publish,
    round_seat_boards,
    round_seat_team_matches,
    round_start_play,
    tournament_rules_resolve,
)

_serial = itertools.count(1)


def make_user(username: str | None = None, *, staff: bool = False) -> Any:
    return get_user_model().objects.create_user(username or f"user{next(_serial)}", password="x", is_staff=staff)


def make_organiser(tournament: Tournament) -> Any:
    user = make_user(f"organiser{next(_serial)}")
    TournamentRole.objects.create(tournament=tournament, user=user)
    return user


def make_tournament(
    *, rules: Any = "trinidad-tournament", match_format: dict[str, Any] | None = None,
    pairing_system: str = "swiss", entrant_type: str = "pairs", team_format: dict[str, Any] | None = None,
    time_called: str = "void",
) -> Tournament:
    n = next(_serial)
    tournament = Tournament.objects.create(
        name=f"Cup {n}", slug=f"cup-{n}", rules=rules, match_format=match_format or {"kind": "first_to", "n": 2},
        pairing_system=pairing_system, entrant_type=entrant_type, team_format=team_format, time_called=time_called,
    )
    return tournament_rules_resolve(tournament=tournament)


def make_club(name: str | None = None) -> Club:
    return Club.objects.create(name=name or f"Club {next(_serial)}")


def make_entries(tournament: Tournament, count: int, *, club: Club | None = None) -> list[Entry]:
    entries = []
    for _ in range(count):
        n = next(_serial)
        p1 = Player.objects.create(name=f"Player {n}a", club=club)
        p2 = Player.objects.create(name=f"Player {n}b", club=club)
        pair = Pair.objects.create(player_1=p1, player_2=p2, club=club, seed=n)
        entries.append(Entry.objects.create(tournament=tournament, pair=pair, seed=n))
    return entries


def open_round(round_: Round) -> Round:
    round_publish(round=round_)
    return round_start_play(round=round_)


def make_round(
    tournament: Tournament, pairings: Sequence[tuple[Entry, Entry | None]], *, status: str = "in_play",
) -> Round:
    """A round seated from ``pairings``; published and in play unless ``status`` says drafted/published."""
    round_ = round_create(tournament=tournament)
    round_seat_boards(round=round_, pairings=pairings)
    if status in ("published", "in_play"):
        round_publish(round=round_)
    if status == "in_play":
        round_start_play(round=round_)
    round_.refresh_from_db()
    return round_


def seat(board: Board, first_dealer: int = 0) -> Board:
    """Record the seating (pair A's players in seats 0 and 2, pair B's in 1 and 3) and the first dealer."""
    a, b = board.pair_a.pair, board.pair_b.pair
    seating = {"0": a.player_1_id, "1": b.player_1_id, "2": a.player_2_id, "3": b.player_2_id}
    return board_seat(board=board, seating=seating, first_dealer=first_dealer)


def make_board(*, first_dealer: int | None = 0, **tournament_kwargs: Any) -> Board:
    """A tournament of two pairs, round 1 in play, one board (table 1), seated unless first_dealer is None."""
    tournament = make_tournament(**tournament_kwargs)
    a, b = make_entries(tournament, 2)
    round_ = make_round(tournament, [(a, b)])
    board = Board.objects.get(round=round_, table=1)
    if first_dealer is not None:
        board = seat(board, first_dealer)
    return Board.objects.get(pk=board.pk)


def make_team_round(tournament: Tournament, clubs: Sequence[Club]) -> Round:
    round_ = round_create(tournament=tournament)
    round_seat_team_matches(round=round_, matches=[(clubs[0], clubs[1])])
    open_round(round_)
    round_.refresh_from_db()
    return round_


def make_device(board: Board) -> Device:
    token = secrets.token_hex(16)
    return Device.objects.create(tournament_id=board.round.tournament_id, table=board.table, token_digest=token * 2,
                                 token_prefix=token[:8])


# ---- hand records ------------------------------------------------------------------------------------
def tally(dealer: int, to: int = 0, *, hang_jack: bool = False) -> dict[str, Any]:
    """A played hand (tally form): side ``to`` takes High (AH), Low (2H) and Game; +3 with a hang jack."""
    return {
        "dealer": dealer,
        "kicks": ["9H"],
        "beg": "stand",
        "high": {"side": to, "card": "AH"},
        "low": {"side": to, "card": "2H"},
        "jack": {"held_by": 1 - to, "won_by": to} if hang_jack else None,
        "game": [40, 20] if to == 0 else [20, 40],
    }


def misdeal(dealer: int) -> dict[str, Any]:
    return {"dealer": dealer, "misdeal": True}


def current_game(board: Board) -> Any:
    return board.games.exclude(status="voided").order_by("-number").first()


def submit(board: Board, record: dict[str, Any], **kwargs: Any) -> Hand:
    """Submit ``record`` as the next hand of the board's current game."""
    game = current_game(board)
    last = game.hands.filter(status="active").order_by("-number").first()
    return hand_submit(board=board, game_number=game.number, hand_number=(last.number if last else 0) + 1,
                       record=record, **kwargs)


def win_game(board: Board, to: int = 0, *, hands: int = 4) -> list[Hand]:
    """Play the current game to its end, side ``to`` taking every hand (4 hands; 2 with hang jacks)."""
    out = []
    for _ in range(hands):
        game = current_game(board)
        out.append(submit(board, tally(game.next_dealer, to, hang_jack=hands == 2)))
    assert out[-1].winner == to, "the game should have ended"
    return out


def make_published_event(pairs: int) -> tuple[Any, Any, list[int], list[Any], list[Any]]:
    """A published event of ``pairs`` pairs in four clubs: two closed rounds with results, one in play with one
    game started on its first table (the rest not started: boards without games); standings recomputed.
    Returns the tournament, that live board, the entries' ids, the pairs and the players (the public reads'
    query-count and render tests build on it)."""
    from tournaments.services.standings import tournament_standings_recompute

    tournament = make_tournament()
    clubs = [Club.objects.create(name=f"Club {tournament.pk}-{i}") for i in range(4)]
    players = Player.objects.bulk_create([Player(name=f"P{i} of {tournament.pk}") for i in range(2 * pairs)])
    made = Pair.objects.bulk_create([Pair(player_1=players[2 * i], player_2=players[2 * i + 1], club=clubs[i % 4],
                                          seed=i + 1) for i in range(pairs)])
    ids = [e.pk for e in Entry.objects.bulk_create([Entry(tournament=tournament, pair=p, seed=p.seed) for p in made])]
    for number in (1, 2, 3):
        round_ = Round.objects.create(tournament=tournament, number=number, status="in_play" if number == 3 else "closed")
        order = ids[number - 1:] + ids[:number - 1]
        Board.objects.bulk_create([
            Board(round=round_, table=t // 2 + 1, pair_a_id=order[t], pair_b_id=order[t + 1], decided=number < 3,
                  winner=0 if number < 3 else None, bullseyes_a=2 if number < 3 else 0, all_confirmed=number < 3)
            for t in range(0, pairs - 1, 2)])
    live = Board.objects.filter(round__number=3, round__tournament=tournament).order_by("table").first()
    assert live is not None
    win_game(seat(live), 0)
    Tournament.objects.filter(pk=tournament.pk).update(published=True, status="running")
    tournament_standings_recompute(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament, live, ids, made, players
