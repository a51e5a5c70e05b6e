"""Fixtures shared by the page tests: a club-team event played through the services."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    make_club,
    make_entries,
    make_organiser,
    make_tournament,
    seat,
    submit,
    tally,
    win_game,
)
from tournaments.models import Board, Game, TeamMatch, Tournament
from tournaments.services import (
    game_confirm,
    round_close,
    round_publish,
    round_start,
    round_start_play,
    tournament_standings_recompute,
)

CLUBS = ("Couva Jacks", "Sangre Grande All Fours", "Point Fortin Kickers")


def start_round(tournament, organiser):
    round_ = round_start(tournament=tournament, user=organiser)
    round_publish(round=round_, user=organiser)
    return round_start_play(round=round_, user=organiser)


def played_boards(round_) -> tuple[TeamMatch, Board, Board]:
    match = TeamMatch.objects.get(round=round_, club_b__isnull=False)
    first, second = (seat(b) for b in match.boards.order_by("slot"))
    return match, Board.objects.get(pk=first.pk), Board.objects.get(pk=second.pk)


@pytest.fixture
def league():
    """Three clubs of two pairs, a race to 2 bullseyes over 2 boards. Round 1: club A's first board wins
    the race 2-0, confirmed and closed. Round 2 in play: club B leads 1-0, the other board mid-game."""
    tournament = make_tournament(entrant_type="club_teams", pairing_system="round_robin",
                                 team_format={"boards": 2, "kind": "first_to_total", "n": 2})
    Tournament.objects.filter(pk=tournament.pk).update(published=True, rounds_planned=3)
    tournament.refresh_from_db()
    for name in CLUBS:
        make_entries(tournament, 2, club=make_club(name))
    organiser = make_organiser(tournament)

    round_1 = start_round(tournament, organiser)
    match_1, first, _ = played_boards(round_1)
    win_game(first, to=0)
    win_game(first, to=0)
    for game in Game.objects.filter(board__round=round_1, status="finished"):
        game_confirm(game=game, party="organiser", user=organiser)
    round_close(round=round_1, user=organiser, confirm_remaining=True)
    tournament_standings_recompute(tournament_id=tournament.pk)

    round_2 = start_round(tournament, organiser)
    match_2, first, second = played_boards(round_2)
    win_game(first, to=1)
    submit(second, tally(0, to=0))
    return {"tournament": tournament, "round_1": match_1, "round_2": match_2}
