"""Club and player identity (issue 15): a rename keeps the name past events were played under; merging a
spelling variant moves its references and keeps its name as an alias (imports then find it); merges refused
across organisations and where one player would be twice in an event; the history across seasons."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_entries, make_round, make_tournament, make_user
from tests.tournaments.leagues_helpers import make_season, make_team
from tournaments import selectors
from tournaments.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.models import (
    AuditEvent,
    Board,
    Club,
    ClubAlias,
    Entry,
    Pair,
    Player,
    PlayerAlias,
    Team,
    TeamMatch,
)
from tournaments.selectors.history import club_history, player_history, team_history
from tournaments.services import club_create, club_update, pair_create, player_create
from tournaments.services.identity import club_merge, player_merge
from tournaments.services.imports import pairs_import
from tournaments.services.standings import tournament_standings_recompute

pytestmark = pytest.mark.django_db


def _played_event(club_a: Club, club_b: Club, *, published: bool = False):
    t = make_tournament()
    a = make_entries(t, 1, club=club_a)[0]
    b = make_entries(t, 1, club=club_b)[0]
    make_round(t, [(a, b)])
    tournament_standings_recompute(tournament_id=t.pk)
    if published:
        t.published = True
        t.save(update_fields=["published"])
    return t, a, b


def _pair(user, club: Club, first: str, second: str) -> Pair:
    p1 = player_create(name=first, club=club, user=user)
    p2 = player_create(name=second, club=club, user=user)
    return pair_create(player_1=p1, player_2=p2, club=club, user=user)


# ---- 1. a rename keeps the name past events were played under --------------------------------------------


def test_a_rename_keeps_the_played_name_on_standings_and_pairings(client):
    couva, bay = Club.objects.create(name="Couva AFC"), Club.objects.create(name="Bay Boys")
    past, a, _b = _played_event(couva, bay, published=True)
    upcoming = make_tournament()
    later = make_entries(upcoming, 1, club=couva)[0]

    club_update(club=couva, user=None, name="Couva All Fours Club")

    a.refresh_from_db()
    later.refresh_from_db()
    assert (a.club_name, later.club_name) == ("Couva AFC", "Couva All Fours Club")
    rows = selectors.standings(past).rows
    assert "Couva AFC" in [r.club for r in rows] and "Couva All Fours Club" not in [r.club for r in rows]
    assert "Couva AFC" in [r.name for r in selectors.club_standings(past).rows]
    board = Board.objects.get(round__tournament=past)
    for name, args in (("standings", [past.slug]), ("pairings", [past.slug, 1]), ("board", [past.slug, board.pk])):
        body = client.get(reverse(f"web:{name}", args=args)).content.decode()
        assert "Couva AFC" in body and "Couva All Fours Club" not in body, name
    for read in ("rounds/1/", "standings/", f"boards/{board.pk}/"):
        data = str(client.get(f"/api/v1/public/tournaments/{past.slug}/{read}").json())
        assert "Couva AFC" in data and "Couva All Fours Club" not in data, read


def test_the_migration_backfill_and_a_new_entry_record_the_name_now():
    club = Club.objects.create(name="Point Kickers")
    entry = make_entries(make_tournament(), 1, club=club)[0]
    assert entry.club_name == "Point Kickers" and entry.club_label == "Point Kickers"
    Entry.objects.filter(pk=entry.pk).update(club_name="")  # as an entry made before 0013 without a backfill
    assert Entry.objects.get(pk=entry.pk).club_label == "Point Kickers"


def test_a_team_match_shows_the_team_names_of_its_season():
    from web.presenters import TeamMatchSummary

    season, user = make_season()
    home, away = make_team(season, user, "Couva Jacks"), make_team(season, user, "Bay Boys")
    club_update(club=home.club, user=user, name="Renamed Later")
    match = TeamMatch(round_id=None, club_a=home.club, club_b=away.club, team_a=home, team_b=away)
    summary = TeamMatchSummary(match=match, boards=[], confirmed=(0, 0))
    assert (summary.name_a, summary.name_b) == ("Couva Jacks", "Bay Boys")


# ---- 2. merging spelling variants ------------------------------------------------------------------------


def test_club_merge_moves_every_reference_and_keeps_the_alias():
    user = make_user()
    keep = club_create(name="Couva All Fours Club", user=user)
    variant = club_create(name="Couva AFC", user=user)
    pair = _pair(user, variant, "Kenrick Baptiste", "Ria Mohammed")
    other = club_create(name="Bay Boys", user=user)
    t = make_tournament()
    entry = Entry.objects.create(tournament=t, pair=pair)
    season, _ = make_season(user=user)
    team = Team.objects.create(tournament=season, club=variant, name="Couva Jacks")

    result = club_merge(keep=keep, variant=variant, user=user)

    assert result["moved"] == {"pairs": 1, "players": 2, "entries": 1, "teams": 1, "team_matches": 0,
                               "aliases": 0}
    assert not Club.objects.filter(pk=variant.pk).exists()
    pair.refresh_from_db()
    entry.refresh_from_db()
    team.refresh_from_db()
    assert pair.club_id == keep.pk and entry.club_id == keep.pk and team.club_id == keep.pk
    assert set(Player.objects.filter(club=keep).values_list("name", flat=True)) == {"Kenrick Baptiste", "Ria Mohammed"}
    assert entry.club_name == "Couva AFC"  # the name it was played under stays
    assert list(ClubAlias.objects.filter(club=keep).values_list("name", flat=True)) == ["Couva AFC"]
    assert other.pk in Club.objects.values_list("pk", flat=True)
    event = AuditEvent.objects.get(action="club.merge")
    assert event.object_id == str(keep.pk) and event.before["variant"]["name"] == "Couva AFC"


def test_club_merge_renumbers_the_stored_standings_of_a_played_event():
    keep, variant = Club.objects.create(name="Couva AFC"), Club.objects.create(name="Couva A.F.C.")
    bay = Club.objects.create(name="Bay Boys")
    past, _a, _b = _played_event(variant, bay)
    club_merge(keep=keep, variant=variant, user=None)
    rows = selectors.club_standings(past).rows
    assert {r.name for r in rows} == {"Couva A.F.C.", "Bay Boys"}  # the played name, from the kept club's id
    assert keep.pk in {r.club_ref.pk for r in rows if r.club_ref}


def test_club_merge_refused_across_organisations_and_for_a_non_member():
    one, two = make_user(), make_user()
    mine, theirs = club_create(name="Couva AFC", user=one), club_create(name="Couva A.F.C.", user=two)
    staff = make_user(staff=True)
    with pytest.raises(ValidationFailed) as refused:
        club_merge(keep=mine, variant=theirs, user=staff)
    assert refused.value.code == "other_organisation" and refused.value.status_code == 400
    assert "different organisations" in refused.value.message
    with pytest.raises(NotAllowed):
        club_merge(keep=mine, variant=theirs, user=one)
    with pytest.raises(ValidationFailed) as same:
        club_merge(keep=mine, variant=mine, user=one)
    assert same.value.code == "same_record"
    assert Club.objects.filter(pk=theirs.pk).exists()


def test_player_merge_moves_pairs_and_keeps_the_alias():
    user = make_user()
    club = club_create(name="Couva AFC", user=user)
    pair = _pair(user, club, "Kenrick Baptiste", "Ria Mohammed")
    variant = pair.player_1
    keep = player_create(name="Kendrick Baptiste", club=club, user=user)
    entry = Entry.objects.create(tournament=make_tournament(), pair=pair)

    result = player_merge(keep=keep, variant=variant, user=user)

    assert result["moved"]["pairs"] == 1 and result["moved"]["entries"] == 1
    pair.refresh_from_db()
    entry.refresh_from_db()
    assert pair.player_1_id == keep.pk and entry.player_1_id == keep.pk
    assert list(PlayerAlias.objects.filter(player=keep).values_list("name", flat=True)) == ["Kenrick Baptiste"]
    assert AuditEvent.objects.filter(action="player.merge", object_id=str(keep.pk)).exists()


def test_player_merge_refused_when_one_event_would_have_the_player_twice():
    user = make_user()
    club = club_create(name="Couva AFC", user=user)
    first, second = _pair(user, club, "Ria Mohammed", "Anil Ramdass"), _pair(user, club, "Ria Mohamed", "Joel Ali")
    t = make_tournament()
    Entry.objects.create(tournament=t, pair=first)
    Entry.objects.create(tournament=t, pair=second)
    with pytest.raises(Conflict) as refused:
        player_merge(keep=first.player_1, variant=second.player_1, user=user)
    assert refused.value.code == "player_entered_twice" and refused.value.status_code == 409
    assert t.name in refused.value.message
    partners = _pair(user, club, "Joel Alie", "Jo Ali")
    with pytest.raises(Conflict):
        player_merge(keep=partners.player_1, variant=partners.player_2, user=user)
    assert Player.objects.filter(pk=second.player_1_id).exists()


# ---- the imports find an alias ---------------------------------------------------------------------------


def test_the_registration_import_matches_a_merged_club_and_player_by_alias():
    user = make_user()
    keep = club_create(name="Couva All Fours Club", user=user)
    variant = club_create(name="Couva AFC", user=user)
    pair = _pair(user, keep, "Kenrick Baptiste", "Ria Mohammed")
    spelt = player_create(name="Kendrick Baptiste", club=keep, user=user)
    club_merge(keep=keep, variant=variant, user=user)
    player_merge(keep=pair.player_1, variant=spelt, user=user)

    result = pairs_import(data="player_1,player_2,club,seed\nKendrick Baptiste,Ria Mohammed,Couva AFC,1\n", user=user)

    assert (result.clubs_created, result.players_created, result.pairs_created) == (0, 0, 0)
    assert result.pairs_existing == 1
    assert Club.objects.filter(name__iexact="Couva AFC").count() == 0


def test_the_season_import_matches_a_club_by_alias():
    from tournaments.services.league_import import season_import

    season, user = make_season()
    keep = club_create(name="Couva All Fours Club", user=user, owner=season.league.owner_id)
    variant = club_create(name="Couva AFC", user=user, owner=season.league.owner_id)
    club_merge(keep=keep, variant=variant, user=user)
    season_import(tournament=season, user=user, teams=(b"team,club,division\nCouva Jacks,Couva AFC,\n", "teams.csv"),
                  commit=True)
    assert Team.objects.get(tournament=season, name="Couva Jacks").club_id == keep.pk


# ---- 3. history across seasons ---------------------------------------------------------------------------


def test_history_lists_every_season_of_a_club_its_team_and_a_player():
    user = make_user()
    first, _ = make_season(user=user)
    second, _ = make_season(user=user)
    for season, label, year in ((first, "2025", 2025), (second, "2026", 2026)):
        season.season, season.starts_on = label, datetime.date(year, 4, 4)
        season.save(update_fields=["season", "starts_on"])
    one = make_team(first, user, "Couva Jacks", pairs=1)
    two = Team.objects.create(tournament=second, club=one.club, name="Couva Jacks")
    entry = Entry.objects.filter(team=one).select_related("pair__player_1").first()
    club = one.club

    history = club_history(club)
    assert [s.season for s in history.teams] == ["2026", "2025"]
    assert {s.team.pk for s in history.teams} == {one.pk, two.pk}
    assert [line.tournament.pk for line in history.events] == [first.pk]
    assert {s.team.pk for s in team_history(two)} == {one.pk, two.pk}
    assert [line.tournament.pk for line in player_history(entry.pair.player_1)] == [first.pk]


def test_a_second_merge_of_a_variant_already_merged_is_a_conflict_not_a_crash():
    """Two organisers merge the same spelling variant at once: the second waited on the row lock while the
    first deleted the variant; it is told the record went (409 ``club_gone`` at ``variant``), never a 500."""
    user = make_user("merger")
    keep = club_create(name="Couva All Fours Club", user=user)
    variant = club_create(name="Couva AFC", user=user)
    club_merge(keep=keep, variant=variant, user=user)
    with pytest.raises(Conflict) as refused:
        club_merge(keep=keep, variant=variant, user=user)  # the stale object of the second request
    assert refused.value.code == "club_gone" and set(refused.value.fields or {}) == {"variant"}
