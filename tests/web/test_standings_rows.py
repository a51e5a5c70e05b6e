"""The standings rows built in Python (web/standings_rows.py) are the markup the template wrote before, and
inside a render memo a table's rows are built once for every page that shows them; across renders the rows
are kept while everything they show is the same."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template import Context, Template

from tournaments.selectors.memo import render_memo
from tournaments.selectors.snapshots import Standings, StandingsRow
from web import standings_rows as module

# templates/public/_standings_table.html's rows as the template engine wrote them (up to commit c828da3)
LEGACY = """{% load hangjack %}
{% for row in standings.rows %}
  <li class="rank-row{% if highlight and row.entry and row.entry.id == highlight %} mark{% endif %}">
  <details>
    <summary><span class="rank">{{ row.rank }}</span><span class="who">{{ row.name }}{% if row.club %}<span class="club">{{ row.club }}</span>{% endif %}</span>{% if main_index is not None %}<span class="main"><span class="fig">{{ row.values|index:main_index }}</span> <span class="fig-label">{% with standings.columns|index:main_index as col %}{{ col.1 }}{% endwith %}</span></span>{% endif %}</summary>
    <dl class="row-figures">{% for key, short, full, value in row.cells %}<div><dt>{{ short }}</dt><dd>{{ value }}</dd></div>{% endfor %}</dl>
    {% if row.raw.forfeits_won or row.raw.forfeits_lost %}<p class="small">{% if row.raw.forfeits_won %}{{ row.raw.forfeits_won }} won by forfeit{% endif %}{% if row.raw.forfeits_won and row.raw.forfeits_lost %} · {% endif %}{% if row.raw.forfeits_lost %}{{ row.raw.forfeits_lost }} forfeited{% endif %}</p>{% endif %}
    {% if row.entry %}<p class="row-link"><a href="{% url 'web:pair' tournament.slug row.entry.id %}">{{ row.name }}: every board</a></p>{% endif %}
  </details>
  </li>
{% endfor %}
@@@
{% for row in standings.rows %}
    <tr{% if highlight and row.entry and row.entry.id == highlight %} class="mark"{% endif %}>
      <td class="num">{{ row.rank }}</td>
      <th scope="row">{% if row.entry %}<a href="{% url 'web:pair' tournament.slug row.entry.id %}">{{ row.name }}</a>{% else %}{{ row.name }}{% endif %}{% if row.club %}<span class="club">{{ row.club }}</span>{% endif %}{% if row.raw.forfeits_won or row.raw.forfeits_lost %}<span class="club forfeits">{% if row.raw.forfeits_won %}{{ row.raw.forfeits_won }} won by forfeit{% endif %}{% if row.raw.forfeits_won and row.raw.forfeits_lost %} · {% endif %}{% if row.raw.forfeits_lost %}{{ row.raw.forfeits_lost }} forfeited{% endif %}</span>{% endif %}</th>
      {% for v in row.values %}<td class="num">{{ v }}</td>{% endfor %}
    </tr>
{% endfor %}"""

COLUMNS = [("played", "P", "boards played"), ("match_points", "MP", "match points"),
           ("buchholz", "Buch.", "Buchholz"), ("chalk_difference", "+/-", "chalk <difference>")]


@pytest.fixture(autouse=True)
def _nothing_kept():
    module._KEPT.clear()
    yield
    module._KEPT.clear()


def _row(rank, entry_id, name, club, values, **raw):
    entry = SimpleNamespace(id=entry_id) if entry_id else None
    return StandingsRow(rank=rank, entry=entry, name=name, club=club, values=values, raw=raw, columns=COLUMNS)


def _table():
    return Standings(snapshot=None, columns=COLUMNS, rows=[
        _row(1, 11, "Ann & Bo <Jr>", "Arima \"Aces\"", [3, 9, 12.5, -3]),
        _row("2=", 12, "Cy O'Neil", "", [3, 6, 10, 4], forfeits_won=1),
        _row("2=", 13, "Di / Ed", "Tunapuna", [3, 6, 1.25, 0], forfeits_won=1, forfeits_lost=2),
        _row(4, None, "Withdrawn pair", "", [2, "", None, 1], forfeits_lost=1),
    ])


def _squash(html: str) -> str:
    return re.sub(r">\s+<", "><", html).strip()


@pytest.mark.parametrize("main_index", [1, None, 9])
@pytest.mark.parametrize("highlight", [None, 12])
def test_the_rows_are_the_markup_the_template_wrote(main_index, highlight):
    standings = _table()
    context = {"standings": standings, "tournament": SimpleNamespace(slug="gold-cup"), "main_index": main_index,
               "highlight": highlight}
    phone_old, wide_old = Template(LEGACY).render(Context(context)).split("@@@")
    phone, wide = module.standings_rows(standings, slug="gold-cup", main_index=main_index, highlight=highlight)
    assert _squash(phone) == _squash(phone_old)
    assert _squash(wide) == _squash(wide_old)
    assert "Ann &amp; Bo &lt;Jr&gt;" in phone and "&lt;Jr&gt;" in wide
    assert 'href="/t/gold-cup/pairs/12/"' in phone


def test_a_limit_shows_the_first_rows_only():
    phone, wide = module.standings_rows(_table(), slug="s", main_index=1, limit=2)
    assert phone.count("<li ") == 2 and wide.count("<tr") == 2
    assert "Di / Ed" not in phone


def test_inside_a_render_memo_a_table_is_built_once(monkeypatch):
    calls = []
    build = module._kept_build
    monkeypatch.setattr(module, "_kept_build", lambda *a: calls.append(a) or build(*a))
    standings = _table()
    with render_memo():
        first = module.standings_rows(standings, slug="s", main_index=1)
        again = module.standings_rows(standings, slug="s", main_index=1)
        module.standings_rows(standings, slug="s", main_index=1, limit=2)
    assert first == again and len(calls) == 2
    module.standings_rows(standings, slug="s", main_index=1)
    module.standings_rows(standings, slug="s", main_index=1)
    assert len(calls) == 4  # outside a render nothing is remembered


def _built_counter(monkeypatch):
    calls = []
    build = module._build
    monkeypatch.setattr(module, "_build", lambda *a: calls.append(a) or build(*a))
    return calls


def test_across_renders_the_rows_are_kept_while_what_they_show_is_the_same(monkeypatch):
    calls = _built_counter(monkeypatch)
    with render_memo():
        first = module.standings_rows(_table(), slug="s", main_index=1)
    with render_memo():  # the next render: a new snapshot read with the same rows
        again = module.standings_rows(_table(), slug="s", main_index=1)
    assert again == first and len(calls) == 1


def _changed(what):
    table = _table()
    row = table.rows[1]
    if what == "value":
        row.values[2] = 11
    elif what == "rank":
        row.rank = 2
    elif what == "name":
        row.name = "Cy O'Neill"
    elif what == "club":
        row.club = "Arima"
    elif what == "pair":
        row.entry = SimpleNamespace(id=99)
    elif what == "forfeits":
        row.raw = {**row.raw, "forfeits_lost": 1}
    elif what == "column":
        table.columns[1] = ("match_points", "Pts", "match points")
    elif what == "order":
        table.rows[1], table.rows[2] = table.rows[2], table.rows[1]
    return table


@pytest.mark.parametrize("what", ["value", "rank", "name", "club", "pair", "forfeits", "column", "order"])
def test_anything_the_rows_show_that_changed_builds_them_again(monkeypatch, what):
    calls = _built_counter(monkeypatch)
    module.standings_rows(_table(), slug="s", main_index=1)
    table = _changed(what)
    phone, wide = module.standings_rows(table, slug="s", main_index=1)
    assert len(calls) == 2
    assert (phone, wide) == tuple(module.mark_safe(part) for part in module._build(table, "s", 1, None, None))


@pytest.mark.parametrize("arguments", [{"slug": "t", "main_index": 1}, {"slug": "s", "main_index": 2},
                                       {"slug": "s", "main_index": 1, "highlight": 12},
                                       {"slug": "s", "main_index": 1, "limit": 2}])
def test_other_arguments_build_them_again(monkeypatch, arguments):
    calls = _built_counter(monkeypatch)
    first = module.standings_rows(_table(), slug="s", main_index=1)
    other = module.standings_rows(_table(), **arguments)
    assert len(calls) == 2 and other != first


def test_only_a_few_tables_are_kept(monkeypatch):
    for number in range(module.KEPT_TABLES + 3):
        module.standings_rows(_table(), slug=f"event-{number}", main_index=1)
    assert len(module._KEPT) == module.KEPT_TABLES
