"""Test data for the page tests: a small published tournament with real simulated games.

Pages only read, so these builders write models directly (the services are tested elsewhere); every
hand is played by the engine's simulator and stored with the engine's own events and scores, so the
chalk sheets show what a real game shows.
"""

from __future__ import annotations

import itertools
from typing import Any

from scoring import RuleSet
from scoring.simulate import simulate_game
from tournaments.models import (
    Board,
    BoardPair,
    Club,
    Entry,
    Game,
    GameConfirmation,
    Hand,
    Pair,
    Player,
    Round,
    StandingsSnapshot,
    Tournament,
)

RULES = "trinidad-tournament"
_counter = itertools.count(1)

CLUBS = ["Couva Jacks", "Sangre Grande All Fours Club"]
PLAYERS = [
    ("Ramdeen Ali", "Kavita Ramdeen"), ("Marcus Joseph", "Keisha Joseph"),
    ("Anand Persad", "Shiva Persad"), ("Curtis Baptiste", "Lennox Charles"),
    ("Indira Maharaj", "Rohan Maharaj"), ("Desmond Pierre", "Gail Pierre"),
]


def make_tournament(*, published: bool = True, name: str = "Couva Open", pairs: int = 4, **fields: Any) -> Tournament:
    n = next(_counter)
    resolved = RuleSet.from_spec(RULES).to_dict()
    t = Tournament.objects.create(
        name=name, slug=f"{name.lower().replace(' ', '-')}-{n}", venue="Couva Community Centre",
        published=published, status=Tournament.Status.RUNNING, rules=RULES, rules_resolved=resolved, **fields,
    )
    clubs = [Club.objects.get_or_create(name=c, defaults={"town": c.split()[0]})[0] for c in CLUBS]
    for i in range(pairs):
        p1, p2 = PLAYERS[i % len(PLAYERS)]
        suffix = "" if i < len(PLAYERS) else f" {i}"
        club = clubs[i % len(clubs)]
        a = Player.objects.create(name=p1 + suffix, club=club)
        b = Player.objects.create(name=p2 + suffix, club=club)
        pair = Pair.objects.create(player_1=a, player_2=b, club=club, name=f"{p1.split()[0]} & {p2.split()[0]}{suffix}")
        Entry.objects.create(tournament=t, pair=pair, seed=i + 1)
    return t


def make_round(t: Tournament, number: int, status: str = Round.Status.IN_PLAY, *, pairings=None) -> Round:
    r = Round.objects.create(tournament=t, number=number, status=status)
    entries = list(t.entries.order_by("seed"))
    pairings = pairings or [(entries[i], entries[i + 1] if i + 1 < len(entries) else None) for i in range(0, len(entries), 2)]
    table = 1
    for a, b in pairings:
        board = Board.objects.create(
            round=r, table=table if b else None, pair_a=a, pair_b=b, match_format={"kind": "first_to", "n": 2}
        )
        BoardPair.objects.create(board=board, round=r, entry=a, side=0)
        if b:
            BoardPair.objects.create(board=board, round=r, entry=b, side=1)
            table += 1
    return r


def play_game(board: Board, number: int, *, seed: int, confirmed: bool = True, first_dealer: int = 0,
              hands: int | None = None) -> Game:
    """Play one game on ``board`` with the simulator; ``hands`` stops it early (a game in play)."""
    sim = simulate_game(RULES, seed=seed, first_dealer=first_dealer)
    played = sim.hands if hands is None else sim.hands[:hands]
    last = played[-1] if played else None
    finished = hands is None
    game = Game.objects.create(
        board=board, number=number, first_dealer=first_dealer, rules=sim.rules.to_dict(),
        score=list(last.score) if last else [0, 0], winner=last.winner if finished and last else None,
        next_dealer=last.next_dealer if last else first_dealer,
        status=Game.Status.FINISHED if finished else Game.Status.IN_PLAY, confirmed=finished and confirmed,
    )
    dealer = first_dealer
    for i, h in enumerate(played, 1):
        Hand.objects.create(
            game=game, number=i, record=h.tally, dealer=dealer,
            events=[e.to_dict() for e in h.result.events], trump=getattr(h.result.trump, "value", "") or "",
            score_after=list(h.score), winner=h.winner, next_dealer=h.next_dealer,
        )
        dealer = h.next_dealer
    if finished and confirmed:
        GameConfirmation.objects.create(game=game, party="a")
        GameConfirmation.objects.create(game=game, party="b")
    if board.seating is None:
        board.first_dealer = first_dealer
        board.seating = {"0": board.pair_a.pair.player_1_id, "1": board.pair_b.pair.player_1_id,
                         "2": board.pair_a.pair.player_2_id, "3": board.pair_b.pair.player_2_id}
        board.save()
    return game


def finish_board(board: Board, *, seed: int, confirmed: bool = True) -> Board:
    """Play games until one side has two bullseyes (first to 2)."""
    won = [0, 0]
    number = 1
    dealer = 0
    while max(won) < 2:
        game = play_game(board, number, seed=seed * 100 + number, confirmed=confirmed, first_dealer=dealer)
        won[game.winner] += 1
        dealer = game.next_dealer
        number += 1
    board.decided = True
    board.winner = 0 if won[0] == 2 else 1
    board.bullseyes_a, board.bullseyes_b = won
    board.all_confirmed = confirmed
    board.save()
    return board


def make_snapshot(t: Tournament, after_round: int = 1) -> StandingsSnapshot:
    """A snapshot with one row per entry, in the shape of ``ranking.StandingRow.as_dict()``."""
    rows = []
    for rank, e in enumerate(t.entries.order_by("seed"), 1):
        won = rank % 2 == 1
        rows.append({
            "entrant_id": e.id, "rank": rank, "tied": False, "record": "1-0" if won else "0-1", "played": 1,
            "wins": int(won), "draws": 0, "losses": int(not won), "byes": 0, "match_points": 2 if won else 0,
            "bullseyes_won": 2 if won else 1, "bullseyes_lost": 1 if won else 2, "chalks_for": 30 - rank,
            "chalks_against": 20 + rank, "chalk_difference": 10 - 2 * rank, "hang_jacks_for": rank,
            "hang_jacks_against": 1, "buchholz": 4, "head_to_head": None,
        })
    return StandingsSnapshot.objects.create(tournament=t, after_round=after_round, source_hash=f"h{t.id}-{after_round}", rows=rows)
