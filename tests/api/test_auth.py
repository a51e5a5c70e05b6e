"""Organiser sign-in: knox tokens stored hashed, a throttled login, 401 for wrong or missing credentials."""

from __future__ import annotations

from typing import Any

import pytest
from knox.models import AuthToken
from rest_framework.settings import api_settings

from .conftest import World, make_user

pytestmark = pytest.mark.django_db


def test_login_issues_a_token_stored_only_as_a_digest(api: Any) -> None:
    user = make_user("ria")
    response = api.post("/api/v1/auth/login/", {"username": "ria", "password": "pw-ria"}, format="json")
    assert response.status_code == 201, response.content
    token = response.json()["token"]
    stored = AuthToken.objects.get(user=user)
    assert token not in (stored.digest, stored.token_key)
    me = api.get("/api/v1/auth/me/", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.status_code == 200
    assert me.json()["username"] == "ria"


def test_wrong_password_is_401_in_the_error_shape(api: Any) -> None:
    make_user("ria")
    response = api.post("/api/v1/auth/login/", {"username": "ria", "password": "nope"}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "invalid_credentials"
    assert response["WWW-Authenticate"]


def test_login_is_rate_limited_with_retry_after(api: Any, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**api_settings.DEFAULT_THROTTLE_RATES, "login": "3/min"}}
    for _ in range(3):
        assert api.post("/api/v1/auth/login/", {"username": "x", "password": "y"}, format="json").status_code == 401
    response = api.post("/api/v1/auth/login/", {"username": "x", "password": "y"}, format="json")
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert response.json()["error"]["code"] == "throttled"


def test_logout_kills_the_token(api: Any, world: World) -> None:
    headers = world.auth("organiser")
    assert api.post("/api/v1/auth/logout/", **headers).status_code == 204
    assert api.get("/api/v1/auth/me/", **headers).status_code == 401


@pytest.mark.parametrize("header", ["Token nonsense", "Token", "Token a b", "Device nonsense", "Device", "Token \xe9\xe9"])
def test_bad_authorization_headers_are_401(api: Any, world: World, header: str) -> None:
    response = api.get("/api/v1/tournaments/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    assert set(response.json()["error"]) >= {"code", "message"}


def test_anonymous_is_401_and_a_tablet_is_403_on_organiser_endpoints(api: Any, world: World) -> None:
    assert api.get("/api/v1/tournaments/").status_code == 401
    assert api.get("/api/v1/tournaments/", **world.auth("tablet")).status_code == 403
