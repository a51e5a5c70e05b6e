"""Club-team events on the public pages: team matches (club v club, bullseyes per club, the race target,
decided and winner) on the pairings, tournament and standings pages, and the clubs' standings from the
latest snapshot's ``clubs`` rows.

The event (``league`` in conftest.py) is a round robin of three club teams built and played through the
tournament services (``round_start``, ``hand_submit``, ``game_confirm``, ``round_close``), never by
writing models.
"""

from __future__ import annotations

from html import escape

import pytest
from django.urls import reverse

from tournaments.models import Board, TeamMatch

pytestmark = pytest.mark.django_db

def page(client, name, *args) -> str:
    response = client.get(reverse(f"web:{name}", args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_pairings_group_boards_under_their_team_match_with_the_clubs_totals(client, league):
    t, done = league["tournament"], TeamMatch.objects.get(pk=league["round_1"].pk)
    assert done.decided and done.winner == 0 and (done.bullseyes_a, done.bullseyes_b) == (2, 0)
    body = page(client, "pairings", t.slug, 1)
    head = body.split('class="tm-head"')[1]
    assert escape(done.club_a.name) in head and escape(done.club_b.name) in head
    assert "2–0" in head
    assert f"{escape(done.club_a.name)} won 2-0" in head
    assert "race to 2 bullseyes over 2 boards" in head
    assert "decided" in head
    bye = TeamMatch.objects.get(round=done.round, club_b__isnull=True)
    assert f"{escape(bye.club_a.name)}</a></span>\n  <span class=\"small\">has a bye this round" in body
    # Each board row sits under its match's heading, in slot order.
    rows = body.split('class="tm-head"')[1].split('<li class="tbl')[1:]
    assert len(rows) == 2


def test_a_race_in_play_shows_the_leader_and_what_each_club_still_needs(client, league):
    t, live = league["tournament"], TeamMatch.objects.get(pk=league["round_2"].pk)
    assert not live.decided and (live.bullseyes_a, live.bullseyes_b) == (0, 1)
    body = page(client, "pairings_live", t.slug, 2)
    assert "0–1" in body
    assert f"{escape(live.club_b.name)} lead 1-0" in body
    assert f"to go: {escape(live.club_a.name)} 2, {escape(live.club_b.name)} 1" in body
    assert "in play" in body


def test_standings_rank_the_clubs_from_the_snapshot_and_show_team_matches_in_play(client, league):
    t = league["tournament"]
    snapshot = t.snapshots.order_by("-created_at", "-id").first()
    assert len(snapshot.clubs) == 3
    body = page(client, "standings_live", t.slug)
    counted, inplay = body.split('class="inplay"', 1)
    club_table = counted.split('id="club-standings-caption"')[1].split("</table>")[0]
    names = [r["club_id"] for r in snapshot.clubs]
    from tournaments.models import Club

    order = [escape(Club.objects.get(pk=pk).name) for pk in names]
    positions = [club_table.index(name) for name in order]
    assert positions == sorted(positions), "clubs in the snapshot's order"
    winner = TeamMatch.objects.get(pk=league["round_1"].pk).club_a
    assert snapshot.clubs[0]["club_id"] == winner.pk and snapshot.clubs[0]["match_points"] == 2
    assert "Team matches" in inplay and "0–1" in inplay
    assert "Pairs" in counted  # the pairs' table follows the clubs'


def test_tournament_home_and_club_pages_show_team_matches_and_club_standings(client, league):
    t = league["tournament"]
    home = page(client, "tournament", t.slug)
    assert "Club standings" in home and "3 club teams (6 pairs)" in home
    assert "first club to 2 bullseyes" in home
    live = TeamMatch.objects.get(pk=league["round_2"].pk)
    assert f"{escape(live.club_b.name)} lead 1-0" in home
    clubs = page(client, "clubs", t.slug)
    assert 'id="club-standings-caption"' in clubs and "team matches, confirmed games only" in clubs
    winner = TeamMatch.objects.get(pk=league["round_1"].pk).club_a
    club = page(client, "club", t.slug, winner.pk)
    assert "Club standing: 1 of 3" in club and "From team matches" in club


def test_a_team_board_says_which_team_match_it_belongs_to(client, league):
    t, live = league["tournament"], league["round_2"]
    board = Board.objects.filter(team_match=live).order_by("slot").first()
    body = page(client, "board", t.slug, board.pk)
    assert "Board 1 of the team match" in body
    assert "played on until one club&#x27;s boards reach 2 bullseyes" in body or "reach 2 bullseyes" in body


def test_club_team_fragments_cost_a_bounded_number_of_queries(client, league, django_assert_max_num_queries):
    t = league["tournament"]
    # 15: the 15th (traced 2026-12-01) is the clubs' names as entered for this event (Entry.club_name, the
    # identity work: a club renamed later keeps its name of the day here), one query whatever the field.
    with django_assert_max_num_queries(15):
        assert client.get(reverse("web:standings_live", args=[t.slug])).status_code == 200
    with django_assert_max_num_queries(15):
        assert client.get(reverse("web:pairings_live", args=[t.slug, 2])).status_code == 200
