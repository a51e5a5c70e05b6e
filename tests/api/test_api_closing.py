"""Issue 14 over the API: the round clock (``POST /rounds/{id}/clock/``, ``/call-time/``, ``clock`` on every
round), the close preview (``GET /rounds/{id}/close-preview/``), closing from its token (``POST /close/``,
``confirm_remaining`` kept for older clients), reopening (``POST /reopen/``), ``round_start``'s refusals; each
refusal in the one error shape, nothing changed by a refused write; who may (401, 403 for a scorekeeper, a
tablet, an organiser of another event).

The event is ``closing_helpers.ClosingEvent`` (tests/tournaments/closing_helpers.py): round 1 of ten pairs,
table 1 at 6-7 in game 1, table 2 at 5-9 in game 2 after 1-0, table 3 won 2-0 by play but unconfirmed,
table 4 won and confirmed, table 5 seated with no hand.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.closing_helpers import (
    A2_B2,
    A4,
    ClosingEvent,
    database,
    fresh,
    game_of,
    hand,
    play,
    play_and_close,
    state,
)
from tests.tournaments.factories import make_entries, make_organiser, make_tournament, make_user, submit
from tournaments.models import Hand, Round, Tournament
from tournaments.services import Conflict, game_confirm, hand_correct, round_call_time, round_start
from tournaments.services.devices import device_pair, pairing_code_create

from .conftest import token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> ClosingEvent:
    return ClosingEvent(round_minutes=60)


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def auth(user: Any) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {token_for(user)}"}


def path(event: ClosingEvent, what: str = "") -> str:
    return f"/api/v1/rounds/{event.round.pk}/" + (f"{what}/" if what else "")


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return body["error"]


# ---- the clock ---------------------------------------------------------------------------------------------


def test_every_round_carries_its_clock(api, event):
    body = api.get(path(event), **auth(event.organiser)).json()
    clock = body["clock"]
    assert set(clock) == {"ends_at", "seconds_left", "time_called", "ends_local", "time_zone"}
    assert 3540 <= clock["seconds_left"] <= 3600 and clock["time_called"] is False
    assert clock["time_zone"] == "America/Port_of_Spain" and len(clock["ends_local"]) == 5
    listing = api.get(f"/api/v1/tournaments/{event.tournament.pk}/rounds/", **auth(event.organiser)).json()
    assert listing["results"][0]["clock"] == {**clock, "seconds_left": listing["results"][0]["clock"]["seconds_left"]}


def test_a_round_without_a_limit_has_an_empty_clock(api):
    event = ClosingEvent()
    clock = api.get(path(event), **auth(event.organiser)).json()["clock"]
    assert clock == {"ends_at": None, "seconds_left": None, "time_called": False, "ends_local": "",
                     "time_zone": ""}


def test_the_clock_is_set_from_now_and_time_is_called_by_hand(api, event):
    headers = auth(event.organiser)
    response = api.post(path(event, "clock"), {"minutes": 10}, format="json", **headers)
    assert response.status_code == 200, response.content
    clock = response.json()["clock"]
    assert 590 <= clock["seconds_left"] <= 600 and not clock["time_called"]
    assert abs((fresh(event.round).ends_at - timezone.now()).total_seconds() - 600) < 5
    response = api.post(path(event, "call-time"), **headers)
    assert response.status_code == 200
    clock = response.json()["clock"]
    assert clock["seconds_left"] == 0 and clock["time_called"] is True
    assert response.json()["status"] == "in_play"  # calling time closes nothing
    response = api.post(path(event, "clock"), {"minutes": 0}, format="json", **headers)
    assert response.status_code == 200 and response.json()["clock"]["time_called"]


@pytest.mark.parametrize("minutes", [-1, 601, "ten", 2.5, True, None, [5]])
def test_minutes_outside_0_to_600_are_400_minutes_invalid(api, event, minutes):
    before = database()
    response = api.post(path(event, "clock"), {"minutes": minutes}, format="json", **auth(event.organiser))
    assert response.status_code == 400, (minutes, response.content)
    err = error(response)
    assert err["code"] == "minutes_invalid" and "from 0 to 600" in err["message"]
    assert database() == before


def test_a_missing_minutes_is_minutes_invalid(api, event):
    response = api.post(path(event, "clock"), {}, format="json", **auth(event.organiser))
    assert response.status_code == 400 and error(response)["code"] == "minutes_invalid"


def test_the_clock_of_a_closed_round_is_409_round_not_open(api, event):
    event.close()
    before = database()
    for what, body in (("clock", {"minutes": 5}), ("call-time", None)):
        response = api.post(path(event, what), body, format="json", **auth(event.organiser))
        assert response.status_code == 409 and error(response)["code"] == "round_not_open", what
    assert database() == before
    clock = api.get(path(event), **auth(event.organiser)).json()["clock"]
    assert clock["time_called"] and clock["seconds_left"] == 0


def test_a_new_game_is_refused_once_time_is_called(api, event):
    """The tablets' side (hands services): 409 ``time_called`` for the first hand of a game, not mid-game."""
    round_call_time(round=event.round, user=event.organiser)
    play(event.t1, [A4])  # the hand in play finishes
    with pytest.raises(Conflict) as caught:
        submit(event.t5, hand(0, A4))
    assert caught.value.code == "time_called"


