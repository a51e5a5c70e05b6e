"""The console's club and player pages (issue 15): rename with the note that past events keep the name, merge
a spelling variant after a preview of what moves, a refusal shown on the page, the history section; only the
organiser's organisation sees them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_user
from tests.tournaments.leagues_helpers import make_season
from tournaments.models import Club, ClubAlias, Entry, Player, Team
from tournaments.services import club_create, pair_create, player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = make_user()
    client.force_login(user)
    return user


def _pair(user, club, first, second):
    p1 = player_create(name=first, club=club, user=user)
    p2 = player_create(name=second, club=club, user=user)
    return pair_create(player_1=p1, player_2=p2, club=club, user=user)


def test_club_page_renames_previews_and_merges_a_variant(client, organiser):
    keep = club_create(name="Couva All Fours Club", user=organiser)
    variant = club_create(name="Couva AFC", user=organiser)
    _pair(organiser, variant, "Kenrick Baptiste", "Ria Mohammed")
    page = reverse("web:console_club", args=[keep.pk])

    body = client.get(reverse("web:console_clubs")).content.decode()
    assert page in body and "Couva AFC" in body
    body = client.get(page).content.decode()
    assert "keep the name they were played under" in body and "Couva AFC" in body

    preview = client.get(page, {"variant": variant.pk}).content.decode()
    assert "moves\n1 pair, 2 players,\n0 entries, 0 teams\nand 0 team matches" in preview

    response = client.post(page, {"action": "merge", "variant": variant.pk})
    assert response.status_code == 302 and response["Location"] == page
    assert not Club.objects.filter(pk=variant.pk).exists()
    assert list(ClubAlias.objects.filter(club=keep).values_list("name", flat=True)) == ["Couva AFC"]
    body = client.get(page).content.decode()
    assert "merged into Couva All Fours Club" in body and "also spelt Couva AFC" in body

    client.post(page, {"action": "rename", "name": "Couva AF Club"})
    keep.refresh_from_db()
    assert keep.name == "Couva AF Club"


def test_club_page_shows_the_seasons_of_its_teams(client, organiser):
    season, _ = make_season(user=organiser)
    club = club_create(name="Couva AFC", user=organiser)
    Team.objects.create(tournament=season, club=club, name="Couva Jacks")
    body = client.get(reverse("web:console_club", args=[club.pk])).content.decode()
    assert "Teams, season by season" in body and "Couva Jacks" in body and season.season in body


def test_player_merge_refusal_is_shown_on_the_page(client, organiser):
    from tests.tournaments.factories import make_tournament

    club = club_create(name="Couva AFC", user=organiser)
    first, second = _pair(organiser, club, "Ria Mohammed", "Anil Ramdass"), _pair(organiser, club, "Ria Mohamed", "Joel Ali")
    t = make_tournament()
    Entry.objects.create(tournament=t, pair=first)
    Entry.objects.create(tournament=t, pair=second)
    page = reverse("web:console_player", args=[first.player_1_id])
    body = client.post(page, {"action": "merge", "variant": second.player_1_id}).content.decode()
    assert "one player would be there twice" in body
    assert Player.objects.filter(pk=second.player_1_id).exists()
    assert t.name in client.get(page).content.decode()  # the history section lists the event


def test_another_organisations_club_and_player_are_not_found(client, organiser):
    other = make_user()
    club = club_create(name="Bay Boys", user=other)
    player = player_create(name="Joel Ali", club=club, user=other)
    assert client.get(reverse("web:console_club", args=[club.pk])).status_code == 404
    assert client.get(reverse("web:console_player", args=[player.pk])).status_code == 404
    assert "Bay Boys" not in client.get(reverse("web:console_clubs")).content.decode()
