"""Fixtures shared by the hardening tests (issue 11): tests/api's world, an API client, fresh rate limits."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import World, build_world
from tests.api.conftest import private_cache as _private_cache

private_cache = pytest.fixture(autouse=True)(_private_cache.__wrapped__)  # rate-limit counters per test


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def world(db: Any) -> World:
    """tests/api's world: two organisers with their tournaments, staff, boards and tablets."""
    return build_world()
