"""Issue 11 item 4: what may change when (docs/decisions.md, "What may change when").

Before: ``PATCH /api/v1/tournaments/{id}/`` changed the rules while a round was in play (one board played
to 14, the next to 100,000), and a tie-break changed between rounds waited for the beat schedule to reach
the standings.

- Fixed once any board of the event is seated (409 ``settings_fixed``): the rules, the entrant type, the
  pairing system, the match format, the team format, and the knockout's shape (third-place match,
  qualifying tournament), all decided when round 1 is drawn.
- Between rounds only (409 ``settings_between_rounds`` while a round is published or in play): tie-breaks,
  bye and forfeit policies, club avoidance, the time-called policy, the round time, check-in, the rounds planned (never
  below the rounds already created: 409 ``rounds_planned_too_low``).
- Any time: name, slug, venue, dates, status (draft or running; finishing and reopening a finished event go
  through tournament_finish and tournament_reopen, issue 14), published, time zone, entry fee and currency, the grace time
  before a no-show is forfeited and whether a late entry may take a bye (issue 13).
- A change between rounds to what the standings are computed from recomputes them at once.

The table is every field of ``TOURNAMENT_FIELDS`` times every state of the event.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import private_cache, token_for  # noqa: F401 (private_cache: autouse fixture)
from tests.tournaments.factories import (
    make_entries,
    make_organiser,
    make_round,
    make_tournament,
    seat,
    win_game,
)
from tournaments import formats
from tournaments.errors import DomainError
from tournaments.models import Board, Game, Round, StandingsSnapshot, Tournament, TournamentRole
from tournaments.services import game_confirm, round_close, tournament_settings_clean, tournament_update
from tournaments.services.events import TOURNAMENT_FIELDS

pytestmark = pytest.mark.django_db

ANY_TIME = {"name", "slug", "venue", "starts_on", "ends_on", "status", "published", "time_zone", "entry_fee",
            "currency", "grace_minutes", "late_entry_bye"}
FIXED = {"rules", "entrant_type", "pairing_system", "match_format", "team_format", "third_place_match",
         "qualifies_from"}
BETWEEN = {"tiebreaks", "bye_policy", "forfeit_policy", "club_avoidance", "time_called", "rounds_planned",
           "round_minutes", "requires_check_in"}

STATES = ("no_boards", "board_seated", "round_published", "round_in_play", "between_rounds")
LIVE = {"round_published", "round_in_play"}


def test_every_setting_has_a_when():
    assert set(TOURNAMENT_FIELDS) <= ANY_TIME | FIXED | BETWEEN, set(TOURNAMENT_FIELDS) - (ANY_TIME | FIXED | BETWEEN)
    assert not (ANY_TIME & FIXED or ANY_TIME & BETWEEN or FIXED & BETWEEN)


def _change(field: str, tournament: Tournament, organiser: Any) -> dict[str, Any]:
    """A valid change of ``field`` (to a value other than the stored one)."""
    default_tiebreaks = list(formats.DEFAULT_TIE_BREAKS)
    other_level = 0 if tournament.club_avoidance else 3
    qualifier = make_tournament()
    TournamentRole.objects.create(tournament=qualifier, user=organiser)
    return {
        "name": {"name": "Renamed Open"},
        "slug": {"slug": f"renamed-{tournament.pk}"},
        "venue": {"venue": "Couva community centre"},
        "starts_on": {"starts_on": dt.date(2026, 3, 1)},
        "ends_on": {"ends_on": dt.date(2026, 3, 2)},
        # finishing has its own checks (issue 14: tournament_finish, tested there); draft and running are any time
        "status": {"status": "running" if tournament.status != "running" else "draft"},
        "published": {"published": not tournament.published},
        "time_zone": {"time_zone": "America/New_York"},
        "entry_fee": {"entry_fee": Decimal("50.00")},
        "currency": {"currency": "USD"},
        "rules": {"rules": {"preset": "trinidad-tournament", "target": 21}},
        "entrant_type": {"entrant_type": "club_teams", "team_format": {"boards": 2, "kind": "games", "n": 1}},
        "pairing_system": {"pairing_system": "round_robin"},
        "match_format": {"match_format": {"kind": "games", "n": 3}},
        "team_format": {"team_format": {"boards": 3, "kind": "games", "n": 1}},
        "third_place_match": {"third_place_match": not tournament.third_place_match},
        "qualifies_from": {"qualifies_from": qualifier},
        "tiebreaks": {"tiebreaks": list(reversed(default_tiebreaks))},
        "bye_policy": {"bye_policy": "league"},
        "club_avoidance": {"club_avoidance": other_level},
        "time_called": {"time_called": "award" if tournament.time_called == "void" else "void"},
        "rounds_planned": {"rounds_planned": tournament.rounds_planned + 2},
        "round_minutes": {"round_minutes": 90},
        "requires_check_in": {"requires_check_in": not tournament.requires_check_in},
        "forfeit_policy": {"forfeit_policy": "bare_win"},
        "grace_minutes": {"grace_minutes": tournament.grace_minutes + 10},
        "late_entry_bye": {"late_entry_bye": not tournament.late_entry_bye},
    }[field]


def _event(state: str) -> tuple[Tournament, Any]:
    """A published pairs event of four pairs in ``state``, and its organiser."""
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(published=True)
    organiser = make_organiser(tournament)
    a, b, c, d = make_entries(tournament, 4)
    if state == "no_boards":
        return Tournament.objects.get(pk=tournament.pk), organiser
    status = {"board_seated": "drafted", "round_published": "published"}.get(state, "in_play")
    round_ = make_round(tournament, [(a, b), (c, d)], status=status)
    if state == "between_rounds":
        for board in Board.objects.filter(round=round_):
            board = seat(board)
            win_game(board, to=0)
            win_game(Board.objects.get(pk=board.pk), to=0)
        for game in Game.objects.filter(board__round=round_, status="finished"):
            game_confirm(game=game, party="organiser", user=organiser)
        round_close(round=round_, user=organiser)
    return Tournament.objects.get(pk=tournament.pk), organiser


def _expected(field: str, state: str) -> str | None:
    """The refusal code expected for changing ``field`` in ``state`` (None: accepted)."""
    if field in FIXED and state != "no_boards":
        return "settings_fixed"
    if field in BETWEEN and state in LIVE:
        return "settings_between_rounds"
    return None


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("field", sorted(ANY_TIME | FIXED | BETWEEN))
def test_item04_each_setting_changes_only_when_it_may(field, state):
    tournament, organiser = _event(state)
    if field not in TOURNAMENT_FIELDS:
        pytest.skip(f"{field} is not a tournament setting here")
    changes = _change(field, tournament, organiser)
    expected = _expected(field, state)
    before = {name: getattr(tournament, name) for name in changes}
    if expected is None:
        stored_form = tournament_settings_clean(changes, instance=tournament)
        updated = tournament_update(tournament=tournament, user=organiser, **changes)
        for name in changes:
            assert getattr(updated, name) == stored_form[name], name
        return
    with pytest.raises(DomainError) as caught:
        tournament_update(tournament=tournament, user=organiser, **changes)
    error = caught.value
    assert error.status_code == 409, (error.code, error.message)
    assert error.code == expected, (error.code, error.message)
    assert field in (error.fields or {}), error.fields
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert {name: getattr(fresh, name) for name in changes} == before


@pytest.mark.parametrize("state", STATES)
def test_item04_sending_every_setting_unchanged_is_accepted_in_any_state(state):
    """A PUT of the settings as they are changes nothing, so nothing is refused."""
    tournament, organiser = _event(state)
    same = {name: getattr(tournament, name) for name in TOURNAMENT_FIELDS if name != "qualifies_from"}
    tournament_update(tournament=tournament, user=organiser, **same)


def test_item04_rounds_planned_never_goes_below_the_rounds_created():
    tournament, organiser = _event("between_rounds")
    a, b, c, d = tournament.entries.all()
    second = make_round(tournament, [(a, c), (b, d)], status="drafted")
    Round.objects.filter(pk=second.pk).update(status=Round.Status.CLOSED)
    with pytest.raises(DomainError) as caught:
        tournament_update(tournament=tournament, user=organiser, rounds_planned=1)
    assert (caught.value.status_code, caught.value.code) == (409, "rounds_planned_too_low")
    assert "rounds_planned" in caught.value.fields
    updated = tournament_update(tournament=tournament, user=organiser, rounds_planned=2)
    assert updated.rounds_planned == 2


@pytest.mark.parametrize(("changes", "field"), [
    ({"tiebreaks": ["bullseyes_won", "wins", "match_points"]}, "tiebreaks"),
    ({"bye_policy": "league"}, "bye_policy"),
    ({"forfeit_policy": "bare_win"}, "forfeit_policy"),
])
def test_item04_a_ranking_change_between_rounds_recomputes_the_standings_at_once(changes, field):
    tournament, organiser = _event("between_rounds")
    before = StandingsSnapshot.objects.filter(tournament=tournament).count()
    tournament_update(tournament=tournament, user=organiser, **changes)
    snapshots = StandingsSnapshot.objects.filter(tournament=tournament)
    assert snapshots.count() == before + 1, f"{field}: the standings wait for the outbox"


def test_item04_the_issues_example_answers_409_through_the_api():
    tournament, organiser = _event("round_in_play")
    api = APIClient()
    headers = {"HTTP_AUTHORIZATION": f"Token {token_for(organiser)}"}
    response = api.patch(f"/api/v1/tournaments/{tournament.pk}/",
                         {"rules": {"preset": "trinidad-tournament", "target": 21}}, format="json", **headers)
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "settings_fixed"
    assert "rules" in response.json()["error"]["fields"]
    response = api.patch(f"/api/v1/tournaments/{tournament.pk}/", {"tiebreaks": ["wins", "match_points"]},
                         format="json", **headers)
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "settings_between_rounds"
    response = api.patch(f"/api/v1/tournaments/{tournament.pk}/", {"name": "Carnival Open (day 2)"},
                         format="json", **headers)
    assert response.status_code == 200, response.content
