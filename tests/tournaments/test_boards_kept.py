"""A round's board summaries are kept across renders while their rows are the same
(tournaments.selectors.boards: ``_kept_summaries``).

At 1,000 pairs a round's boards with their games and hands are 6,000 model instances, 100-190 ms of CPU a
render, while a render follows about twenty boards' hands. Kept only inside a render (``render_memo``) on
PostgreSQL, per board, keyed by a digest of its row, its games' rows and its count of active hands; a board
whose digest moved (a hand, an undo, a confirmation, any update of its row) is read again, the others reused.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.factories import (
    make_entries,
    make_round,
    make_tournament,
    seat,
    submit,
    tally,
    win_game,
)
from tournaments.models import Board, Hand, Player, Round
from tournaments.selectors import boards as module
from tournaments.selectors import public
from tournaments.selectors.memo import render_memo

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def round_():
    tournament = make_tournament()
    entries = make_entries(tournament, 8)
    made = make_round(tournament, [(entries[i], entries[i + 1]) for i in range(0, 8, 2)])
    module._kept_rounds.clear()
    public._kept.clear()
    yield made
    module._kept_rounds.clear()
    public._kept.clear()


def _read(round_: Round):
    with render_memo(), CaptureQueriesContext(connection) as queries:
        summaries = module.round_boards(Round.objects.get(pk=round_.pk))
    return {s.board.id: s for s in summaries}, len(queries)


def _fresh(round_: Round):
    return {s.board.id: s for s in module.round_boards(Round.objects.get(pk=round_.pk))}  # no memo: read whole


def _same_as_a_fresh_read(kept, round_):
    fresh = _fresh(round_)
    assert list(kept) == list(fresh)
    for board_id, summary in kept.items():
        assert summary == fresh[board_id]  # every field: board and pairs by id, the figures by value
        assert summary.board.updated_at == fresh[board_id].board.updated_at


def _board(round_: Round, table: int) -> Board:
    return Board.objects.get(round=round_, table=table)


def test_a_second_render_reuses_every_summary_and_a_hand_reads_its_board_again(round_):
    first, queries = _read(round_)
    assert len(first) == 4
    again, queries = _read(round_)
    assert all(again[b] is first[b] for b in first)
    assert queries == 4  # the tournament for the entries, the entries' digest, the boards' digest, the round

    board = seat(_board(round_, 1))
    submit(board, tally(board.first_dealer))
    after, _ = _read(round_)
    assert after[board.id] is not first[board.id] and after[board.id].hands_played == 1
    assert after[board.id].current_score is not None
    assert all(after[b] is first[b] for b in first if b != board.id)
    _same_as_a_fresh_read(after, round_)


def test_a_finished_game_an_undo_and_a_change_of_the_row_alone_read_the_board_again(round_):
    board = seat(_board(round_, 2))
    win_game(board, 0)
    first, _ = _read(round_)
    assert first[board.id].games_won == (1, 0)

    hand = Hand.objects.filter(game__board=board, status="active").order_by("-id").first()
    Hand.objects.filter(pk=hand.pk).update(status="voided")  # the count of active hands alone moved
    voided, _ = _read(round_)
    assert voided[board.id] is not first[board.id]
    assert voided[board.id].hands_played == first[board.id].hands_played - 1

    Board.objects.filter(pk=board.pk).update(help_called=True)  # the board's row alone
    helped, _ = _read(round_)
    assert helped[board.id] is not voided[board.id] and helped[board.id].help_called
    _same_as_a_fresh_read(helped, round_)


def test_new_entries_make_every_summary_again(round_):
    first, _ = _read(round_)
    entry = first[_board(round_, 3).id].pair_a
    Player.objects.filter(pk=entry.pair.player_1_id).update(name="Renamed Player")
    renamed, _ = _read(round_)
    assert all(renamed[b] is not first[b] for b in first)
    assert "Renamed Player" in renamed[_board(round_, 3).id].names()


def test_a_board_gone_or_added_is_gone_or_read(round_):
    first, _ = _read(round_)
    gone = _board(round_, 4)
    Board.objects.filter(pk=gone.pk).delete()
    after, _ = _read(round_)
    assert gone.id not in after and len(after) == 3
    _same_as_a_fresh_read(after, round_)


def test_outside_a_render_nothing_is_kept_and_a_reuse_carries_no_lazy_relation_of_the_last_render(round_):
    module.round_boards(round_)
    assert not module._kept_rounds
    first, _ = _read(round_)
    board = next(iter(first.values())).board
    stale = Round.objects.get(pk=round_.pk)
    board._state.fields_cache["round"] = stale  # what a page's lazy read left on the instance
    Round.objects.filter(pk=round_.pk).update(status="closed")
    again, _ = _read(round_)
    assert again[board.id] is first[board.id]
    assert again[board.id].board.round.status == "closed"


def test_pages_made_of_kept_summaries_equal_pages_made_afresh(round_):
    """The pairings page, its live part, the round's JSON and the standings' live part, rendered in a second
    render after a hand and a rename (kept rows, kept JSON of the boards unchanged, the rest made again) are
    byte for byte what a render from nothing makes (outside a render: nothing kept)."""
    from django.urls import reverse

    from publishing.render import render
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=round_.tournament_id)
    Tournament.objects.filter(pk=tournament.pk).update(published=True, status="running")
    slug = tournament.slug
    addresses = [reverse("web:pairings", args=[slug, round_.number]),
                 reverse("web:pairings_live", args=[slug, round_.number]),
                 reverse("api:public-round", args=[slug, round_.number]),
                 reverse("web:standings_live", args=[slug])]
    with render_memo():
        before = [render(a) for a in addresses]
    assert all(before)
    board = seat(_board(round_, 1))

    def a_hand():
        submit(board, tally(board.first_dealer))

    def a_rename():
        other = _board(round_, 2).pair_a
        Player.objects.filter(pk=other.pair.player_1_id).update(name="Zed Renamed")

    last = before
    for change in (a_hand, a_rename):  # a hand: the other boards' rows and JSON kept; a rename: all made again
        change()
        for _ in range(2):  # the render after the change, then one with everything kept
            with render_memo():
                kept = [render(a) for a in addresses]
            assert kept == [render(a) for a in addresses]
        assert kept != last
        last = kept
    assert b"Zed Renamed" in kept[0]
