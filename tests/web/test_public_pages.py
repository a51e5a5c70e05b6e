"""Public pages through Django's test client: status, content, published-only, live fragments, 304s."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.urls import reverse

from tournaments.models import Board, Round

from .factories import finish_board, make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Round 1 closed and confirmed; round 2 in play with a board mid-game and a bye (5 pairs)."""
    t = make_tournament(pairs=5)
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, b in enumerate(r1.boards.exclude(pair_b=None), 1):
        finish_board(b, seed=i)
    make_snapshot(t, after_round=1)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    live = r2.boards.exclude(pair_b=None).first()
    play_game(live, 1, seed=77, hands=3)
    return t


def get(client, name, *args, **kwargs):
    return client.get(reverse(f"web:{name}", args=args), **kwargs)


def test_home_lists_published_tournaments_only(client, event):
    hidden = make_tournament(published=False, name="Secret Draft")
    response = get(client, "home")
    assert response.status_code == 200
    body = response.content.decode()
    assert event.name in body
    assert reverse("web:tournament", args=[event.slug]) in body
    assert hidden.name not in body


@pytest.mark.parametrize(
    "name", ["tournament", "standings", "standings_live", "rounds", "stats", "clubs"]
)
def test_every_page_of_an_unpublished_tournament_is_404(client, name):
    t = make_tournament(published=False)
    assert get(client, name, t.slug).status_code == 404


def test_tournament_home_shows_status_rounds_and_links(client, event):
    body = get(client, "tournament", event.slug).content.decode()
    assert "Round 2: in play" in body
    for name in ("standings", "rounds", "stats", "clubs"):
        assert reverse(f"web:{name}", args=[event.slug]) in body
    assert reverse("web:pairings", args=[event.slug, 1]) in body


def test_standings_show_tiebreak_columns_byes_and_boards_in_play_apart(client, event):
    body = get(client, "standings", event.slug).content.decode()
    for heading in ("match points", "bullseyes (games) won", "chalk difference", "hang jacks for", "Buchholz"):
        assert heading in body
    counted, inplay = body.split('class="inplay"', 1)
    assert "Counted" in counted and "confirmed games only" in counted
    assert "Table 1" in inplay and "game 1:" in inplay  # the live score sits in the in-play panel
    bye = Board.objects.get(round__tournament=event, round__number=2, pair_b=None)
    assert "Bye this round" in body and escape(bye.pair_a.pair.display_name) in body
    assert 'data-poll-url="' + reverse("web:standings_live", args=[event.slug]) in body


def test_standings_fragment_answers_304_when_nothing_changed(client, event):
    first = get(client, "standings_live", event.slug)
    assert first.status_code == 200 and first["ETag"]
    assert "<html" not in first.content.decode()
    again = get(client, "standings_live", event.slug, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    board = Board.objects.get(round__number=2, round__tournament=event, table=1)
    play_game(board, 2, seed=5, hands=1)  # the board moves on: the fragment changes
    assert get(client, "standings_live", event.slug, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_public_pages_are_gzipped_for_weak_connections(client, event):
    response = get(client, "standings", event.slug, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"


def test_pairings_list_tables_and_search_by_player_name(client, event):
    body = get(client, "pairings", event.slug, 2).content.decode()
    assert "Round 2 pairings" in body
    assert "Ramdeen Ali" in body and "Marcus Joseph" in body
    searched = client.get(reverse("web:pairings", args=[event.slug, 2]), {"q": "persad"}).content.decode()
    assert "Anand Persad" in searched
    assert "Ramdeen Ali" not in searched
    assert "1 of 3 boards match" in searched


def test_drafted_round_is_not_public(client, event):
    make_round(event, 3, Round.Status.DRAFTED)
    assert get(client, "pairings", event.slug, 3).status_code == 404
    assert "Round 3" not in get(client, "rounds", event.slug).content.decode()


def test_board_scorecard_is_a_chalk_sheet_with_chart(client, event):
    board = Board.objects.filter(round__tournament=event, round__number=1).exclude(pair_b=None).first()
    response = get(client, "board", event.slug, board.id)
    body = response.content.decode()
    assert response.status_code == 200
    for heading in ("Kick", "Beg", "High", "Low", "Jack", "Game", "Penalties"):
        assert f">{heading}" in body
    assert "Game 1:" in body and "bullseye to" in body
    assert "<svg" in body and 'role="img"' in body
    assert "Confirmed by Pair A, Pair B" in body
    # Every hand of the first game has a row.
    game = board.games.get(number=1)
    rows = re.findall(r'<tr(?: class="won")?>\s*<th scope="row" class="num">(\d+)', body.split("Game 2:")[0])
    assert [int(n) for n in rows] == list(range(1, game.hands.count() + 1))


def test_board_of_another_tournament_is_404(client, event):
    other = make_tournament(name="Other Cup")
    r = make_round(other, 1)
    board = r.boards.first()
    assert get(client, "board", event.slug, board.id).status_code == 404


def test_pair_page_lists_boards_and_standing(client, event):
    entry = event.entries.order_by("seed").first()
    body = get(client, "pair", event.slug, entry.id).content.decode()
    assert escape(entry.pair.display_name) in body
    assert "Standing: 1" in body
    assert "won" in body or "lost" in body


def test_club_pages(client, event):
    body = get(client, "clubs", event.slug).content.decode()
    assert "Couva Jacks" in body
    club = event.entries.first().pair.club
    body = get(client, "club", event.slug, club.id).content.decode()
    assert club.name in body and "Pairs in" in body


def test_statistics_count_confirmed_games(client, event):
    body = get(client, "stats", event.slug).content.decode()
    for label in ("Most hang jacks", "Most bullseyes", "Most straight games", "Highest count for game"):
        assert label in body


def test_no_page_links_a_token(client, event):
    for name, args in [("home", []), ("tournament", [event.slug]), ("standings", [event.slug]), ("stats", [event.slug])]:
        body = get(client, name, *args).content.decode()
        assert "token" not in body.lower()


def test_live_fragments_cost_a_bounded_number_of_queries(client, django_assert_max_num_queries):
    """Polled every few seconds by every phone in the hall: the query count must not grow with boards."""
    t = make_tournament(pairs=12)
    make_round(t, 1, Round.Status.CLOSED)
    make_snapshot(t)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    for i, board in enumerate(r2.boards.all()):
        play_game(board, 1, seed=i, hands=2)
    with django_assert_max_num_queries(12):
        assert get(client, "standings_live", t.slug).status_code == 200
    with django_assert_max_num_queries(12):
        assert get(client, "pairings_live", t.slug, 2).status_code == 200


def test_standings_explain_how_ties_are_broken_in_the_events_own_order(client, event):
    league = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]
    type(event).objects.filter(pk=event.pk).update(tiebreaks=league, bye_policy={
        "result": "win", "bullseyes": {"for": {"source": "race_target"}, "against": {"source": "own_average"}},
        "chalks": {"for": {"source": "zero"}, "against": {"source": "zero"}},
        "hang_jacks": {"for": {"source": "zero"}, "against": {"source": "zero"}}})
    body = get(client, "standings", event.slug).content.decode()
    section = body.split('id="ties-heading"', 1)[1].split("</section>", 1)[0]
    from tournaments.formats import BYE_PRESETS, TIE_BREAKS

    positions = [section.index(escape(TIE_BREAKS.get(name).explanation)) for name in league]
    assert positions == sorted(positions)  # in the event's order, each with its sentence for players
    assert "Buchholz" not in section
    assert escape(BYE_PRESETS["league"].explanation) in section
