"""Test settings: fast password hashing, the embedded defaults unless DATABASE_URL/REDIS_URL are set."""

import os

from .base import *  # noqa: F401,F403
from .base import CACHES

DEBUG = False
SECRET_KEY = "test-only-insecure-key"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Tasks run in-process in tests even when REDIS_URL is set (CI): nothing would consume them otherwise.
# The real-worker tests (marker celery_worker) switch this off for their duration and start a worker.
CELERY_TASK_ALWAYS_EAGER = os.environ.get("HANGJACK_CELERY_EAGER", "1") == "1"

# Two xdist workers share one Redis: keep their cache keys (rate-limit counters) apart.
if "default" in CACHES and CACHES["default"]["BACKEND"].startswith("django_redis"):
    CACHES["default"]["KEY_PREFIX"] = f"test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"

WHITENOISE_AUTOREFRESH = True

# Mail is never sent from tests (pytest-django swaps in the locmem outbox; this is the fallback).
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Published results (publishing/): each test process has its own folder (tests/conftest.py). The renders run
# only where a test turns them on (tests/publishing/): rendering every event's pages on each of the suite's
# hands would cost minutes, and serving the files would change the answers other tests check (ETags).
PUBLISH_ENABLED = os.environ.get("PUBLISH_ENABLED", "0") == "1"
PUBLISH_SERVE = os.environ.get("PUBLISH_SERVE", "0") == "1"
PUBLISH_RESULTS_SECONDS = 0.0
