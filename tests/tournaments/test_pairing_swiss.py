"""Swiss pairing, situation by situation: what a tournament director expects of each round."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    ClubAvoidance,
    Entrant,
    GroupPairing,
    History,
    PairingError,
    PastBoard,
    PastBye,
    SwissConfig,
    pair_swiss,
    swiss_graph,
)


def field(n: int, points: list[int] | None = None, clubs: list[int | None] | None = None) -> list[Entrant]:
    return [
        Entrant(id=i + 1, club_id=clubs[i] if clubs else None, points=points[i] if points else 0)
        for i in range(n)
    ]


def boards_of(draft):
    return [tuple(sorted(b.entrants)) for b in draft.boards]


def test_round_one_folds_the_field_top_half_against_bottom_half():
    draft = pair_swiss(field(8), History(), round_number=1)
    assert boards_of(draft) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [b.table for b in draft.boards] == [1, 2, 3, 4]
    assert draft.bye is None
    assert draft.cost.rematches == 0 and draft.cost.same_club == 0


def test_adjacent_pairing_puts_first_against_second():
    draft = pair_swiss(
        field(6), History(), round_number=1, config=SwissConfig(group_pairing=GroupPairing.ADJACENT)
    )
    assert boards_of(draft) == [(1, 2), (3, 4), (5, 6)]


def test_equal_records_meet_first():
    # After round 1: 1, 2, 3, 4 won; 5, 6, 7, 8 lost. Winners meet winners.
    history = History(boards=tuple(PastBoard(1, a, b) for a, b in [(1, 5), (2, 6), (3, 7), (4, 8)]))
    draft = pair_swiss(field(8, [2, 2, 2, 2, 0, 0, 0, 0]), history, round_number=2)
    assert boards_of(draft) == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert draft.cost.score_spread == 0


def test_odd_score_group_floats_its_lowest_down_to_the_top_of_the_next():
    draft = pair_swiss(field(6, [4, 4, 4, 2, 2, 2]), History(), round_number=3)
    assert (3, 4) in boards_of(draft)
    float_board = next(b for b in draft.boards if set(b.entrants) == {3, 4})
    assert "4 pts floats down a score group" in float_board.explanation
    assert draft.cost.score_spread == 4


def test_no_rematch_while_one_is_avoidable():
    # The fold would give 1 v 3 and 2 v 4, but 1 and 3 met in round 1.
    history = History(boards=(PastBoard(1, 1, 3), PastBoard(1, 2, 4)))
    draft = pair_swiss(field(4, [2, 2, 2, 2]), history, round_number=2)
    assert draft.cost.rematches == 0
    assert (1, 3) not in boards_of(draft)
    assert all(b.times_met == 0 for b in draft.boards)


def test_a_rematch_is_preferred_to_nothing_and_says_it_was_unavoidable():
    history = History(boards=(PastBoard(1, 1, 2),))
    draft = pair_swiss(field(2), history, round_number=2)
    (board,) = draft.boards
    assert board.times_met == 1
    assert "rematch (met in round 1): the field cannot be paired with fewer rematches" in board.explanation
    assert [w.code for w in draft.warnings] == ["rematch"]


def test_floating_beats_a_rematch():
    # 1 and 2 lead and have met: each floats down rather than meet again.
    history = History(boards=(PastBoard(1, 1, 2), PastBoard(1, 3, 4)))
    draft = pair_swiss(field(4, [2, 2, 0, 0]), history, round_number=2)
    assert draft.cost.rematches == 0
    assert draft.cost.score_spread == 8


def test_club_mates_are_kept_apart_inside_a_score_group():
    # The fold would pair 1 v 3, both of club 7.
    draft = pair_swiss(field(4, clubs=[7, 8, 7, 8]), History(), round_number=1)
    assert draft.cost.same_club == 0
    assert boards_of(draft) == [(1, 4), (2, 3)]


def test_prefer_club_avoidance_never_costs_a_float():
    draft = pair_swiss(field(4, [2, 2, 0, 0], [7, 7, 8, 9]), History(), round_number=2)
    assert boards_of(draft) == [(1, 2), (3, 4)]
    board = draft.boards[0]
    assert board.same_club
    assert "same club: avoiding it would cost a higher priority" in board.explanation
    assert [w.code for w in draft.warnings] == ["same_club"]


def test_strong_club_avoidance_floats_rather_than_meet_a_club_mate():
    config = SwissConfig(club_avoidance=ClubAvoidance.STRONG)
    draft = pair_swiss(field(4, [2, 2, 0, 0], [7, 7, 8, 9]), History(), round_number=2, config=config)
    assert draft.cost.same_club == 0
    assert draft.cost.score_spread == 8


def test_strong_club_avoidance_still_gives_way_to_rematches():
    config = SwissConfig(club_avoidance=ClubAvoidance.STRONG)
    history = History(boards=(PastBoard(1, 1, 3), PastBoard(1, 2, 4), PastBoard(2, 1, 4), PastBoard(2, 2, 3)))
    draft = pair_swiss(field(4, clubs=[7, 7, 8, 9]), history, round_number=3, config=config)
    assert boards_of(draft) == [(1, 2), (3, 4)]
    assert draft.cost.rematches == 0 and draft.cost.same_club == 1


def test_club_avoidance_off_lets_the_fold_stand():
    config = SwissConfig(club_avoidance=ClubAvoidance.OFF)
    draft = pair_swiss(field(4, clubs=[7, 8, 7, 8]), History(), round_number=1, config=config)
    assert boards_of(draft) == [(1, 3), (2, 4)]
    assert "club avoidance is off" in draft.boards[0].explanation


def test_bye_goes_to_the_lowest_ranked_pair():
    draft = pair_swiss(field(5), History(), round_number=1)
    assert draft.bye is not None and draft.bye.entrant == 5
    assert draft.bye.explanation == "lowest-ranked entrant without a bye (5th of 5)"
    assert draft.cost.bye_rank == 0


def test_bye_skips_a_pair_that_already_had_one():
    history = History(boards=(PastBoard(1, 1, 3), PastBoard(1, 2, 4)), byes=(PastBye(1, 5),))
    draft = pair_swiss(field(5, [2, 2, 0, 0, 2]), history, round_number=2)
    assert draft.bye is not None and draft.bye.entrant == 4


def test_bye_moves_up_when_the_lowest_would_force_a_rematch():
    # If 3 sits out, 1 and 2 must meet again; 2 sits out instead and 1 meets 3.
    draft = pair_swiss(field(3), History(boards=(PastBoard(1, 1, 2),)), round_number=2)
    assert draft.bye is not None and draft.bye.entrant == 2
    assert boards_of(draft) == [(1, 3)]
    assert "the 1 ranked below would force more" in draft.bye.explanation
    assert draft.cost.bye_rank == 1 and draft.cost.rematches == 0
    assert any("bye moved up" in note for note in draft.notes)


def test_everyone_has_had_a_bye_so_the_fewest_byes_decide():
    history = History(byes=(PastBye(1, 1), PastBye(2, 2), PastBye(3, 3), PastBye(4, 3)))
    draft = pair_swiss(field(3), history, round_number=5)
    assert draft.bye is not None and draft.bye.entrant == 2
    assert "with the fewest byes (1)" in draft.bye.explanation


def test_a_field_of_one_only_has_a_bye():
    draft = pair_swiss([Entrant(9)], History(), round_number=1)
    assert draft.boards == () and draft.bye is not None and draft.bye.entrant == 9


def test_sides_alternate_from_the_last_board():
    history = History(boards=(PastBoard(1, 1, 3), PastBoard(1, 4, 2)))
    draft = pair_swiss(field(4, [2, 2, 0, 0]), history, round_number=2)
    top = draft.boards[0]
    assert set(top.entrants) == {1, 2}
    # 1 sat on side 0 last round, 2 on side 1: 2 takes side 0 now.
    assert top.side0 == 2 and top.side1 == 1


def test_sides_balance_over_rounds_beats_alternation():
    boards = (
        PastBoard(1, 5, 1),
        PastBoard(2, 6, 1),
        PastBoard(3, 1, 7),
        PastBoard(1, 2, 8),
        PastBoard(3, 9, 2),
    )
    draft = pair_swiss([Entrant(1), Entrant(2)], History(boards=boards), round_number=4)
    # 1 sat on side 0 once in three boards, 2 once in two: 1 gets side 0 although it sat there last.
    assert draft.boards[0].side0 == 1


def test_explanation_reads_like_a_score_sheet():
    entrants = [Entrant(1, points=4, record="2-0"), Entrant(2, points=4, record="2-0")]
    draft = pair_swiss(entrants, History(), round_number=3)
    assert draft.boards[0].explanation == "2-0 v 2-0, same score group; not met before"


def test_tables_run_from_the_top_score_group_down():
    draft = pair_swiss(field(6, [0, 4, 0, 4, 2, 2]), History(), round_number=3)
    assert [tuple(sorted(b.entrants)) for b in draft.boards] == [(2, 4), (5, 6), (1, 3)]


def test_standings_order_breaks_ties_inside_a_score_group():
    # Same points: the list order is the rank, so 4 (listed first) is the top of the fold.
    entrants = [Entrant(4), Entrant(3), Entrant(2), Entrant(1)]
    draft = pair_swiss(entrants, History(), round_number=1)
    assert boards_of(draft) == [(2, 4), (1, 3)]


def test_a_duplicate_entrant_is_refused():
    with pytest.raises(PairingError) as err:
        pair_swiss([Entrant(1), Entrant(1)], History(), round_number=1)
    assert err.value.code == "duplicate_entrant"


def test_an_empty_field_is_refused():
    with pytest.raises(PairingError) as err:
        pair_swiss([], History(), round_number=1)
    assert err.value.code == "empty_field"


def test_round_numbers_start_at_one():
    with pytest.raises(PairingError) as err:
        pair_swiss(field(2), History(), round_number=0)
    assert err.value.code == "bad_round"


def test_a_field_whose_weights_would_overflow_is_refused():
    with pytest.raises(PairingError) as err:
        pair_swiss(field(4, [10**15, 0, 0, 0]), History(), round_number=2)
    assert err.value.code == "field_too_large"


def test_the_swiss_graph_is_built_for_even_fields_only():
    with pytest.raises(PairingError) as err:
        swiss_graph(field(3), History())
    assert err.value.code == "odd_field"


def test_a_large_field_is_matched_on_the_candidate_graph():
    # Four score groups of 75: one pair floats from the top group, one from the third.
    entrants = field(300, [2 * (i % 4) for i in range(300)])
    entrants.sort(key=lambda e: -e.points)
    draft = pair_swiss(entrants, History(), round_number=4)
    assert draft.notes[0].startswith("candidate graph: score groups complete")
    assert draft.cost.score_spread == 8 and draft.cost.rematches == 0
    assert len(draft.boards) == 150
    complete = pair_swiss(entrants, History(), round_number=4, config=SwissConfig(full_graph_limit=300))
    assert complete.notes[0].startswith("complete graph")
    assert complete.cost == draft.cost


def test_history_counts_meetings_sides_and_byes():
    h = History(boards=(PastBoard(1, 1, 2), PastBoard(3, 2, 1)), byes=(PastBye(2, 1),))
    assert h.times_met(2, 1) == 2 and h.rounds_met(1, 2) == (1, 3)
    assert h.opponents(1) == frozenset({2}) and h.bye_count(1) == 1
    assert h.side_balance(1) == 0 and h.last_side(1) == 1 and h.last_side(5) is None
    assert h.rounds_played == 3
    with pytest.raises(PairingError):
        History(boards=(PastBoard(1, 4, 4),))
