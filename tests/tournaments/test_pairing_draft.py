"""The organiser's adjustments to a drafted round, and the warnings they bring."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    DraftRound,
    Entrant,
    History,
    PairingError,
    PastBoard,
    PastBye,
    flip_sides,
    pair_swiss,
    review_round,
    swap_entrants,
    swap_tables,
)

FIELD = [Entrant(1, 10), Entrant(2, 20), Entrant(3, 10), Entrant(4, 30), Entrant(5, 40)]
HISTORY = History(boards=(PastBoard(1, 1, 4), PastBoard(1, 2, 3)), byes=(PastBye(1, 5),))


def draft() -> DraftRound:
    return pair_swiss(FIELD, HISTORY, round_number=2)


def test_a_computed_draft_has_nothing_to_warn_about():
    d = draft()
    assert d.warnings == () and review_round(d, FIELD, HISTORY) == ()


def test_swapping_two_pairs_into_a_rematch_warns():
    d = draft()
    partner_of_1 = next(b for b in d.boards if 1 in b.entrants)
    other = partner_of_1.side1 if partner_of_1.side0 == 1 else partner_of_1.side0
    changed = swap_entrants(d, other, 4, FIELD, HISTORY)
    assert "rematch" in [w.code for w in changed.warnings]
    board = next(b for b in changed.boards if 1 in b.entrants)
    assert 4 in board.entrants and board.times_met == 1
    assert "set by the organiser" in board.explanation and "rematch (met in round 1)" in board.explanation
    assert changed.notes[-1].startswith("adjusted by the organiser: swapped")


def test_swapping_club_mates_onto_one_board_warns():
    d = pair_swiss(FIELD[:4], History(), round_number=1)
    assert d.cost.same_club == 0
    board_of_1 = next(b for b in d.boards if 1 in b.entrants)
    mate = board_of_1.side1 if board_of_1.side0 == 1 else board_of_1.side0
    changed = swap_entrants(d, mate, 3, FIELD[:4], History())
    assert "same_club" in [w.code for w in changed.warnings]


def test_giving_the_bye_to_a_pair_that_had_one_warns():
    d = draft()
    assert d.bye is not None and d.bye.entrant != 5
    changed = swap_entrants(d, d.bye.entrant, 5, FIELD, HISTORY)
    assert changed.bye is not None and changed.bye.entrant == 5
    assert "repeat_bye" in [w.code for w in changed.warnings]


def test_review_finds_missing_doubled_and_unknown_entrants():
    d = draft()
    broken = DraftRound(2, d.boards[:1] + (d.boards[0],), None)
    codes = {w.code for w in review_round(broken, FIELD, HISTORY)}
    assert {"duplicate_entrant", "missing_entrant"} <= codes
    codes = {w.code for w in review_round(d, FIELD[:4], HISTORY)}
    assert "unknown_entrant" in codes and "needless_bye" in codes


def test_tables_can_be_swapped_and_sides_flipped():
    d = draft()
    swapped = swap_tables(d, 1, 2, FIELD, HISTORY)
    assert swapped.boards[0].entrants == d.boards[1].entrants
    assert [b.table for b in swapped.boards] == [1, 2]
    flipped = flip_sides(d, 1, FIELD, HISTORY)
    assert flipped.boards[0].side0 == d.boards[0].side1
    with pytest.raises(PairingError):
        swap_tables(d, 1, 9, FIELD, HISTORY)
    with pytest.raises(PairingError):
        flip_sides(d, 9, FIELD, HISTORY)


def test_swapping_someone_not_in_the_round_is_refused():
    with pytest.raises(PairingError) as err:
        swap_entrants(draft(), 1, 99, FIELD, HISTORY)
    assert err.value.code == "not_in_round"
    assert swap_entrants(draft(), 1, 1, FIELD, HISTORY) == draft()


def test_a_draft_becomes_history_for_the_next_check():
    d = draft()
    boards, byes = d.as_past()
    after = HISTORY.extended(boards, byes)
    assert after.rounds_played == 2
    assert sorted(d.entrant_ids()) == [1, 2, 3, 4, 5]
