"""A large event's live standings are bounded (issue 17, the national day): the fragment phones poll every few
seconds shows the top of the table and the boards those pairs play; the whole table is a fragment of its own
that the page polls once a minute. A small event's page is as before. The limits are lowered here (the rule is
the same at 61 rows as at 1,000)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Board, Round
from web.views import public

from .factories import finish_board, make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def big(monkeypatch):
    """Ten pairs, round 1 counted, round 2 in play on five boards (one hand on each): "large" above 6 rows,
    the top 3 shown live."""
    monkeypatch.setattr(public, "LIVE_ALL_UPTO", 6)
    monkeypatch.setattr(public, "LIVE_TOP", 3)
    t = make_tournament(pairs=10)
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, b in enumerate(r1.boards.all(), 1):
        finish_board(b, seed=i)
    make_snapshot(t, after_round=1)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    for i, b in enumerate(r2.boards.order_by("table"), 1):
        play_game(b, 1, seed=40 + i, hands=1)
    return t


def get(name, *args):
    response = Client().get(reverse(f"web:{name}", args=args))
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


def rows_in(html, list_id):
    match = re.search(rf'<ol class="rank-rows" id="{list_id}".*?</ol>', html, re.S)
    assert match, list_id
    return match.group(0).count('<li class="rank-row')


def test_the_live_fragment_of_a_large_event_shows_the_top_of_the_table(big):
    live = get("standings_live", big.slug)
    assert rows_in(live, "rank-rows") == 3
    assert live.count("<tr>") + live.count('<tr class="mark">') - 1 == 3  # the wide table too (one header row)
    assert "The top 3 of 10 pairs." in live and 'href="#whole"' in live
    assert reverse("web:follow", args=[big.slug]) in live


def test_the_live_fragment_shows_the_boards_of_the_leaders_and_says_how_many_more(big):
    live = get("standings_live", big.slug)
    leaders = [int(i) for i in re.findall(r'<p class="row-link"><a href="/t/[^/]+/pairs/(\d+)/"', live)]
    boards = Board.objects.filter(round__tournament=big, round__number=2)
    theirs = [b for b in boards if b.pair_a_id in leaders or b.pair_b_id in leaders]
    shown = re.findall(r'<span class="table">Table (\d+)</span>', live)
    assert sorted(int(t) for t in shown) == sorted(b.table for b in theirs)
    more = len(boards) - len(theirs)
    assert f"{more} more board{'s' if more != 1 else ''} in play" in live
    assert reverse("web:pairings", args=[big.slug, 2]) in live


def test_the_standings_page_polls_the_whole_table_once_a_minute(big):
    page = get("standings", big.slug)
    assert rows_in(page, "rank-rows") == 3
    assert rows_in(page, "whole-rows") == 10
    whole = re.search(r'<section class="whole-table" id="whole".*?</section>', page, re.S).group(0)
    assert f'data-poll-url="{reverse("web:standings_table", args=[big.slug])}" data-poll-seconds="60"' in whole
    assert "The whole table: 10 pairs" in whole
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "an id is used twice on the page"


def test_the_whole_table_fragment_lists_every_pair(big):
    table = get("standings_table", big.slug)
    assert rows_in(table, "whole-rows") == 10
    assert 'id="whole-caption"' in table and "round 1" in table


def test_a_small_event_keeps_its_whole_live_table(big, monkeypatch):
    monkeypatch.setattr(public, "LIVE_ALL_UPTO", 60)
    live = get("standings_live", big.slug)
    assert rows_in(live, "rank-rows") == 10
    assert "The top" not in live and "more board" not in live
    assert 'id="whole"' not in get("standings", big.slug)


def test_when_no_leader_is_at_a_table_the_boards_in_play_are_still_counted(big):
    """The top pairs' boards are all decided: the panel says how many boards are in play, never "No board
    in play"."""
    from tournaments.models import Entry
    from tournaments.selectors import standings

    leaders = [row.entry.id for row in standings(big).rows[:3]]
    Board.objects.filter(round__tournament=big, round__number=2).filter(
        models_q(leaders)).update(decided=True, all_confirmed=True, winner=0)
    live = get("standings_live", big.slug)
    in_play = sum(1 for b in Board.objects.filter(round__tournament=big, round__number=2) if b.status != "done")
    assert in_play and "No board in play." not in live
    assert f"None of the top 3 is at a table now; {in_play} board" in live
    assert Entry.objects.filter(pk__in=leaders).count() == 3


def models_q(leaders):
    from django.db.models import Q

    return Q(pair_a_id__in=leaders) | Q(pair_b_id__in=leaders)


