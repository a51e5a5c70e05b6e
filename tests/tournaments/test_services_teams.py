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
from tournaments.models import Board, BoardPair, Game, TeamMatch
from tournaments.pairing import team_match_boards
from tournaments.selectors import board_state
from tournaments.services import (
    Conflict,
    ValidationFailed,
    round_close,
    round_create,
    round_seat_team_matches,
    team_lineup_set,
)

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


def test_team_match_line_up_slot_i_meets_slot_i_on_numbered_tables_sides_alternating():
    """docs/decisions.md: slot i of one club's line-up meets slot i of the other's; the pure core
    (pairing.team_match_boards) alternates the sides: club A's pair on side 0 at board 1, club B's at board 2."""
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    assert (first.slot, first.table, second.slot, second.table) == (0, 1, 1, 2)
    a, b = team_match.lineup_a, team_match.lineup_b
    assert (first.pair_a_id, first.pair_b_id) == (a[0], b[0])
    assert (second.pair_a_id, second.pair_b_id) == (b[1], a[1])
    sides = set(BoardPair.objects.filter(board__team_match=team_match).values_list("board_id", "entry_id", "side"))
    assert sides == {(first.pk, a[0], 0), (first.pk, b[0], 1), (second.pk, b[1], 0), (second.pk, a[1], 1)}
    assert board_state(first)["team_match"]["club_a_side"] == 0
    assert board_state(second)["team_match"]["club_a_side"] == 1


@pytest.mark.parametrize("k", [1, 3, 4])
def test_team_match_boards_follow_the_pure_core_layout(k):
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": k, "kind": "games", "n": 1})
    clubs = [make_club(), make_club()]
    for club in clubs:
        make_entries(tournament, k, club=club)
    round_ = make_team_round(tournament, clubs)
    team_match = TeamMatch.objects.get(round=round_)
    expected = team_match_boards(team_match.club_a_id, team_match.lineup_a, team_match.club_b_id, team_match.lineup_b)
    boards = list(team_match.boards.order_by("slot"))
    assert [(b.slot + 1, b.pair_a_id, b.pair_b_id) for b in boards] == [(t.slot, t.side0, t.side1) for t in expected]
    assert [b.pair_a.pair.club_id for b in boards] == [t.side0_club for t in expected]
    assert [b.table for b in boards] == list(range(1, k + 1))


def test_team_match_totals_count_each_clubs_bullseyes_on_whichever_side_its_pair_sits():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    win_game(first, to=0)  # club A's pair (side 0 of board 1)
    win_game(second, to=1)  # club A's pair again (side 1 of board 2)
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (True, 0, 2, 0)
    assert board_state(second)["team_match"]["bullseyes"] == [2, 0]
    assert board_state(second)["result"]["live_bullseyes"] == [0, 1]  # the board's own sides


def test_a_line_up_set_on_a_drafted_round_keeps_the_alternating_sides():
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": 2, "kind": "games", "n": 1})
    clubs = [make_club(), make_club()]
    for club in clubs:
        make_entries(tournament, 2, club=club)
    round_ = round_create(tournament=tournament)
    round_seat_team_matches(round=round_, matches=[(clubs[0], clubs[1])])
    team_match = TeamMatch.objects.get(round=round_)
    organiser = make_organiser(tournament)
    reversed_a = list(reversed(team_match.lineup_a))
    team_lineup_set(team_match=team_match, club=team_match.club_a_id, entries=reversed_a, user=organiser)
    team_match.refresh_from_db()
    assert team_match.lineup_a == reversed_a
    first, second = team_match.boards.order_by("slot")
    assert (first.pair_a_id, first.pair_b_id) == (reversed_a[0], team_match.lineup_b[0])
    assert (second.pair_a_id, second.pair_b_id) == (team_match.lineup_b[1], reversed_a[1])
    assert set(BoardPair.objects.filter(board__team_match=team_match).values_list("entry_id", "side")) == {
        (reversed_a[0], 0), (team_match.lineup_b[0], 1), (team_match.lineup_b[1], 0), (reversed_a[1], 1)}


def test_a_club_cannot_play_a_team_match_against_itself():
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": 1, "kind": "games", "n": 1})
    club = make_club()
    make_entries(tournament, 1, club=club)
    round_ = round_create(tournament=tournament)
    with pytest.raises(ValidationFailed) as exc:
        round_seat_team_matches(round=round_, matches=[(club, club)])
    assert exc.value.code == "same_club"
    assert not TeamMatch.objects.exists() and not Board.objects.exists()


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
    win_game(second, to=1)  # club A's pair sits on side 1 of board 2
    assert Game.objects.get(board=first, number=2).status == "voided"
    assert TeamMatch.objects.get(pk=team_match.pk).decided


def test_games_team_match_is_decided_by_total_bullseyes_after_every_board_level_is_a_draw():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    win_game(first, to=0)
    team_match.refresh_from_db()
    assert not team_match.decided
    win_game(second, to=0)  # club B's pair sits on side 0 of board 2
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_a, team_match.bullseyes_b) == (True, None, 1, 1)


def test_knockout_team_match_level_is_decided_by_one_more_game_on_its_first_board():
    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1}, pairing_system="knockout")
    win_game(first, to=0)  # club A
    win_game(second, to=0)  # club B (its pair on side 0 of board 2)
    team_match.refresh_from_db()
    assert not team_match.decided
    assert current_game(first).number == 2 and current_game(first).status == "in_play"
    win_game(first, to=1)  # club B
    team_match.refresh_from_db()
    assert (team_match.decided, team_match.winner, team_match.bullseyes_b) == (True, 1, 2)


def test_a_team_matchs_hang_jacks_follow_a_game_confirmed_by_the_organiser():
    """A board's hang jacks count once its game is confirmed; the team match totalling them must follow the
    confirmation at once, not wait for the round's close (found by the archive's round trip, issue 15)."""
    from tournaments.services import game_confirm

    team_match, first, second = team_boards({"boards": 2, "kind": "games", "n": 1})
    win_game(first, to=0, hands=2)  # club A's pair on side 0 of board 1: two hang jacks
    win_game(second, to=1)  # club A's pair on side 1 of board 2
    organiser = make_organiser(team_match.round.tournament)
    game = Game.objects.get(board=first, status="finished")
    game_confirm(game=game, party="organiser", agrees=True, user=organiser)
    first.refresh_from_db()
    team_match.refresh_from_db()
    assert (first.hang_jacks_a, first.hang_jacks_b) == (2, 0)
    assert (team_match.hang_jacks_a, team_match.hang_jacks_b) == (2, 0)
