"""Bad input never makes a 500: every 4xx (and Django's own 404) answers the one error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings

from .conftest import World
from .helpers import key, seat

pytestmark = pytest.mark.django_db


def assert_error_shape(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert set(body) == {"error"}
    error = body["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    assert set(error) <= {"code", "message", "fields", "current"}
    return error


def test_malformed_json_is_400(api: Any, world: World) -> None:
    response = api.post("/api/v1/clubs/", "{not json", content_type="application/json", **world.auth("organiser"))
    assert assert_error_shape(response, 400)["code"] == "parse_error"


@pytest.mark.parametrize("body", ['{"name": NaN}', '{"name": "a\\u0000b"}', "[" * 5000 + "]" * 5000, '"\\ud800"',
                                  '{"name": "\\udc00x"}', '{"name": 1e999}'])
def test_hostile_json_is_400(api: Any, world: World, body: str) -> None:
    response = api.post("/api/v1/clubs/", body, content_type="application/json", **world.auth("organiser"))
    assert_error_shape(response, 400)


def test_wrong_content_type_is_415(api: Any, world: World) -> None:
    response = api.post("/api/v1/clubs/", "name=x", content_type="application/x-www-form-urlencoded",
                        **world.auth("organiser"))
    assert assert_error_shape(response, 415)["code"] == "unsupported_media_type"


def test_huge_body_is_413(api: Any, world: World) -> None:
    body = json.dumps({"name": "x" * 400_000})
    response = api.post("/api/v1/clubs/", body, content_type="application/json", **world.auth("organiser"))
    assert_error_shape(response, 413)


@pytest.mark.parametrize(
    "body",
    [[], 5, "text", None, {"game": "one", "number": 1, "hand": {}}, {"game": 10**30, "number": 1, "hand": {"dealer": 0}},
     {"game": 1, "number": 1, "hand": []}, {"game": True, "number": 1.5, "hand": {"dealer": "x"}},
     {"game": 1, "number": 1, "hand": {"dealer": 0, "kicks": [{"a": 1}]}},
     {"game": 1, "number": 1, "hand": {"dealer": 99, "kicks": ["ZZ"], "bogus": 1}}],
)
def test_wrong_types_in_a_hand_submission_are_400(api: Any, world: World, body: Any) -> None:
    seat(api, world)
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/hands/", body, format="json",
                        HTTP_IDEMPOTENCY_KEY=key(), **world.auth("tablet"))
    assert_error_shape(response, 400)


def test_engine_errors_name_a_field_inside_the_hand(api: Any, world: World) -> None:
    seat(api, world)
    hand = {"dealer": 0, "kicks": ["ZZ"], "beg": "stand"}
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/hands/", {"game": 1, "number": 1, "hand": hand},
                        format="json", HTTP_IDEMPOTENCY_KEY=key(), **world.auth("tablet"))
    error = assert_error_shape(response, 400)
    assert list(error["fields"]) == ["hand.kicks[0]"]


def test_bad_idempotency_key_is_400(api: Any, world: World) -> None:
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/help/", format="json", HTTP_IDEMPOTENCY_KEY="x" * 101,
                        **world.auth("tablet"))
    assert "Idempotency-Key" in assert_error_shape(response, 400)["fields"]


def test_unknown_api_path_is_json_404(db: Any) -> None:
    response = Client().get("/api/v1/no-such-thing/")
    assert assert_error_shape(response, 404)["code"] == "not_found"


def test_missing_object_is_404(api: Any, world: World) -> None:
    for path in ("/api/v1/clubs/999999/", f"/api/v1/rounds/{2**40}/", "/api/v1/hands/99999999999999999999999/"):
        assert_error_shape(api.get(path, **world.auth("organiser")), 404)


def test_wrong_method_is_405(api: Any, world: World) -> None:
    response = api.delete("/api/v1/auth/login/")
    assert_error_shape(response, 405)
    assert "POST" in response["Allow"]


def test_filters_and_pagination_refuse_nonsense_without_500(api: Any, world: World) -> None:
    headers = world.auth("organiser")
    assert api.get("/api/v1/clubs/?limit=abc&offset=-4", **headers).status_code == 200
    assert api.get(f"/api/v1/clubs/?offset={10**40}", **headers).status_code == 200
    assert_error_shape(api.get("/api/v1/players/?club=abc", **headers), 400)
    assert_error_shape(api.get(f"/api/v1/players/?club={10**30}", **headers), 400)
    assert api.get("/api/v1/clubs/?name=%00", **headers).status_code in (200, 400)
    assert_error_shape(api.get("/api/v1/tournaments/?status=nonsense", **headers), 400)


def test_csrf_is_enforced_for_session_writes(world: World) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.organiser)
    response = client.post("/api/v1/clubs/", {"name": "X"}, content_type="application/json")
    assert assert_error_shape(response, 403)["code"] == "permission_denied"
    assert client.get("/api/v1/clubs/").status_code == 200


@override_settings(DEBUG=False)
def test_a_bug_answers_json_500_on_api_paths(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from api.views import auth

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("bug")

    monkeypatch.setattr(auth, "_user_body", boom)
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/auth/me/", HTTP_AUTHORIZATION=f"Token {world.organiser_token}")
    assert_error_shape(response, 500)


def test_unacceptable_accept_is_406(api: Any, world: World) -> None:
    response = api.get("/api/v1/public/tournaments/", HTTP_ACCEPT="text/html")
    assert assert_error_shape(response, 406)["code"] == "not_acceptable"


def test_missing_key_says_so(api: Any, world: World) -> None:
    response = api.post(f"/api/v1/tablet/boards/{world.board.pk}/help/", format="json", **world.auth("tablet"))
    assert assert_error_shape(response, 400)["code"] == "idempotency_key_required"
