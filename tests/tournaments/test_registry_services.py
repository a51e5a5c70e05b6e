"""The registry services (issue 10): tournaments, entries, clubs, players, pairs and the pairs import,
each one transaction; every setting checked by the registry and stored canonical; every refusal a
``DomainError`` with a stable code and the field at fault."""

from __future__ import annotations

import datetime as dt
import inspect
from typing import Any

import pytest

from tournaments import formats
from tournaments.models import (
    AuditEvent,
    Club,
    Entry,
    OutboxMessage,
    Pair,
    Player,
    Tournament,
    TournamentRole,
)
from tournaments.services import (
    Conflict,
    NotAllowed,
    PairsImportRefused,
    ValidationFailed,
    club_create,
    club_delete,
    club_update,
    entry_create,
    entry_delete,
    entry_update,
    pair_create,
    pair_delete,
    pair_update,
    pairs_import,
    player_create,
    player_delete,
    player_update,
    rounds,
    tournament_create,
    tournament_delete,
    tournament_rules_resolve,
    tournament_settings_clean,
    tournament_update,
)

from .factories import make_entries, make_round, make_tournament, make_user

pytestmark = pytest.mark.django_db

THREE_PLAYERS = {"preset": "trinidad", "players": 3, "renege": "one_point", "undertrump": "allowed"}
LEAGUE_ORDER = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]


def refusal(call: Any, cls: type[Exception] = ValidationFailed) -> Any:
    with pytest.raises(cls) as caught:
        call()
    return caught.value


def create(**settings: Any) -> Tournament:
    settings.setdefault("name", "Couva Open")
    settings.setdefault("slug", "couva-open")
    return tournament_create(user=settings.pop("user", None), **settings)


# ---- tournament_create ------------------------------------------------------------------------------------


def test_a_new_tournament_takes_the_registrys_defaults_and_its_creator_organises_it():
    user = make_user()
    tournament = tournament_create(user=user, name="Couva Open", slug="couva-open")
    assert tournament.match_format == formats.DEFAULT_MATCH_FORMAT.to_dict()
    assert tuple(tournament.tiebreaks) == formats.DEFAULT_TIE_BREAKS
    assert tournament.bye_policy == formats.DEFAULT_BYE_POLICY.to_dict()
    assert tournament.rules == "trinidad-tournament" and tournament.rules_resolved["players"] == 4
    assert TournamentRole.objects.filter(tournament=tournament, user=user).exists()
    assert AuditEvent.objects.filter(action="tournament.create", object_id=str(tournament.pk)).exists()


def test_settings_are_stored_in_their_canonical_form():
    tournament = create(tiebreaks=LEAGUE_ORDER, bye_policy="league", match_format={"kind": "first_to", "n": 17},
                        entrant_type="club_teams", team_format={"boards": 12, "kind": "first_to_total", "n": 17},
                        time_called="award", club_avoidance=3)
    assert tournament.tiebreaks == LEAGUE_ORDER
    assert tournament.bye_policy == formats.BYE_PRESETS["league"].policy.to_dict()
    assert tournament.bye_policy_value().preset == "league"
    assert tournament.team_format_value() == formats.TeamFormat(12, formats.TeamKind.FIRST_TO_TOTAL, 17)
    assert tournament.race_target() == 17


