"""Rate limits: tablet submissions answer 429 with Retry-After; a replay is answered before the limit; a
cache that is down fails open (a limit never becomes a 500)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from rest_framework.settings import api_settings

from .conftest import World
from .helpers import hands_of_game, key, post, seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def tight(settings: Any) -> None:
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "tablet_write": "3/min", "pairing": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_tablet_submissions_are_limited_per_device(api: Any, world: World, tight: None) -> None:
    seat(api, world)  # 1
    hands = hands_of_game(seed=7)
    path = f"/api/v1/tablet/boards/{world.board.pk}/hands/"
    k = key()
    assert post(api, world, path, {"game": 1, "number": 1, "hand": hands[0]}, idem=k).status_code == 201  # 2
    assert post(api, world, path, {"game": 1, "number": 2, "hand": hands[1]}).status_code == 201  # 3
    limited = post(api, world, path, {"game": 1, "number": 3, "hand": hands[2]})
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) >= 1
    assert limited.json()["error"]["code"] == "throttled"
    # A replay of an answered write is answered before the rate limit...
    replay = post(api, world, path, {"game": 1, "number": 1, "hand": hands[0]}, idem=k)
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    # ...and so is a reused key with another body (422, not 429).
    reused = post(api, world, path, {"game": 1, "number": 3, "hand": hands[2]}, idem=k)
    assert reused.status_code == 422
    # Another table's tablet has its own budget.
    other = post(api, world, f"/api/v1/tablet/boards/{world.board_2.pk}/help/", None, who="tablet_2")
    assert other.status_code == 200


def test_pairing_attempts_are_limited(api: Any, world: World, tight: None) -> None:
    for _ in range(2):
        assert api.post("/api/v1/tablet/pair/", {"code": "GUESS00000"}, format="json").status_code == 401
    limited = api.post("/api/v1/tablet/pair/", {"code": "GUESS00001"}, format="json")
    assert limited.status_code == 429 and limited["Retry-After"]


def test_a_broken_cache_fails_open(api: Any, world: World, tight: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    class DownCache:
        def get(self, *args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("cache down")

        set = get

    monkeypatch.setattr(SimpleRateThrottle, "cache", DownCache())
    for _ in range(5):
        assert post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/help/", None).status_code == 200


@pytest.mark.redis
def test_rate_limits_with_redis_unreachable_fail_open(api: Any, world: World, tight: None, settings: Any) -> None:
    """django-redis with IGNORE_EXCEPTIONS against a port nobody listens on: requests still succeed."""
    assert os.environ.get("REDIS_URL")
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient", "SOCKET_CONNECT_TIMEOUT": 0.2,
                    "SOCKET_TIMEOUT": 0.2, "IGNORE_EXCEPTIONS": True},
    }}
    settings.DJANGO_REDIS_IGNORE_EXCEPTIONS = True
    for _ in range(5):
        assert post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/help/", None).status_code == 200


@pytest.mark.redis
def test_rate_limits_count_in_redis(api: Any, world: World, tight: None, settings: Any) -> None:
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": os.environ.get("REDIS_URL", ""),
        "KEY_PREFIX": f"test-{key()}",
        "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient", "IGNORE_EXCEPTIONS": True},
    }}
    statuses = [post(api, world, f"/api/v1/tablet/boards/{world.board.pk}/help/", None).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
