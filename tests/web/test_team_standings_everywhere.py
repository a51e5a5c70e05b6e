"""Issue 15, "team standings everywhere": the team (club) table of a club-team event is in the public
standings API, a CSV export and the printed standings, not only on the HTML page; a bye is shown as a bye
(its own column, not counted as played); a finished event reads as finished, never "round N: in play".

The event is ``league`` of conftest.py: three club teams, round 1 closed (Couva Jacks had the bye),
round 2 in play.
"""

from __future__ import annotations

import csv
import io
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_organiser
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db


def _snapshot_clubs(t: Tournament) -> list[dict]:
    return t.snapshots.order_by("-created_at", "-id").first().clubs


def _organiser_client(t: Tournament) -> Client:
    c = Client()
    c.force_login(make_organiser(t))
    return c


def test_public_standings_api_carries_the_team_table_with_byes_apart(client, league):
    t = league["tournament"]
    body = client.get(reverse("api:public-standings", args=[t.slug])).json()
    teams = body["clubs"]
    assert teams["basis"] == "team_matches"
    keys = [c["key"] for c in teams["columns"]]
    assert keys[:2] == ["played", "byes"], "a bye has its own column next to the matches played"
    assert teams["columns"][0]["name"] == "team matches played"
    expected = [Club.objects.get(pk=r["club_id"]).name for r in _snapshot_clubs(t)]
    assert [r["name"] for r in teams["rows"]] == expected
    bye_row = next(r for r in teams["rows"] if r["name"] == "Couva Jacks")
    assert bye_row["values"]["played"] == 0 and bye_row["values"]["byes"] == 1
    assert bye_row["club"] == Club.objects.get(name="Couva Jacks").pk
    assert body["rows"], "the pairs' table is still there"


def test_a_pairs_event_answers_without_a_team_table_basis(client, league):
    t = league["tournament"]
    Tournament.objects.filter(pk=t.pk).update(entrant_type="pairs")
    body = client.get(reverse("api:public-standings", args=[t.slug])).json()
    assert body["clubs"]["basis"] == "pairs"


def test_the_team_table_has_a_csv_export(league):
    t = league["tournament"]
    response = _organiser_client(t).get(reverse("web:console_export_team_standings", args=[t.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["rank", "club", "played", "byes"]
    assert [r[1] for r in rows[1:]] == [Club.objects.get(pk=r["club_id"]).name for r in _snapshot_clubs(t)]
    couva = next(r for r in rows[1:] if r[1] == "Couva Jacks")
    assert couva[2:4] == ["0", "1"]


def test_the_printed_standings_carry_the_team_table(league):
    t = league["tournament"]
    body = _organiser_client(t).get(reverse("web:console_print_standings", args=[t.slug])).content.decode()
    assert 'id="club-standings-caption"' in body
    assert body.index("club-standings-caption") < body.index("<h2>Pairs</h2>"), "teams first, then the pairs"
    assert "Couva Jacks" in body.split("<h2>Pairs</h2>")[0]


def test_the_html_team_table_shows_the_bye_as_a_bye(client, league):
    t = league["tournament"]
    body = client.get(reverse("web:standings_live", args=[t.slug])).content.decode()
    table = body.split('id="club-standings-caption"')[1].split("</table>")[0]
    assert '<abbr title="byes (not counted as played)">Bye</abbr>' in table
    row = table.split(escape("Couva Jacks"))[1].split("</tr>")[0]
    cells = [c.split("</td>")[0] for c in row.split('<td class="num">')[1:]]
    assert cells[:2] == ["0", "1"], "no match played, one bye"


def test_a_finished_event_without_frozen_results_reads_finished_not_in_play(client, league):
    """An event finished before final results were frozen (or whose round was left open) must not say
    "Round 2: in play" on its public pages."""
    t = league["tournament"]
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    home = client.get(reverse("web:tournament", args=[t.slug])).content.decode()
    assert "Round 2: in play" not in home
    assert "This event is finished" in home
    live = client.get(reverse("web:standings_live", args=[t.slug])).content.decode()
    assert 'class="inplay"' not in live, "no boards or team matches 'in play' after the end"
    assert "This event is finished" in live