def test_the_admin_may_create_without_becoming_organiser():
    user = make_user(staff=True)
    tournament = tournament_create(user=user, name="Cup", slug="cup", add_organiser=False)
    assert not TournamentRole.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"tiebreaks": ["wins", "coin_toss"]}, "unknown_tie_break", "tiebreaks[1]"),
        ({"tiebreaks": ["wins", "wins"]}, "repeated_tie_break", "tiebreaks[1]"),
        ({"tiebreaks": []}, "no_tie_breaks", "tiebreaks"),
        ({"match_format": {"kind": "best_of", "n": 3}}, "bad_kind", "match_format.kind"),
        ({"match_format": {"kind": "race", "n": 3}}, "bad_kind", "match_format.kind"),
        ({"match_format": {"kind": "first_to", "n": 0}}, "out_of_range", "match_format.n"),
        ({"team_format": {"boards": 4, "kind": "games"}}, "out_of_range", "team_format.n"),
        ({"bye_policy": "generous"}, "unknown_preset", "bye_policy"),
        ({"bye_policy": {"bullseyes": {"for": {"source": "luck"}}}}, "bad_source", "bye_policy.bullseyes.for.source"),
        ({"bye_policy": {"result": "triumph"}}, "bad_result", "bye_policy.result"),
        ({"club_avoidance": 9}, "out_of_range", "club_avoidance"),
        ({"club_avoidance": True}, "out_of_range", "club_avoidance"),
        ({"time_called": "later"}, "invalid_choice", "time_called"),
        ({"entrant_type": "singles"}, "invalid_choice", "entrant_type"),
        ({"pairing_system": "ladder"}, "invalid_choice", "pairing_system"),
        ({"rules": THREE_PLAYERS}, "rules_players", "rules"),
        ({"rules": {"preset": "trinidad", "target": 0}}, None, "rules.target"),
        ({"entrant_type": "club_teams"}, "team_format_required", "team_format"),
        ({"starts_on": dt.date(2026, 2, 14), "ends_on": dt.date(2026, 2, 13)}, "ends_before_starts", "ends_on"),
        ({"bye_policy": "league", "match_format": {"kind": "games", "n": 3}}, "no_race_target", "bye_policy"),
        ({"colour": "red"}, "unknown_field", "colour"),
        ({"slug": "not a slug!"}, "invalid", "slug"),
        ({"name": ""}, "required", "name"),
    ],
)
def test_a_bad_setting_is_refused_with_its_code_and_field(settings, code, field):
    error = refusal(lambda: create(**settings))
    if code is not None:
        assert error.code == code
    assert field in error.fields, error.fields
    assert error.to_dict()["error"]["fields"][field]
    assert not Tournament.objects.exists() and not AuditEvent.objects.exists()


def test_every_setting_at_fault_is_named_at_once():
    error = refusal(lambda: create(match_format={"kind": "best_of"}, tiebreaks=["coin_toss"], club_avoidance=9))
    assert error.code == "bad_kind"
    assert set(error.fields) == {"match_format.kind", "tiebreaks[0]", "club_avoidance"}


def test_a_taken_slug_is_refused():
    create()
    error = refusal(lambda: create(name="Other"))
    assert error.code == "slug_taken" and "slug" in error.fields


def test_the_settings_check_writes_nothing_and_returns_the_stored_forms():
    cleaned = tournament_settings_clean({"bye_policy": "draw", "tiebreaks": ("wins",)})
    assert cleaned == {"bye_policy": formats.BYE_PRESETS["draw"].policy.to_dict(), "tiebreaks": ["wins"]}
    assert not Tournament.objects.exists()


# ---- tournament_update / tournament_delete ----------------------------------------------------------------


def test_an_update_checks_the_change_with_the_other_settings():
    tournament = create(bye_policy="league")
    error = refusal(lambda: tournament_update(tournament=tournament, user=None,
                                              match_format={"kind": "games", "n": 3}))
    assert error.code == "no_race_target" and "bye_policy" in error.fields
    tournament = tournament_update(tournament=tournament, user=None, match_format={"kind": "games", "n": 3},
                                   bye_policy="round_average")
    assert tournament.board_format() == formats.MatchFormat(formats.MatchKind.GAMES, 3)


def test_an_update_takes_the_league_order_and_audits_it():
    tournament = create()
    updated = tournament_update(tournament=tournament, user=None, tiebreaks=LEAGUE_ORDER)
    assert Tournament.objects.get(pk=tournament.pk).tiebreaks == LEAGUE_ORDER == updated.tiebreaks
    event = AuditEvent.objects.get(action="tournament.update")
    assert event.after == {"tiebreaks": LEAGUE_ORDER}


def test_a_tournament_cannot_qualify_from_itself():
    tournament = create()
    error = refusal(lambda: tournament_update(tournament=tournament, user=None, qualifies_from=tournament))
    assert error.code == "qualifies_from_itself"


