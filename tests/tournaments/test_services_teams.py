"""Club-team matches: bullseyes totalled over the boards; a first_to_total race stops every board."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    current_game,
    make_club,
    make_entries,
    make_organiser,
    make_team_round,
    make_tournament,
    seat,
    submit,
    tally,
    win_game,
)
from tournaments.models import Board, Game, TeamMatch
from tournaments.services import Conflict, round_close

pytestmark = pytest.mark.django_db


def team_boards(team_format: dict, pairing_system: str = "swiss") -> tuple[TeamMatch, Board, Board]:
    tournament = make_tournament(entrant_type="club_teams", team_format=team_format, pairing_system=pairing_system)
    clubs = [make_club(), make_club()]
    for club in clubs:
        make_entries(tournament, 2, club=club)
    round_ = make_team_round(tournament, clubs)
    team_match = TeamMatch.objects.get(round=round_)
    first, second = (seat(b) for b in team_match.boards.order_by("slot"))
    return team_match, Board.objects.get(pk=first.pk), Board.objects.get(pk=second.pk)


def test_team_match_line_up_slot_i_meets_slot_i_on_numbered_tables():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    assert (first.slot, first.table, second.slot, second.table) == (0, 1, 1, 2)
    assert [first.pair_a_id, second.pair_a_id] == team_match.lineup_a
    assert [first.pair_b_id, second.pair_b_id] == team_match.lineup_b


def test_first_to_total_race_ends_when_one_club_reaches_n_and_boards_still_in_play_stop():
    team_match, first, second = team_boards({"boards": 2, "kind": "first_to_total", "n": 2})
    win_game(first, to=0)
    assert current_game(first).number == 2  # a race board plays on
    submit(second, tally(0, to=1))  # board 2 mid-game when the race ends
    win_game(first, to=0)
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (True, 0, 2, 0)
    first = Board.objects.get(pk=first.pk)
    second = Board.objects.get(pk=second.pk)
    assert first.decided and second.decided
    assert not Game.objects.filter(board=first, number=3).exists()
    with pytest.raises(Conflict) as exc:
        submit(second, tally(1, to=1))
    assert exc.value.code == "match_decided"
    organiser = make_organiser(team_match.round.tournament)
    round_close(round=team_match.round, user=organiser, confirm_remaining=True)
    assert Game.objects.get(board=second, number=1).status == "voided"  # the stopped game does not count


def test_first_to_total_race_voids_an_empty_game_on_the_other_boards():
    team_match, first, second = team_boards({"boards": 2, "kind": "first_to_total", "n": 2})
    win_game(first, to=0)
    win_game(second, to=0)
    assert Game.objects.get(board=first, number=2).status == "voided"
    assert TeamMatch.objects.get(pk=team_match.pk).decided


def test_games_team_match_is_decided_by_total_bullseyes_after_every_board_level_is_a_draw():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    win_game(first, to=0)
    team_match.refresh_from_db()
    assert not team_match.decided
    win_game(second, to=1)
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (True, None, 1, 1)


def test_knockout_team_match_level_is_decided_by_one_more_game_on_its_first_board():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1}, pairing_system="knockout")
    win_game(first, to=0)
    win_game(second, to=1)
    team_match.refresh_from_db()
    assert not team_match.decided
    assert current_game(first).number == 2 and current_game(first).status == "in_play"
    win_game(first, to=1)
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_b) == (True, 1, 2)
