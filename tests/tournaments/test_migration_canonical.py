"""Migration 0004: settings stored before the registry are rewritten in its canonical form."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.formats import BYE_PRESETS, DEFAULT_BYE_POLICY

BEFORE = [("tournaments", "0003_registry_choices")]
AFTER = [("tournaments", "0004_canonical_settings")]


@pytest.fixture
def back_to_the_latest_schema():
    """The test walks the schema back; later tests of this worker need it whole again."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_old_bye_policies_and_race_boards_migrate_to_the_canonical_form(back_to_the_latest_schema):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Tournament = apps.get_model("tournaments", "Tournament")
    Round = apps.get_model("tournaments", "Round")
    Board = apps.get_model("tournaments", "Board")
    TeamMatch = apps.get_model("tournaments", "TeamMatch")
    Club = apps.get_model("tournaments", "Club")
    Player = apps.get_model("tournaments", "Player")
    Pair = apps.get_model("tournaments", "Pair")
    Entry = apps.get_model("tournaments", "Entry")
    average = Tournament.objects.create(name="A", slug="a", bye_policy={"result": "win", "score": "average"})
    bare = Tournament.objects.create(name="B", slug="b", bye_policy={"result": "win", "score": "none"},
                                     entrant_type="club_teams", team_format={"boards": 2, "kind": "first_to_total",
                                                                           "n": 17})
    odd = Tournament.objects.create(name="C", slug="c", bye_policy={"result": "win", "score": "lots"})
    club_a, club_b = Club.objects.create(name="Couva"), Club.objects.create(name="Penal")
    players = [Player.objects.create(name=f"P{i}", club=club_a) for i in range(4)]
    pair_a = Pair.objects.create(player_1=players[0], player_2=players[1], club=club_a)
    pair_b = Pair.objects.create(player_1=players[2], player_2=players[3], club=club_b)
    entry_a = Entry.objects.create(tournament=bare, pair=pair_a)
    entry_b = Entry.objects.create(tournament=bare, pair=pair_b)
    round_ = Round.objects.create(tournament=bare, number=1)
    match = TeamMatch.objects.create(round=round_, club_a=club_a, club_b=club_b, team_format=bare.team_format)
    board = Board.objects.create(round=round_, pair_a=entry_a, pair_b=entry_b, table=1, team_match=match,
                                 match_format={"kind": "race"})

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Tournament = apps.get_model("tournaments", "Tournament")
    Board = apps.get_model("tournaments", "Board")
    assert Tournament.objects.get(pk=average.pk).bye_policy == DEFAULT_BYE_POLICY.to_dict()
    assert Tournament.objects.get(pk=bare.pk).bye_policy == BYE_PRESETS["bare_win"].policy.to_dict()
    assert Tournament.objects.get(pk=odd.pk).bye_policy == {"result": "win", "score": "lots"}  # kept as it was
    assert Board.objects.get(pk=board.pk).match_format == {"kind": "race", "n": 17}
    # Leave the schema as the other tests expect it: every later migration applied again.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tournaments"))