def test_a_club_team_event_keeps_its_team_format():
    tournament = create(entrant_type="club_teams", team_format={"boards": 4, "kind": "games", "n": 1})
    error = refusal(lambda: tournament_update(tournament=tournament, user=None, team_format=None))
    assert error.code == "team_format_required"


def test_a_change_of_the_ranking_settings_recomputes_the_standings():
    # at once, in the service (issue 11 item 4), between rounds (the round closed), not through the outbox
    tournament = make_tournament()
    a, b = make_entries(tournament, 2)
    round_ = make_round(tournament, [(a, b)])
    round_.status = "closed"
    round_.save(update_fields=["status"])
    OutboxMessage.objects.all().delete()
    tournament_update(tournament=tournament, user=None, name="Renamed")
    assert not tournament.snapshots.exists()
    tournament_update(tournament=tournament, user=None, tiebreaks=LEAGUE_ORDER)
    assert tournament.snapshots.count() == 1
    assert not OutboxMessage.objects.exists()


def test_only_an_organiser_changes_or_deletes_a_tournament():
    tournament = create()
    stranger = make_user()
    assert refusal(lambda: tournament_update(tournament=tournament, user=stranger, name="Mine"),
                   NotAllowed).code == "not_organiser"
    assert refusal(lambda: tournament_delete(tournament=tournament, user=stranger), NotAllowed).code == "not_organiser"


def test_a_tournament_with_rounds_is_finished_not_deleted():
    tournament = make_tournament()
    a, b = make_entries(tournament, 2)
    make_round(tournament, [(a, b)])
    assert refusal(lambda: tournament_delete(tournament=tournament, user=None), Conflict).code == "tournament_has_rounds"
    fresh = create()
    tournament_delete(tournament=fresh, user=None)
    assert not Tournament.objects.filter(pk=fresh.pk).exists()
    assert AuditEvent.objects.filter(action="tournament.delete", object_id=str(fresh.pk)).exists()


# ---- the one 4-player rule --------------------------------------------------------------------------------


def test_the_four_player_rule_is_one_function_that_rounds_calls_too():
    assert "players != 4" not in inspect.getsource(rounds)
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(rules=THREE_PLAYERS, rules_resolved={})
    tournament.refresh_from_db()
    error = refusal(lambda: tournament_rules_resolve(tournament=tournament))
    assert error.code == "rules_players" and error.fields == {"rules": "Pairs events take 4-player rule sets only."}
    assert refusal(lambda: create(rules=THREE_PLAYERS)).fields == error.fields


# ---- entries ----------------------------------------------------------------------------------------------


def _pair(name: str = "A") -> Pair:
    return pair_create(player_1=player_create(name=f"{name} one", user=None),
                       player_2=player_create(name=f"{name} two", user=None), user=None)


def test_entries_are_made_changed_and_removed():
    tournament = create()
    pair, other = _pair("A"), _pair("B")
    entry = entry_create(tournament=tournament, pair=pair, seed=3, user=None)
    assert (entry.seed, entry.withdrawn) == (3, False)
    entry = entry_update(entry=entry, user=None, withdrawn=True, seed=1)
    assert Entry.objects.get(pk=entry.pk).withdrawn is True
    entry = entry_update(entry=entry, user=None, pair=other)
    assert entry.pair == other
    entry_delete(entry=entry, user=None)
    assert not Entry.objects.exists()
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"entry.create", "entry.update", "entry.delete"} <= actions


def test_a_pair_is_entered_once():
    tournament = create()
    pair = _pair()
    entry_create(tournament=tournament, pair=pair, user=None)
    error = refusal(lambda: entry_create(tournament=tournament, pair=pair, user=None))
    assert error.code == "pair_already_entered" and "pair" in error.fields
    moved = entry_create(tournament=tournament, pair=_pair("B"), user=None)
    error = refusal(lambda: entry_update(entry=moved, user=None, pair=pair))
    assert error.code == "pair_already_entered"


def test_a_finished_tournament_takes_no_new_entry():
    tournament = create(status="finished")
    assert refusal(lambda: entry_create(tournament=tournament, pair=_pair(), user=None),
                   Conflict).code == "tournament_finished"


