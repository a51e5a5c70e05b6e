"""A club renamed after an event keeps, on that event's pages, the name it played under (issue 15: "a rename
keeps the name that past seasons were played under"): the tablet's seating screen, the club's page in the
event (with its name now as a note), the best-club prize, the public history pages, and the league
console's team page of a finished season. The pages read the name recorded on the entries
(``Entry.club_label``), with no query per row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.factories import make_entries, make_organiser, make_round, make_tournament
from tests.tournaments.leagues_helpers import add_pair, make_season, make_team
from tournaments.models import Board, Club, Tournament
from tournaments.selectors.prizes import prizes_award
from tournaments.selectors.tablet import board_state
from tournaments.services import club_update
from tournaments.services.prizes import prize_create
from tournaments.services.standings import tournament_standings_recompute

pytestmark = pytest.mark.django_db

OLD, NEW = "Couva AFC", "Couva All Fours Club"


def _played(*, published: bool = True):
    """A published event, Couva AFC v Bay Boys on one board, then Couva AFC renamed."""
    couva, bay = Club.objects.create(name=OLD), Club.objects.create(name="Bay Boys")
    t = make_tournament()
    a = make_entries(t, 1, club=couva)[0]
    b = make_entries(t, 1, club=bay)[0]
    make_round(t, [(a, b)])
    tournament_standings_recompute(tournament_id=t.pk)
    Tournament.objects.filter(pk=t.pk).update(published=published)
    t.refresh_from_db()
    club_update(club=couva, user=None, name=NEW)
    couva.refresh_from_db()
    return t, couva, a, b


def _page(client, name, *args) -> str:
    response = client.get(reverse(f"web:{name}", args=args))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_the_tablet_seats_the_pair_under_the_name_of_the_day():
    t, _couva, _a, _b = _played()
    state = board_state(Board.objects.get(round__tournament=t))
    assert state["pairs"]["a"]["club"] == OLD


def test_the_club_page_of_an_event_is_headed_by_the_name_played_under_with_the_name_now_as_a_note(client):
    t, couva, _a, _b = _played()
    body = _page(client, "club", t.slug, couva.pk)
    assert f"<h1>{OLD}</h1>" in body
    assert f"<title>{OLD} · {t.name}" in body
    assert f"now called {NEW}" in body
    # not renamed: no note
    fresh = make_tournament()
    Tournament.objects.filter(pk=fresh.pk).update(published=True)
    bay = Club.objects.get(name="Bay Boys")
    make_entries(fresh, 1, club=bay)
    assert "now called" not in _page(client, "club", fresh.slug, bay.pk)


def test_the_best_club_prize_names_the_club_as_it_played():
    t, couva, _a, _b = _played()
    organiser = make_organiser(t)
    prize_create(tournament=t, user=organiser, category="best_club", label="Club of the day", amount="150")
    (award,) = prizes_award(t)
    names = [w.name for w in award.winners]
    assert names and OLD in names[0] and NEW not in names


def test_the_public_history_shows_the_name_each_event_was_played_under(client):
    t, couva, a, _b = _played()
    later = make_tournament()
    Tournament.objects.filter(pk=later.pk).update(published=True)
    make_entries(later, 1, club=couva)  # entered after the rename: plays as Couva All Fours Club
    body = _page(client, "club_history", couva.pk)
    assert f"<h1>{NEW}</h1>" in body
    assert f"played as {OLD}" in body
    assert body.count("played as") == 1  # the later event was played under the name now
    player = _page(client, "player_history", a.pair.player_1_id)
    assert OLD in player.split('<ol class="history">')[1]


def _club_reads(client, url) -> int:
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return sum('FROM "tournaments_club"' in q["sql"] for q in seen.captured_queries)


def test_the_history_pages_read_no_club_per_event(client):
    _t, couva, a, _b = _played()
    club_url = reverse("web:club_history", args=[couva.pk])
    player_url = reverse("web:player_history", args=[a.pair.player_1_id])
    before = (_club_reads(client, club_url), _club_reads(client, player_url))
    for _ in range(3):
        extra = make_tournament()
        Tournament.objects.filter(pk=extra.pk).update(published=True)
        make_entries(extra, 2, club=couva)
    assert (_club_reads(client, club_url), _club_reads(client, player_url)) == before


def test_the_console_team_page_of_a_finished_season_shows_the_club_as_it_played(client):
    season, user = make_season()
    team = make_team(season, user, "Couva Jacks")
    add_pair(team, user)
    played_as = team.club.name
    client.force_login(user)
    running = _page(client, "console_season_team", season.slug, team.pk)
    assert played_as in running.split('<p class="meta">')[1].split("</p>")[0]
    Tournament.objects.filter(pk=season.pk).update(status="finished")
    club_update(club=team.club, user=user, name="Renamed Later")  # a finished season keeps its entries' name
    meta = _page(client, "console_season_team", season.slug, team.pk).split('<p class="meta">')[1].split("</p>")[0]
    assert played_as in meta and "now Renamed Later" in meta


def test_the_console_season_page_of_a_finished_season_shows_each_club_as_it_played(client):
    season, user = make_season()
    team = make_team(season, user, "Couva Jacks")
    add_pair(team, user)
    played_as = team.club.name
    client.force_login(user)
    running = _page(client, "console_season", season.slug).split('id="team-h"')[1].split("</ul>")[0]
    assert played_as in running and "(now" not in running
    Tournament.objects.filter(pk=season.pk).update(status="finished")
    club_update(club=team.club, user=user, name="Renamed Later")
    teams = _page(client, "console_season", season.slug).split('id="team-h"')[1].split("</ul>")[0]
    assert f"{played_as} (now Renamed Later)" in teams


def test_the_events_club_list_and_home_page_name_each_club_as_it_played(client):
    """The event's list of clubs (its home page and its clubs page) reads the club recorded on each entry and
    the name it played under, not the club's name today."""
    t, couva, _a, _b = _played()
    for name in ("tournament", "clubs"):
        body = _page(client, name, t.slug)
        assert f'{OLD}</a>' in body and NEW not in body, name


def test_the_league_table_names_each_teams_club_as_the_season_played_it():
    """The season's table (public pages, API, CSV) reads the club's name on the team's roster entries."""
    from tournaments.services.leagues.standings import league_standings

    season, user = make_season()
    team = make_team(season, user, "Couva Jacks")
    add_pair(team, user)
    played_as = team.club.name
    Tournament.objects.filter(pk=season.pk).update(status="finished")
    club_update(club=team.club, user=user, name="Renamed Later")
    rows = league_standings(tournament=season)["rows"]
    assert [r["club"] for r in rows if r["team_id"] == team.pk] == [played_as]
