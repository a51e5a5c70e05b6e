"""The hall display's lists built in Python (web/hall_rows.py) are the markup the hall template's loops wrote:
boards in play, decided and not started, a pair whose name needs escaping, tied ranks and a club renamed after
entry; and the hall page shows them."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, Pair, Round
from tournaments.selectors import round_boards, standings
from web import hall_rows, public_words

from .factories import finish_board, make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db

# templates/public/hall.html's three loops as they were (up to commit 28eb903)
PAIRINGS = """{% for b in boards %}<li><span class="hall-tno">{{ b.table }}</span><span class="hall-pairs"><span><span class="sidetag a">A</span> {{ b.pair_a.pair.display_name }}</span><span><span class="sidetag b">B</span> {{ b.pair_b.pair.display_name }}</span></span></li>
  {% endfor %}"""
LIVE = """{% for b in live_boards %}<li><span class="hall-tno">{{ b.table }}</span><span class="hall-pairs"><span><span class="sidetag a">A</span> {{ b.pair_a.pair.display_name }}</span><span><span class="sidetag b">B</span> {{ b.pair_b.pair.display_name }}</span></span><span class="hall-score"><span class="games">{{ b.games_won.0 }}-{{ b.games_won.1 }}</span>{% if b.current_score %}<span class="now">game {{ b.current_game }}: {{ b.current_score.0 }}-{{ b.current_score.1 }}</span>{% endif %}<span class="badge status-{{ b.status }}">{{ b.status_label }}</span></span></li>
  {% endfor %}"""
STANDINGS = """{% load hangjack %}{% for row in standings.rows %}<li><span class="hall-tno">{{ row.rank }}</span><span class="hall-pairs"><span>{{ row.name }}</span>{% if row.club %}<span class="club">{{ row.club }}</span>{% endif %}</span>{% if main_index is not None %}<span class="hall-score"><span class="games">{{ row.values|index:main_index }}</span><span class="now">{% with standings.columns|index:main_index as col %}{{ col.1 }}{% endwith %}</span></span>{% endif %}</li>
  {% endfor %}"""


@pytest.fixture
def event():
    t = make_tournament(pairs=10)
    first = t.entries.order_by("seed").first()
    Pair.objects.filter(pk=first.pair_id).update(name='Ann & "Bo" <Jr>')
    Entry.objects.filter(pk=t.entries.order_by("seed")[2].pk).update(club_name="Arima <Old>")
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, b in enumerate(r1.boards.order_by("table"), 1):
        if i % 2:
            finish_board(b, seed=i)  # half decided: level ranks ("3=") below
    snapshot = make_snapshot(t, after_round=1)
    rows = snapshot.rows
    rows[3].update(rank=3, tied=True)  # "3=" twice
    rows[2].update(tied=True)
    snapshot.rows = rows
    snapshot.save(update_fields=["rows"])
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    boards = list(r2.boards.order_by("table"))
    finish_board(boards[0], seed=11)
    play_game(boards[1], 1, seed=12, hands=3)
    return t, r2


def test_the_lists_are_the_markup_the_template_loops_wrote(event):
    t, r2 = event
    summaries = [b for b in round_boards(r2) if not b.is_bye]
    live = [b for b in summaries if b.status not in ("done", "forfeited")]
    table = standings(t)
    assert any(b.current_score for b in live) and any(b.status == "done" for b in summaries)
    assert any(str(row.rank).endswith("=") for row in table.rows) and any(row.club for row in table.rows)
    for main_index in (public_words.main_column(table.columns), None):
        ctx = Context({"boards": summaries, "live_boards": live, "standings": table, "main_index": main_index})
        assert hall_rows.pairings(summaries) == Template(PAIRINGS).render(ctx)
        assert hall_rows.live(live) == Template(LIVE).render(ctx)
        assert hall_rows.standings(table, main_index) == Template(STANDINGS).render(ctx)
    html = hall_rows.pairings(summaries) + hall_rows.standings(table, 0)
    assert "Ann &amp; &quot;Bo&quot; &lt;Jr&gt;" in html and "Arima &lt;Old&gt;" in html


def test_the_hall_page_shows_the_three_lists(event):
    t, r2 = event
    page = Client().get(reverse("web:hall", args=[t.slug])).content.decode()
    summaries = [b for b in round_boards(r2) if not b.is_bye]
    assert hall_rows.pairings(summaries) in page
    assert hall_rows.live([b for b in summaries if b.status not in ("done", "forfeited")]) in page
    table = standings(t)
    assert hall_rows.standings(table, public_words.main_column(table.columns)) in page
