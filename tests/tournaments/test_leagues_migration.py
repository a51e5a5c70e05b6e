"""Migration 0012: a club-team event made before leagues gets one team per club (its entries the roster, its
team matches naming the teams; a bye names no away team)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0011_late_hands")]
AFTER = [("tournaments", "0012_leagues")]


@pytest.fixture
def back_to_the_latest_schema():
    """The test walks the schema back; later tests of this worker need it whole again."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_club_team_events_get_one_team_per_club(back_to_the_latest_schema):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Tournament = apps.get_model("tournaments", "Tournament")
    Round = apps.get_model("tournaments", "Round")
    TeamMatch = apps.get_model("tournaments", "TeamMatch")
    Club = apps.get_model("tournaments", "Club")
    Player = apps.get_model("tournaments", "Player")
    Pair = apps.get_model("tournaments", "Pair")
    Entry = apps.get_model("tournaments", "Entry")
    Organisation = apps.get_model("tournaments", "Organisation")
    house = Organisation.objects.create(name="House", slug="house-test", kind="shared")
    other = Organisation.objects.create(name="Other", slug="other-test", kind="shared")
    teams_event = Tournament.objects.create(name="Clubs", slug="clubs", entrant_type="club_teams",
                                            team_format={"boards": 2, "kind": "games", "n": 1})
    pairs_event = Tournament.objects.create(name="Pairs", slug="pairs")
    couva = Club.objects.create(name="Couva", owner=house)
    penal = Club.objects.create(name="Penal", owner=house)
    couva_too = Club.objects.create(name="Couva", owner=other)  # another owner's club of the same name
    entries = {}
    for i, club in enumerate([couva, couva, penal, penal, couva_too, couva_too]):
        p1 = Player.objects.create(name=f"P{i}a", club=club, owner=house)
        p2 = Player.objects.create(name=f"P{i}b", club=club, owner=house)
        pair = Pair.objects.create(player_1=p1, player_2=p2, club=club, owner=house)
        entries[i] = Entry.objects.create(tournament=teams_event, pair=pair, seed=i + 1, club=club, player_1=p1,
                                          player_2=p2)
        if i == 0:
            Entry.objects.create(tournament=pairs_event, pair=pair, club=club, player_1=p1, player_2=p2)
    round_ = Round.objects.create(tournament=teams_event, number=1)
    played = TeamMatch.objects.create(round=round_, club_a=couva, club_b=penal, decided=True, winner=0,
                                      lineup_a=[entries[0].pk, entries[1].pk], lineup_b=[entries[2].pk, entries[3].pk])
    bye = TeamMatch.objects.create(round=round_, club_a=couva_too, club_b=None, decided=True, winner=0)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Team = apps.get_model("tournaments", "Team")
    Entry = apps.get_model("tournaments", "Entry")
    TeamMatch = apps.get_model("tournaments", "TeamMatch")
    teams = list(Team.objects.filter(tournament_id=teams_event.pk).order_by("seed"))
    assert [(t.name, t.club_id, t.seed) for t in teams] == [("Couva", couva.pk, 1), ("Penal", penal.pk, 2),
                                                            ("Couva (2)", couva_too.pk, 3)]
    by_club = {t.club_id: t.pk for t in teams}
    for i, club in enumerate([couva, couva, penal, penal, couva_too, couva_too]):
        assert Entry.objects.get(pk=entries[i].pk).team_id == by_club[club.pk]
    assert not Team.objects.filter(tournament_id=pairs_event.pk).exists()
    assert Entry.objects.get(tournament_id=pairs_event.pk).team_id is None
    played = TeamMatch.objects.get(pk=played.pk)
    assert (played.team_a_id, played.team_b_id, played.status, played.result_source) == (
        by_club[couva.pk], by_club[penal.pk], "played", "hands")
    bye = TeamMatch.objects.get(pk=bye.pk)
    assert (bye.team_a_id, bye.team_b_id, bye.result_source) == (by_club[couva_too.pk], None, "bye")
