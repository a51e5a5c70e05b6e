"""Test settings: fast password hashing, the embedded defaults unless DATABASE_URL/REDIS_URL are set."""

from .base import *  # noqa: F401,F403

DEBUG = False
SECRET_KEY = "test-only-insecure-key"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
