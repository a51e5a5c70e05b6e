"""Issue 14 over the API: prizes (CRUD), how prizes are shared, awards and payout, finishing (each refusal
in the one error shape) and reopening, the frozen final results and the results as text; who may (401,
403), and a tablet of a finished (or reopened) event refused.

The event is the service tests' (tests/tournaments/test_services_prizes_finish.py): four pairs, round 1
closed, A and C level for 1st after every tie-break, B and D level for 3rd.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import make_round, make_user
from tests.tournaments.test_services_prizes_finish import Event, places
from tournaments.models import Board, Prize
from tournaments.services.devices import device_pair, pairing_code_create

from .conftest import token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return Event()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def auth(user: Any) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {token_for(user)}"}


def base(event: Event) -> str:
    return f"/api/v1/tournaments/{event.tournament.pk}/"


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return body["error"]


def test_prizes_crud(api, event):
    headers = auth(event.organiser)
    response = api.post(base(event) + "prizes/", {"category": "place", "place": 1, "amount": "1000"}, format="json",
                        **headers)
    assert response.status_code == 201, response.content
    prize = response.json()
    assert (prize["title"], prize["amount"], prize["order"], prize["tournament"]) == (
        "1st place", "1000.00", 1, event.tournament.pk)
    listing = api.get(base(event) + "prizes/", **headers).json()
    assert listing["count"] == 1 and listing["results"][0]["id"] == prize["id"]
    one = base(event) + f"prizes/{prize['id']}/"
    assert api.get(one, **headers).json()["title"] == "1st place"
    response = api.patch(one, {"label": "Champions", "amount": "1250.50"}, format="json", **headers)
    assert response.status_code == 200 and response.json()["title"] == "Champions"
    assert response.json()["amount"] == "1250.50" and response.json()["place"] == 1
    assert api.delete(one, **headers).status_code == 204
    assert api.get(one, **headers).status_code == 404
    assert not Prize.objects.exists()


def test_prize_refusals_name_the_field(api, event):
    headers = auth(event.organiser)
    response = api.post(base(event) + "prizes/", {"category": "tag", "place": 1}, format="json", **headers)
    assert response.status_code == 400
    assert error(response)["code"] == "prize_invalid" and "tag" in error(response)["fields"]
    response = api.post(base(event) + "prizes/", {"category": "place", "place": 1, "amount": "-5"}, format="json",
                        **headers)
    assert response.status_code == 400 and "amount" in error(response)["fields"]
    response = api.post(base(event) + "prizes/", {"category": "place", "place": 0}, format="json", **headers)
    assert response.status_code == 400 and "place" in error(response)["fields"]
    response = api.post(base(event) + "prizes/", {"category": "place"}, format="json", **headers)
    assert response.status_code == 400 and "place" in error(response)["fields"]
    other = Event()
    foreign = other.prize(category="place", place=1)
    assert api.get(base(event) + f"prizes/{foreign.pk}/", **headers).status_code == 404
    assert api.get(base(other) + f"prizes/{foreign.pk}/", **headers).status_code == 403


def test_who_may(api, event):
    places(event)
    prize = Prize.objects.filter(tournament=event.tournament).first()
    reads = ["prizes/", f"prizes/{prize.pk}/", "prize-settings/", "awards/", "payout/", "final-results/",
             "results-text/"]
    for path in reads:
        response = api.get(base(event) + path)
        assert response.status_code == 401 and error(response)["code"], path
    stranger = make_user()
    from django.contrib.auth.models import Permission

    stranger.user_permissions.add(Permission.objects.get(codename="organise_events"))
    Event().tournament.roles.create(user=stranger)  # organises another event
    for path in reads:
        response = api.get(base(event) + path, **auth(stranger))
        assert response.status_code == 403 and error(response)["code"] == "not_your_tournament", path
    scorekeeper = make_user()
    event.tournament.roles.create(user=scorekeeper, role="scorekeeper")
    for path in reads:
        assert api.get(base(event) + path, **auth(scorekeeper)).status_code == 200, path
    writes = [("post", "prizes/", {"category": "place", "place": 4}), ("patch", f"prizes/{prize.pk}/", {"label": "x"}),
              ("delete", f"prizes/{prize.pk}/", None), ("patch", "prize-settings/", {"prize_ties": "split"}),
              ("post", "finish/", None), ("post", "reopen/", None)]
    for method, path, body in writes:
        response = getattr(api, method)(base(event) + path, body, format="json", **auth(scorekeeper))
        assert response.status_code == 403 and error(response)["code"] == "role_not_allowed", path
    _, code = pairing_code_create(tournament=event.tournament, table=1, user=event.organiser)
    _, token = device_pair(code=code)
    response = api.post(base(event) + "finish/", HTTP_AUTHORIZATION=f"Device {token}")
    assert response.status_code == 403
    assert event.refresh().status == "running"


def test_settings_awards_and_payout(api, event):
    headers = auth(event.organiser)
    places(event)
    assert api.get(base(event) + "prize-settings/", **headers).json() == {
        "one_prize_per_pair": True, "prize_ties": "tie_breaks"}
    response = api.patch(base(event) + "prize-settings/", {"prize_ties": "split"}, format="json", **headers)
    assert response.status_code == 200 and response.json()["prize_ties"] == "split"
    response = api.patch(base(event) + "prize-settings/", {"prize_ties": "coin"}, format="json", **headers)
    assert response.status_code == 400 and "prize_ties" in error(response)["fields"]
    awards = api.get(base(event) + "awards/", **headers).json()
    assert awards["final"] is False and awards["currency"] == "TTD"
    top = awards["awards"][0]
    assert top["title"] == "1st place + 2nd place" and [w["amount"] for w in top["winners"]] == ["750.00", "750.00"]
    payout = api.get(base(event) + "payout/", **headers).json()
    assert payout["total_paid"] == "1700.01" and payout["text"]["total_paid"] == "TTD 1,700.01"
    assert payout["fees_collected"] == "0.00" and payout["entry_fee"] == "100.00" and payout["balance"] == "-1700.01"


def test_finish_refusals_then_finish_then_reopen(api, event):
    headers = auth(event.organiser)
    places(event)
    _, code = pairing_code_create(tournament=event.tournament, table=1, user=event.organiser)
    _, token = device_pair(code=code)
    tablet = {"HTTP_AUTHORIZATION": f"Device {token}"}
    round_2 = make_round(event.tournament, [(event.a, event.c), (event.b, event.d)])
    assert api.get("/api/v1/tablet/board/", **tablet).status_code == 200

    response = api.post(base(event) + "finish/", **headers)
    assert response.status_code == 409
    assert error(response) == {"code": "round_open", "message": "Round 2 is still in play: close it first.",
                               "current": {"round": 2, "status": "in_play"}}

    from tests.tournaments.test_services_prizes_finish import confirm_and_close, play_board

    for board in Board.objects.filter(round=round_2):
        play_board(board, 0)
    confirm_and_close(round_2, event.organiser)
    response = api.post(base(event) + "finish/", **headers)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished" and body["final"] is True
    assert body["final_results"]["after_round"] == 2 and body["final_results"]["tie_breaks"][0]["explanation"]
    # the tablet is revoked: its reads and writes answer 401
    assert api.get("/api/v1/tablet/board/", **tablet).status_code == 401
    board = Board.objects.filter(round=round_2, table=1).first()
    response = api.post(f"/api/v1/tablet/boards/{board.pk}/help/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k1",
                        **tablet)
    assert response.status_code == 401 and error(response)["code"]
    response = api.post(base(event) + "finish/", **headers)
    assert response.status_code == 409 and error(response)["code"] == "tournament_finished"
    response = api.post(base(event) + "prizes/", {"category": "place", "place": 4}, format="json", **headers)
    assert response.status_code == 409 and error(response)["code"] == "tournament_finished"
    assert api.get(base(event) + "awards/", **headers).json()["final"] is True
    text = api.get(base(event) + "results-text/", **headers).json()
    assert text["final"] is True and text["text"].startswith(f"{event.tournament.name}: final results\n")
    assert f"Full results: http://testserver/t/{event.tournament.slug}/" in text["text"]

    response = api.post(base(event) + "reopen/", **headers)
    assert response.status_code == 200
    assert response.json()["status"] == "running" and response.json()["final_results"]["reopened_at"]
    assert api.get("/api/v1/tablet/board/", **tablet).status_code == 401  # still revoked: pair again
    response = api.post(base(event) + "reopen/", **headers)
    assert response.status_code == 409 and error(response)["code"] == "tournament_not_finished"
    final = api.get(base(event) + "final-results/", **headers).json()
    assert final["final"] is False and final["final_results"]["reopened_at"]


def test_the_new_routes_are_in_the_schema(api):
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path in ("prizes/", "prizes/{id}/", "prize-settings/", "awards/", "payout/", "finish/", "reopen/",
                 "final-results/", "results-text/"):
        assert f"/api/v1/tournaments/{{tournament_pk}}/{path}" in paths, path
