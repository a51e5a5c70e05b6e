"""Cross-cutting middleware: 503 with Retry-After when the database is down; security headers; a health
check for containers; a rate limit on the session login forms; a log filter that keeps pairing codes
and tokens out of log lines (docs/security.md)."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


#: SQLite's words for a lock another connection holds (SQLITE_BUSY, SQLITE_LOCKED): busy, not down.
SQLITE_LOCKED_MESSAGES = ("database is locked", "database table is locked", "database schema is locked")


def database_error_reason(exc: BaseException) -> tuple[str, str, int]:
    """``(code, message, retry_after)`` for a database error a client should simply retry.

    A deadlock or serialization failure (PostgreSQL rolled one transaction back), or SQLite's lock still
    held by another writer after the timeout, is not an outage: the database is up and the same request
    succeeds when sent again, so it says so (``database_busy``), with a short wait.
    """
    cause = exc.__cause__
    if cause is not None and type(cause).__name__ in {"DeadlockDetected", "SerializationFailure"}:
        return ("database_busy", "The server was busy with a conflicting change; send the same request again.", 1)
    if any(text in str(exc).lower() for text in SQLITE_LOCKED_MESSAGES):
        return ("database_busy", "The server was busy with another change; send the same request again.", 1)
    return ("database_unavailable", "The database cannot be reached; try again shortly.", RETRY_AFTER_SECONDS)


def database_unavailable_response(exc: BaseException | None = None) -> HttpResponse:
    code, message, retry_after = (
        database_error_reason(exc) if exc is not None
        else ("database_unavailable", "The database cannot be reached; try again shortly.", RETRY_AFTER_SECONDS)
    )
    body = {"error": {"code": code, "message": message}}
    response = HttpResponse(json.dumps(body), status=503, content_type="application/json")
    response["Retry-After"] = str(retry_after)
    return response


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection into 503 + Retry-After instead of a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except (OperationalError, InterfaceError) as exc:
            log.warning("database error: %s", database_error_reason(exc)[0])
            return database_unavailable_response(exc)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, (OperationalError, InterfaceError)) or (
            isinstance(exception, DatabaseError) and "connection" in str(exception).lower()
        ):
            log.warning("database error: %s", database_error_reason(exception)[0])
            return database_unavailable_response(exception)
        return None


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every response.

    Django's SecurityMiddleware and XFrameOptionsMiddleware add X-Content-Type-Options, Referrer-Policy,
    Cross-Origin-Opener-Policy, X-Frame-Options and (in production) HSTS. The API's browsable docs under
    ``/api/docs`` (Swagger UI from drf-spectacular-sidecar) use an inline script and are left without a CSP.
    """

    PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/docs"):
            response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", self.PERMISSIONS_POLICY)
        return response


class HealthCheckMiddleware:
    """``GET /healthz``: 200 when the database answers, 503 when it does not.

    Answered before host validation and the HTTPS redirect, so a container's own health probe on
    127.0.0.1 works behind the proxy; it reveals nothing but ``ok`` or ``unavailable``. Placed first in
    ``MIDDLEWARE`` by the production settings.
    """

    PATH = "/healthz"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != self.PATH or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except (OperationalError, InterfaceError):
            response = database_unavailable_response()
        else:
            response = HttpResponse(json.dumps({"status": "ok"}), content_type="application/json")
        response["Cache-Control"] = "no-store"
        return response


def client_address(request: HttpRequest) -> str:
    """The client's address, trusting ``REST_FRAMEWORK["NUM_PROXIES"]`` proxies (as DRF's throttles do)."""
    num_proxies = getattr(settings, "REST_FRAMEWORK", {}).get("NUM_PROXIES")
    remote = str(request.META.get("REMOTE_ADDR", ""))
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if num_proxies is not None and forwarded:
        if num_proxies == 0:
            return remote
        hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
        if hops:
            return hops[-min(num_proxies, len(hops))]
    return remote


class LoginRateLimitMiddleware:
    """At most the ``login`` rate (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, e.g. ``10/min``) of login
    form posts per client address to the paths in ``LOGIN_RATE_LIMIT_PATHS``; then 429 + Retry-After.

    The API's own login is throttled by DRF with the same rate; this covers the session forms (the admin
    and the organiser console). Counters live in the cache and fail open when it is down.
    """

    #: the sign-in forms, and the account forms that take a password or send mail (web/urls.py)
    DEFAULT_PATHS = ("/admin/login/", "/accounts/login/", "/accounts/signup/", "/accounts/invite/",
                     "/accounts/password-link/", "/accounts/password/reset/")
    PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def _rate(self) -> tuple[int, int] | None:
        rates = getattr(settings, "REST_FRAMEWORK", {}).get("DEFAULT_THROTTLE_RATES", {})
        rate = rates.get("login")
        if not rate:
            return None
        count, period = rate.split("/")
        return int(count), self.PERIODS[period[0]]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        paths = getattr(settings, "LOGIN_RATE_LIMIT_PATHS", self.DEFAULT_PATHS)
        rate = self._rate()
        if request.method != "POST" or request.path not in paths or rate is None:
            return self.get_response(request)
        limit, seconds = rate
        window = int(time.time() // seconds)
        key = f"login-rate:{client_address(request)}:{window}"
        try:
            cache.add(key, 0, timeout=seconds + 1)
            attempts = cache.incr(key)
        except Exception:  # the cache is down or the key vanished: fail open, never a 500
            log.warning("login rate limit cache unavailable; allowing the request")
            return self.get_response(request)
        if attempts > limit:
            log.warning("login rate limit reached for a client on %s", request.path)
            response = HttpResponse(
                "Too many login attempts. Wait a minute and try again.", status=429, content_type="text/plain"
            )
            response["Retry-After"] = str(seconds - int(time.time()) % seconds)
            return response
        return self.get_response(request)


class RedactSecretsFilter(logging.Filter):
    """Take tablet pairing codes (``/tablet/pair/<code>``), the tokens of invitation, password and reset
    links (``/accounts/invite/<token>/``, ``/accounts/password-link/<token>/``,
    ``/accounts/password/reset/<uid>/<token>/``) and Authorization values out of log records.

    Django logs the path of a request that failed ("Internal Server Error: /tablet/pair/..."); with this
    filter on the handler the line reads ``/tablet/pair/…``. Installed by the production settings.
    """

    PATTERNS = (
        (re.compile(r"(/tablet/pair/|/accounts/invite/|/accounts/password-link/)[^/?\s\"']+"), r"\1…"),
        (re.compile(r"(/accounts/password/reset/[^/?\s\"']+/)[^/?\s\"']+"), r"\1…"),
        (re.compile(r"(?i)((?:Token|Bearer|Device)\s+)[A-Za-z0-9._~+/=-]{8,}"), r"\1…"),
    )

    @classmethod
    def redact(cls, text: str) -> str:
        for pattern, replacement in cls.PATTERNS:
            text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True
