"""A change's render reads its boards all at once (``tournaments.selectors.public.prefetch_boards``): the
queries of a change naming many boards do not grow with their number, the files are byte for byte what
Django serves, and outside a render nothing is prefetched.

Before (2026-12-06): each board's page and JSON read the board, its seats' names, its games, their hands
and confirmations on their own (seven queries a board), about 60 % of a change's render at 1,000 pairs
(benchmarks/render_profile.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import QuerySet
from django.test import Client
from django.test.utils import CaptureQueriesContext

from publishing import files, publish
from tests.tournaments.factories import make_published_event, seat, submit, tally, win_game
from tournaments.models import Board, Entry, EntrySubstitution, Player
from tournaments.selectors import public
from tournaments.selectors.memo import render_memo

pytestmark = pytest.mark.django_db


def _event(pairs: int, started: int) -> tuple[Any, list[Board]]:
    """A published event (``make_published_event``) whose live round has ``started`` boards seated with
    hands in (the first with a game won, as the factory leaves it), and those boards."""
    tournament, live, _ids, _made, _players = make_published_event(pairs)
    boards = list(Board.objects.filter(round__tournament=tournament, round__number=3).order_by("table"))
    for i, board in enumerate(boards[1:started]):
        seated = seat(board)
        if i % 2:
            win_game(seated, 1)
        submit(seated, tally(seated.first_dealer if seated.first_dealer is not None else 0))
    return tournament, boards[:started]


def _change(tournament: Any, boards: list[Board]) -> int:
    """One change naming ``boards`` (results not due); the queries it made."""
    state = publish.load_state(tournament.slug)
    state["rendered_at"], state["results_at"] = 0, 9e18
    publish.save_state(tournament.slug, state)
    with CaptureQueriesContext(connection) as queries:
        publish.publish_event(tournament.pk, {"boards": [b.pk for b in boards]})
    return len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])


def test_a_change_naming_six_boards_makes_as_many_queries_as_one_naming_two(publish_root: Path) -> None:
    two_event, two = _event(16, 2)
    six_event, six = _event(16, 6)
    publish.publish_site()
    _change(two_event, two)  # the first render of each: every group, the kept reads filled
    _change(six_event, six)
    assert _change(six_event, six) == _change(two_event, two)


def test_the_files_of_a_change_naming_several_boards_are_what_django_serves(publish_root: Path) -> None:
    tournament, boards = _event(12, 5)
    # a substitute on one board: the seats' names read for all boards at once still name them
    entry = Entry.objects.get(pk=boards[2].pair_a_id)
    sub = Player.objects.create(name="Ria Mohammed")
    EntrySubstitution.objects.create(entry=entry, out_player=entry.pair.player_1, in_player=sub, round_from=3)
    Entry.objects.filter(pk=entry.pk).update(substitutions_count=1)
    publish.publish_site()
    _change(tournament, boards)
    client = Client()
    for board in boards:
        for address in publish.pages.board_addresses(tournament.slug, board.pk):
            assert files.file_for(address, publish_root).read_bytes() == client.get(address).content, address


def test_prefetched_reads_answer_the_boards_pages_without_a_query(publish_root: Path) -> None:
    tournament, boards = _event(12, 4)
    with render_memo():
        public.tournament_entries(tournament)  # the render's entries, read first as a render does
        with CaptureQueriesContext(connection) as prefetch:
            assert public.prefetch_boards(tournament, [b.pk for b in boards]) == 4
        assert len(prefetch.captured_queries) <= 6, [q["sql"] for q in prefetch.captured_queries]
        with CaptureQueriesContext(connection) as reads:
            for board in boards:
                shown = public.public_board(tournament, board.pk)
                games = public.scorecard_games(shown, confirmations=True)
                assert [g.number for g in games] == sorted(g.number for g in games)
                assert all(hasattr(g, "active_hands") and hasattr(g, "open_confirmations") for g in games)
                public.seat_names(shown)
        assert reads.captured_queries == []


def test_prefetched_games_and_names_equal_each_boards_own_reads(publish_root: Path) -> None:
    tournament, boards = _event(12, 5)
    own = {}
    for board in boards:
        shown = Board.objects.select_related("round", "pair_a__pair", "pair_b__pair").get(pk=board.pk)
        own[board.pk] = (
            [(g.pk, [h.pk for h in g.active_hands]) for g in public.scorecard_games(shown)],
            public.seat_names(shown),
        )
    with render_memo():
        public.prefetch_boards(tournament, [b.pk for b in boards])
        for board in boards:
            shown = public.public_board(tournament, board.pk)
            games = public.scorecard_games(shown)
            assert ([(g.pk, [h.pk for h in g.active_hands]) for g in games], public.seat_names(shown)) == own[board.pk]


def test_outside_a_render_nothing_is_prefetched_and_the_games_are_a_query(publish_root: Path) -> None:
    tournament, boards = _event(8, 2)
    assert public.prefetch_boards(tournament, [b.pk for b in boards]) == 0
    assert isinstance(public.scorecard_games(boards[0]), QuerySet)


def test_a_board_not_public_is_left_to_its_own_read(publish_root: Path) -> None:
    tournament, boards = _event(8, 2)
    other, _ = _event(8, 1)
    foreign = Board.objects.filter(round__tournament=other).first()
    assert foreign is not None
    with render_memo():
        # another event's board is not this event's: not read here, and its own read still refuses it
        assert public.prefetch_boards(tournament, [boards[0].pk, foreign.pk]) == 1
        with pytest.raises(public.NotFound):
            public.public_board(tournament, foreign.pk)
