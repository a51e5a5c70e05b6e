"""Suite-wide fixtures and the rule for tests that need a real service.

Tests marked ``postgres``, ``redis``, ``celery_worker`` or ``browser`` skip with a one-line reason when
the service is absent; under ``CI=true`` that skip is a failure instead (docs/decisions.md, what runs where).
"""

from __future__ import annotations

import os
import shutil
import socket
from functools import cache
from urllib.parse import urlparse

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1):
            return True
    except OSError:
        return False


@cache
def service_missing(marker: str) -> str | None:
    """Why a service-backed test cannot run here, or None when it can."""
    if marker == "postgres":
        url = os.environ.get("DATABASE_URL", "")
        if not url.startswith(("postgres://", "postgresql://")):
            return "needs PostgreSQL: DATABASE_URL is not a postgres:// URL"
        if not _reachable(url, 5432):
            return f"needs PostgreSQL: cannot reach {urlparse(url).hostname}"
    elif marker in ("redis", "celery_worker"):
        url = os.environ.get("REDIS_URL", "")
        if not url:
            return f"needs Redis{' and a Celery worker' if marker == 'celery_worker' else ''}: REDIS_URL is not set"
        if not _reachable(url, 6379):
            return f"needs Redis: cannot reach {urlparse(url).hostname}"
    elif marker == "browser" and not chromium_path():
        return "needs Chromium: no chromium binary found (apt-get install chromium)"
    return None


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(autouse=True, scope="session")
def _publish_root(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test process (xdist worker) publishes results to its own folder (docs/adr/0013)."""
    from django.conf import settings

    settings.PUBLISH_ROOT = str(tmp_path_factory.mktemp("published"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in ("postgres", "redis", "celery_worker", "browser"):
            if item.get_closest_marker(marker) is None:
                continue
            reason = service_missing(marker)
            if reason is None:
                continue
            if IN_CI:
                item.user_properties.append(("ci_missing_service", reason))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for name, reason in item.user_properties:
        if name == "ci_missing_service":
            pytest.fail(f"CI=true and a required service is missing: {reason}", pytrace=False)