# ---- the preview -------------------------------------------------------------------------------------------


def test_the_preview_says_what_closing_does_and_writes_nothing(api, event):
    before = database()
    response = api.get(path(event, "close-preview"), **auth(event.organiser))
    assert response.status_code == 200, response.content
    body = response.json()
    assert database() == before
    assert set(body) == {"round", "token", "boards", "games_to_confirm", "games_awarded", "games_voided",
                         "disputed", "blocking"}
    assert (body["round"], body["games_to_confirm"], body["games_awarded"], body["games_voided"]) == (1, 2, 0, 3)
    assert body["blocking"] == [] and body["disputed"] == 0 and body["token"] == event.preview().token
    tables = {b["table"]: b for b in body["boards"]}
    assert sorted(tables) == [1, 2, 3, 5]
    assert tables[1]["now"] == "0-0 in games, game 1 at 6-7" and tables[1]["becomes"] == "drawn, 0-0 in games"
    assert tables[1]["changes"] == ["game 1 (6-7) voided"] and tables[1]["board"] == event.t1.pk
    assert tables[2]["becomes"] == "pair A wins 1-0 in games"
    assert tables[3]["changes"] == ["game 1 (14-0) confirmed", "game 2 (14-0) confirmed"]


def test_a_dispute_shows_in_the_preview_as_blocking(api, event):
    game_confirm(game=game_of(event.t3, 2), party="b", agrees=False, reason="Low was ours", device=event.device_3)
    body = api.get(path(event, "close-preview"), **auth(event.organiser)).json()
    assert body["disputed"] == 1 and "disputed" in body["blocking"][0]
    response = api.post(path(event, "close"), {"token": body["token"]}, format="json", **auth(event.organiser))
    assert response.status_code == 409 and error(response)["code"] == "dispute_open"


# ---- closing and reopening ---------------------------------------------------------------------------------


def test_closing_with_the_token_then_reopening_puts_every_row_back(api, event):
    headers = auth(event.organiser)
    before = state(event.round)
    token = api.get(path(event, "close-preview"), **headers).json()["token"]
    response = api.post(path(event, "close"), {"token": token}, format="json", **headers)
    assert response.status_code == 200, response.content
    closed = response.json()
    assert closed["status"] == "closed" and closed["closed_at"]
    assert closed["clock"]["time_called"] and closed["clock"]["seconds_left"] == 0
    response = api.post(path(event, "reopen"), **headers)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "in_play" and response.json()["closed_at"] is None
    after = state(event.round)
    assert (after["games"], after["confirmations"], after["boards"]) == (
        before["games"], before["confirmations"], before["boards"])
    # and closes again
    token = api.get(path(event, "close-preview"), **headers).json()["token"]
    assert api.post(path(event, "close"), {"token": token}, format="json", **headers).status_code == 200


def test_a_stale_token_is_409_preview_stale_and_closes_nothing(api):
    event = ClosingEvent(time_called="award", round_minutes=30)
    headers = auth(event.organiser)
    token = api.get(path(event, "close-preview"), **headers).json()["token"]
    play(event.t1, [A4])
    before = database()
    response = api.post(path(event, "close"), {"token": token}, format="json", **headers)
    assert response.status_code == 409
    err = error(response)
    assert err["code"] == "preview_stale" and "preview" in err["message"]
    assert database() == before


def test_without_a_token_confirm_remaining_still_closes_for_older_clients(api, event):
    headers = auth(event.organiser)
    response = api.post(path(event, "close"), {}, format="json", **headers)
    assert response.status_code == 409 and error(response)["code"] == "games_unconfirmed"
    assert "confirm_remaining" not in error(response)["message"]
    response = api.post(path(event, "close"), {"confirm_remaining": True}, format="json", **headers)
    assert response.status_code == 200 and response.json()["status"] == "closed"


def test_closing_a_closed_round_and_previewing_it_are_409_round_not_open(api, event):
    event.close()
    headers = auth(event.organiser)
    assert error(api.get(path(event, "close-preview"), **headers))["code"] == "round_not_open"
    response = api.post(path(event, "close"), {"token": "abc"}, format="json", **headers)
    assert response.status_code == 409 and error(response)["code"] == "round_not_open"