def test_a_tie_across_the_cut_is_kept_whole(big):
    from tournaments.models import StandingsSnapshot

    snapshot = StandingsSnapshot.objects.filter(tournament=big).latest("created_at")
    rows = snapshot.rows
    for row in rows[2:5]:  # places 3, 4 and 5 tied: the top 3 become the top 5
        row.update(rank=3, tied=True, **{k: rows[2][k] for k in ("match_points", "played") if k in rows[2]})
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(rows=rows)
    live = get("standings_live", big.slug)
    assert rows_in(live, "rank-rows") == 5 and "The top 5 of 10 pairs." in live


def test_final_results_are_never_bounded(big):
    from django.utils import timezone

    from tournaments.models import Tournament
    from tournaments.selectors import latest_snapshot
    from tournaments.selectors.final import final_results_data

    big.status, big.final_results = Tournament.Status.FINISHED, final_results_data(
        big, latest_snapshot(big), finished_at=timezone.now())
    big.save()
    page = get("standings", big.slug)
    assert rows_in(page, "rank-rows") == 10
    assert 'id="whole"' not in page and "every minute" not in page and "The top" not in page


def test_links_stay_right_when_the_slug_holds_the_stand_in_digits(big):
    from web.standings_rows import STAND_IN_ID

    slug = f"cup-{STAND_IN_ID}-3"
    type(big).objects.filter(pk=big.pk).update(slug=slug)
    entry = big.entries.order_by("seed").first()
    board = Board.objects.filter(round__tournament=big, round__number=2).order_by("table").first()
    table = get("standings_table", slug)
    assert f'href="/t/{slug}/pairs/{entry.id}/"' in table
    pairings = get("pairings", slug, 2)
    assert f'href="/t/{slug}/boards/{board.id}/"' in pairings and f'href="/t/{slug}/pairs/{entry.id}/"' in pairings


def poll_of(html, url):
    match = re.search(rf'data-poll-url="{re.escape(url)}"[^>]*?data-poll-seconds="(\d+)"', html)
    assert match, url
    return int(match.group(1))


def test_a_large_event_s_phones_poll_less_often(big):
    """Above LIVE_ALL_UPTO pairs the standings' live part polls every 15 s (5 s for a small event) and the
    pairings every 20 s (10 s); a scorecard every 10 s at any size; the note under the part says how often."""
    live, pairings = reverse("web:standings_live", args=[big.slug]), reverse("web:pairings_live", args=[big.slug, 2])
    board = Board.objects.filter(round__tournament=big, round__number=2).order_by("table").first()
    page = get("standings", big.slug)
    assert poll_of(page, live) == 15 and "updates itself every 15 seconds" in page
    assert poll_of(get("pairings", big.slug, 2), pairings) == 20
    assert poll_of(get("board", big.slug, board.id), reverse("web:board_live", args=[big.slug, board.id])) == 10


def test_a_small_event_s_phones_poll_every_few_seconds(big, monkeypatch):
    monkeypatch.setattr(public, "LIVE_ALL_UPTO", 60)
    page = get("standings", big.slug)
    assert poll_of(page, reverse("web:standings_live", args=[big.slug])) == 5
    assert "updates itself every 5 seconds" in page
    assert poll_of(get("pairings", big.slug, 2), reverse("web:pairings_live", args=[big.slug, 2])) == 10


def test_before_the_first_confirmed_game_a_large_event_shows_its_first_tables_only(monkeypatch):
    """No table yet (no game confirmed): the live fragment lists the first tables in play, not every board (a
    1,000-pair event's 500), and says how many more; the page polls at a large event's pace."""
    monkeypatch.setattr(public, "LIVE_ALL_UPTO", 6)
    monkeypatch.setattr(public, "LIVE_TOP", 3)
    t = make_tournament(pairs=10)
    r1 = make_round(t, 1, Round.Status.IN_PLAY)
    for i, b in enumerate(r1.boards.order_by("table"), 1):
        play_game(b, 1, seed=60 + i, hands=1)
    live = get("standings_live", t.slug)
    shown = [int(n) for n in re.findall(r'<span class="table">Table (\d+)</span>', live)]
    assert shown == [1, 2, 3]
    assert "The first 3 tables are shown; 2 more boards in play" in live
    assert reverse("web:pairings", args=[t.slug, 1]) in live
    page = get("standings", t.slug)
    assert f'data-poll-seconds="{public.poll_seconds("standings", pairs=1000)}"' in page


def test_a_small_event_before_its_first_confirmed_game_shows_every_board():
    t = make_tournament(pairs=10)
    r1 = make_round(t, 1, Round.Status.IN_PLAY)
    for i, b in enumerate(r1.boards.order_by("table"), 1):
        play_game(b, 1, seed=80 + i, hands=1)
    live = get("standings_live", t.slug)
    assert len(re.findall(r'<span class="table">Table (\d+)</span>', live)) == 5
    assert "more board" not in live
