"""A round's pairings rows built in Python (web/pairings_rows.py) are the markup the row template wrote:
boards in play, decided, not started, forfeited, a help call, a bye, a pair without a name of its own, a club
renamed after entry, and names that need escaping."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

from tournaments.models import Board, Entry, Pair, Round
from tournaments.selectors import round_boards
from web.pairings_rows import pairing_row

from .factories import finish_board, make_round, make_tournament, play_game

pytestmark = pytest.mark.django_db

# templates/public/_pairings_row.html and _pair_names.html as they were (up to commit 97a1835), but for the
# newline the included _pair_names.html left before each </p> (whitespace a browser shows as nothing)
NAMES = ("""<a href="{% url 'web:pair' tournament.slug e.id %}">{{ e.pair.display_name }}</a>{% if e.pair.name or"""
         """ e.club_label %}<span class="players">{% if e.pair.name %}{{ e.pair.player_1.name }} &amp; """
         """{{ e.pair.player_2.name }}{% endif %}{% if e.pair.name and e.club_label %} · {% endif %}"""
         """{{ e.club_label }}</span>{% endif %}""")
LEGACY = """{% load hangjack %}<li class="tbl{% if b.is_bye %} bye{% endif %} status-row-{{ b.status }}" data-search="{{ b.names|lower }}">
  <span class="tno">{% if b.is_bye %}<span class="bye-word">bye</span>{% else %}<a href="{% url 'web:board' tournament.slug b.board.id %}" aria-label="Table {{ b.table }} scorecard">{{ b.table }}</a>{% endif %}</span>
  <div class="pairs">
    <p class="pl"><span class="sidetag a" aria-label="pair A">A</span> {% with e=b.pair_a %}NAMES{% endwith %}</p>
    {% if b.pair_b %}<p class="pl"><span class="sidetag b" aria-label="pair B">B</span> {% with e=b.pair_b %}NAMES{% endwith %}</p>{% else %}<p class="pl"><em>bye: no table this round</em></p>{% endif %}
  </div>
  <div class="gm">{% if b.board.forfeited is not None %}<span class="games">{{ b.board.bullseyes_a }}-{{ b.board.bullseyes_b }}</span><span class="now">{{ b|forfeit }}</span><span class="badge status-{{ b.status }}">forfeit</span>{% elif not b.is_bye %}<span class="games" aria-label="games {{ b.games_won.0 }} to {{ b.games_won.1 }}">{{ b.games_won.0 }}-{{ b.games_won.1 }}</span>{% if b.current_score %}<span class="now">now {{ b.current_score.0 }}-{{ b.current_score.1 }}</span>{% endif %}<span class="badge status-{{ b.status }}">{{ b.status_label }}</span>{% if b.help_called %} <span class="badge help">help</span>{% endif %}{% endif %}</div>
</li>
""".replace("NAMES", NAMES)


def test_every_kind_of_row_is_the_markup_the_template_wrote():
    t = make_tournament(pairs=9)  # four boards and a bye
    first = t.entries.order_by("seed").first()
    Pair.objects.filter(pk=first.pair_id).update(name='Ann & "Bo" <Jr>')
    Entry.objects.filter(pk=t.entries.order_by("seed")[2].pk).update(club_name="Arima <Old>")
    r = make_round(t, 1, Round.Status.IN_PLAY)
    boards = list(r.boards.exclude(pair_b=None).order_by("table"))
    finish_board(boards[0], seed=1)
    play_game(boards[1], 1, seed=5, hands=3)
    Board.objects.filter(pk=boards[2].pk).update(help_called=True)
    Board.objects.filter(pk=boards[3].pk).update(forfeited=Board.Forfeit.SIDE_B, bullseyes_a=2, bullseyes_b=0,
                                                 winner=0, decided=True)
    summaries = round_boards(r)
    assert any(s.is_bye for s in summaries) and any(s.current_score for s in summaries)
    legacy = Template(LEGACY)
    for summary in summaries:
        want = legacy.render(Context({"b": summary, "tournament": t}))
        assert pairing_row(summary, t.slug) == want, summary.table
    html = "".join(pairing_row(s, t.slug) for s in summaries)
    assert "Ann &amp; &quot;Bo&quot; &lt;Jr&gt;" in html and "Arima &lt;Old&gt;" in html
    assert re.search(r'<span class="now">Forfeit: .+ did not play</span>', html)


SEATS_LEGACY = ("""{% for s in seats %}<li data-name="{{ s.name }}"><span class="who">{{ s.name }}</span> <span class="where">"""
                """{% if s.table %}<a href="{% url 'web:board' tournament.slug s.board_id %}">table {{ s.table }}</a> · """
                """{{ s.side }}, seat {{ s.seats }}{% else %}bye this round{% endif %}</span></li>{% endfor %}""")


def test_the_players_a_to_z_are_the_markup_the_template_wrote():
    from tournaments.models import Player
    from web.pairings_rows import seat_items
    from web.public_words import seats_by_name

    t = make_tournament(pairs=5)  # a bye
    Player.objects.filter(pk=t.entries.order_by("seed").first().pair.player_1_id).update(name="Zoë <O'Hara> & co")
    r = make_round(t, 1, Round.Status.IN_PLAY)
    seats = seats_by_name(round_boards(r))
    assert any(s.table is None for s in seats)
    want = Template(SEATS_LEGACY).render(Context({"seats": seats, "tournament": t}))
    assert seat_items(seats, t.slug) == want
    assert "Zoë &lt;O&#x27;Hara&gt; &amp; co" in want


def test_a_seat_list_is_kept_while_the_same_seats_are_asked_for():
    from types import SimpleNamespace

    from web import pairings_rows
    from web.public_words import Seat

    pairings_rows._kept_seats.clear()
    pair = SimpleNamespace(id=1)
    seats = [Seat("Ann", 3, "A", "1", pair, 40), Seat("Bo <b>", 3, "A", "3", pair, 40)]
    first = pairings_rows.seat_items(seats, "gold-cup")
    assert pairings_rows.seat_items(list(seats), "gold-cup") is first
    assert first == pairings_rows._seat_items(seats, pairings_rows._patterns("gold-cup")[0])
    moved = [Seat("Ann", 4, "A", "1", pair, 41), seats[1]]
    other = pairings_rows.seat_items(moved, "gold-cup")
    assert other is not first and "table 4" in other and "Bo &lt;b&gt;" in other
    assert pairings_rows.seat_items(seats, "other-cup") is not first
    pairings_rows._kept_seats.clear()