def test_an_entry_that_played_is_withdrawn_not_removed():
    tournament = make_tournament()
    a, b = make_entries(tournament, 2)
    make_round(tournament, [(a, b)])
    assert refusal(lambda: entry_delete(entry=a, user=None), Conflict).code == "entry_has_boards"
    assert refusal(lambda: entry_update(entry=a, user=None, tournament=tournament)).code == "unknown_field"


def test_only_an_organiser_enters_pairs():
    tournament = create()
    assert refusal(lambda: entry_create(tournament=tournament, pair=_pair(), user=make_user()),
                   NotAllowed).code == "not_organiser"


# ---- clubs, players, pairs --------------------------------------------------------------------------------


def test_clubs_are_created_changed_and_deleted_while_unused():
    club = club_create(name="Couva Kings", town="Couva", user=None)
    assert refusal(lambda: club_create(name="Couva Kings", user=None)).code == "name_taken"
    assert refusal(lambda: club_create(name="", user=None)).code == "required"
    assert refusal(lambda: club_create(name="x" * 121, user=None)).code == "too_long"
    club = club_update(club=club, user=None, short_name="CK")
    assert Club.objects.get(pk=club.pk).short_name == "CK"
    assert refusal(lambda: club_update(club=club, user=None, colour="red")).code == "unknown_field"
    player = player_create(name="Anil Ramdass", club=club, user=None)
    error = refusal(lambda: club_delete(club=club, user=None), Conflict)
    assert error.code == "in_use" and "players" in error.message
    player_delete(player=player, user=None)
    club_delete(club=club, user=None)
    assert not Club.objects.exists()
    assert AuditEvent.objects.filter(action="club.delete", before__name="Couva Kings").exists()


def test_players_are_created_changed_and_deleted_while_in_no_pair():
    player = player_create(name="Anil Ramdass", user=None)
    player = player_update(player=player, user=None, name="Anil Ramdass Jr")
    assert Player.objects.get(pk=player.pk).name == "Anil Ramdass Jr"
    pair_create(player_1=player, player_2=player_create(name="Keisha", user=None), user=None)
    assert refusal(lambda: player_delete(player=player, user=None), Conflict).code == "in_use"


def test_a_pair_is_two_different_players_and_is_kept_while_entered():
    one, two = player_create(name="One", user=None), player_create(name="Two", user=None)
    error = refusal(lambda: pair_create(player_1=one, player_2=one, user=None))
    assert error.code == "same_player" and "player_2" in error.fields
    pair = pair_create(player_1=one, player_2=two, seed=2, user=None)
    assert refusal(lambda: pair_update(pair=pair, user=None, player_2=one)).code == "same_player"
    pair = pair_update(pair=pair, user=None, name="The Ones")
    assert Pair.objects.get(pk=pair.pk).display_name == "The Ones"
    entry = entry_create(tournament=create(), pair=pair, user=None)
    assert refusal(lambda: pair_delete(pair=pair, user=None), Conflict).code == "in_use"
    entry_delete(entry=entry, user=None)
    pair_delete(pair=pair, user=None)
    assert not Pair.objects.exists()


# ---- pairs_import -----------------------------------------------------------------------------------------


def test_the_pairs_import_enters_the_pairs_or_refuses_with_every_bad_line():
    tournament = create()
    result = pairs_import(data="player_1,player_2,club,seed\nA,B,Couva,1\nC,D,Couva,2\n", tournament=tournament,
                          user=None)
    assert (result.pairs_created, result.entries_created) == (2, 2)
    error = refusal(lambda: pairs_import(data="player_1,player_2,club,seed\nA,A,X,1\n,B,X,z\n", user=None),
                    PairsImportRefused)
    assert error.code == "csv_rows_invalid" and set(error.fields) == {"line 2", "line 3"}
    error = refusal(lambda: pairs_import(data="name\nA\n", user=None), PairsImportRefused)
    assert error.code == "csv_unreadable" and "line 1" in error.fields


def test_only_an_organiser_imports_into_a_tournament():
    tournament = create()
    error = refusal(lambda: pairs_import(data="player_1,player_2,club,seed\nA,B,C,1\n", tournament=tournament,
                                         user=make_user()), NotAllowed)
    assert error.code == "not_organiser"
