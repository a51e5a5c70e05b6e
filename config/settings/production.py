"""Production settings (Docker, behind the Caddy HTTPS front): refuses to start without DJANGO_SECRET_KEY.

HTTPS only (redirect, HSTS, secure cookies), the proxy's X-Forwarded-Proto trusted, one proxy hop
trusted for client addresses (rate limits), a /healthz probe for containers and a login rate limit on
the session forms. ``manage.py check --deploy`` is clean with these (tests/test_infra_security.py).
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F401,F403
from .base import CACHES, LOGGING, MIDDLEWARE, REST_FRAMEWORK, SECRET_KEY, env_bool

if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production (DEBUG is off)")
if SECRET_KEY.startswith(("<", "change-me", "dev-only", "test-only", "django-insecure")) or len(SECRET_KEY) < 32:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY looks like a placeholder or is shorter than 32 characters: generate one with "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

DEBUG = False

# Rate limits (logins, pairing, tablet writes) count in the cache: with one per worker, each worker counts
# alone (19 of 25 logins got through 2 workers). Production refuses to start without a shared cache. This
# checks the configuration only, never pings Redis: Redis going down at run time still fails open.
if not str(CACHES["default"].get("BACKEND", "")).endswith("RedisCache"):
    raise ImproperlyConfigured(
        "REDIS_URL must be set in production: rate limits count in a cache shared by every worker "
        "(without one each worker counts alone)"
    )

# HTTPS: Caddy terminates TLS and sets X-Forwarded-Proto; Django redirects plain HTTP and sends HSTS.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# One trusted proxy (Caddy) in front: client addresses come from the last X-Forwarded-For hop.
REST_FRAMEWORK = {**REST_FRAMEWORK, "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "1"))}

# /healthz before everything (no host check, no redirect); the login rate limit after SecurityMiddleware.
MIDDLEWARE = [m for m in MIDDLEWARE if m != "config.middleware.HealthCheckMiddleware"]
MIDDLEWARE.insert(0, "config.middleware.HealthCheckMiddleware")
if "config.middleware.LoginRateLimitMiddleware" not in MIDDLEWARE:
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "config.middleware.LoginRateLimitMiddleware",
    )

# Logs go to the console (the container's stdout), with pairing codes and tokens redacted; no error mails.
ADMINS: list[tuple[str, str]] = []
LOGGING = {
    **LOGGING,
    "filters": {**LOGGING.get("filters", {}), "redact_secrets": {"()": "config.middleware.RedactSecretsFilter"}},
    "handlers": {
        name: {**handler, "filters": [*handler.get("filters", []), "redact_secrets"]}
        for name, handler in LOGGING["handlers"].items()
    },
}