def test_reopen_refusals(api, event):
    headers = auth(event.organiser)
    response = api.post(path(event, "reopen"), **headers)
    assert response.status_code == 409 and error(response)["code"] == "round_not_closed"
    event.close()
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.FINISHED)
    response = api.post(path(event, "reopen"), **headers)
    assert response.status_code == 409 and error(response)["code"] == "tournament_finished"
    Tournament.objects.filter(pk=event.tournament.pk).update(status=Tournament.Status.RUNNING)
    round_start(tournament=event.tournament, user=event.organiser)
    before = database()
    response = api.post(path(event, "reopen"), **headers)
    assert response.status_code == 409
    err = error(response)
    assert err["code"] == "later_round" and "Round 2" in err["message"]
    assert database() == before


def test_reopen_changed_when_a_result_closing_set_changed_since(api, event):
    event.close()
    first = Hand.objects.get(game=game_of(event.t3, 1), number=1, status="active")
    hand_correct(hand=first, record=hand(first.dealer, A2_B2), expected_version=first.version, user=event.organiser)
    before = database()
    response = api.post(path(event, "reopen"), **auth(event.organiser))
    assert response.status_code == 409 and error(response)["code"] == "reopen_changed"
    assert database() == before


# ---- round_start's refusals --------------------------------------------------------------------------------


def test_round_start_refuses_a_skipped_round_a_swiss_past_its_plan_and_a_finished_event(api):
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=1)
    organiser = make_organiser(tournament)
    make_entries(tournament, 4)
    headers = auth(organiser)
    rounds = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    response = api.post(rounds, {"number": 2}, format="json", **headers)
    assert response.status_code == 409 and error(response)["code"] == "round_skips"
    play_and_close(round_start(tournament=fresh(tournament), user=organiser), organiser)
    response = api.post(rounds, {}, format="json", **headers)
    assert response.status_code == 409
    err = error(response)
    assert err["code"] == "rounds_planned_reached" and "raise the rounds planned" in err["message"]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED, rounds_planned=3)
    response = api.post(rounds, {}, format="json", **headers)
    assert response.status_code == 409 and error(response)["code"] == "tournament_finished"
    assert Round.objects.filter(tournament=tournament).count() == 1


# ---- who may -----------------------------------------------------------------------------------------------


def _writes(event: ClosingEvent, token: str) -> list[tuple[str, str, Any]]:
    return [("get", "close-preview", None), ("post", "close", {"token": token}),
            ("post", "close", {"confirm_remaining": True}), ("post", "reopen", None),
            ("post", "clock", {"minutes": 5}), ("post", "call-time", None)]


def test_a_scorekeeper_reads_the_round_but_is_403_on_the_clock_preview_close_and_reopen(api, event):
    keeper = make_user()
    event.tournament.roles.create(user=keeper, role="scorekeeper")
    headers = auth(keeper)
    assert api.get(path(event), **headers).status_code == 200  # reading the round (and its clock) is allowed
    before = database()
    for method, what, body in _writes(event, event.preview().token):
        response = getattr(api, method)(path(event, what), body, format="json", **headers)
        assert response.status_code == 403, (what, response.content)
        assert error(response)["code"] == "role_not_allowed"
    assert database() == before
    event.close()
    response = api.post(path(event, "reopen"), **headers)
    assert response.status_code == 403 and fresh(event.round).status == "closed"


@pytest.mark.parametrize("who", ["anonymous", "stranger", "tablet"])
def test_outsiders_are_refused_and_change_nothing(api, event, who):
    if who == "anonymous":
        headers, expected = {}, 401
    elif who == "stranger":
        headers, expected = auth(ClosingEvent().organiser), 403
    else:
        _, code = pairing_code_create(tournament=event.tournament, table=1, user=event.organiser)
        _, device_token = device_pair(code=code)
        headers, expected = {"HTTP_AUTHORIZATION": f"Device {device_token}"}, 403
    before = database()
    for method, what, body in _writes(event, event.preview().token):
        response = getattr(api, method)(path(event, what), body, format="json", **headers)
        assert response.status_code == expected, (who, what, response.content)
        error(response)
    assert fresh(event.round).ends_at == before["Round"][0]["ends_at"]
    assert fresh(event.round).status == "in_play"


def test_an_expired_clock_reads_time_called_on_the_api(api, event):
    Round.objects.filter(pk=event.round.pk).update(ends_at=timezone.now() - timedelta(minutes=1))
    clock = api.get(path(event), **auth(event.organiser)).json()["clock"]
    assert clock["time_called"] and clock["seconds_left"] == 0
