"""Cross-cutting middleware: 503 with Retry-After when the database is down; security headers; a health
check for containers; a rate limit on the session login forms and the per-account count of failed logins
(shared with the API's login); a log filter that keeps pairing codes and tokens out of log lines
(docs/security.md)."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
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


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"10/min"`` -> (10, 60), ``"10/15m"`` -> (10, 900): a count per a number of seconds, minutes, hours
    or days (DRF's own throttles read the unit's first letter only, so they keep to ``N/unit``)."""
    if not rate:
        return None
    count, _, period = rate.partition("/")
    match = re.fullmatch(r"\s*(\d*)\s*([smhd])[a-z]*\s*", period)
    if not count.strip().isdigit() or match is None:
        raise ImproperlyConfigured(f"A rate is written like 10/min or 10/15m, not {rate!r}.")
    return int(count), int(match.group(1) or 1) * PERIODS[match.group(2)]


def throttle_rate(scope: str) -> tuple[int, int] | None:
    """The rate of ``scope`` in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, read per request."""
    rates = getattr(settings, "REST_FRAMEWORK", {}).get("DEFAULT_THROTTLE_RATES", {})
    return parse_rate(rates.get(scope))


class FailureCounter:
    """Failures per identity within the ``scope``'s rate (a sliding window), kept in the cache as a list of
    times like DRF's throttle history. Only failures are recorded, so what succeeds never spends the
    budget: used for failed logins per account and failed tablet pairings per address (issue 11 item 7).
    A cache that fails (Redis down) fails open: nothing is refused and nothing breaks."""

    def __init__(self, scope: str) -> None:
        self.scope = scope

    def _key(self, ident: str) -> str:
        return f"failures:{self.scope}:{ident}"

    def _history(self, ident: str, seconds: int, now: float) -> list[float]:
        stored = cache.get(self._key(ident)) or []
        return [t for t in stored if isinstance(t, (int, float)) and t > now - seconds]

    def retry_after(self, ident: str) -> int | None:
        """Seconds until ``ident`` may try again when its failures are used up; None when it may now."""
        rate = throttle_rate(self.scope)
        if rate is None:
            return None
        limit, seconds = rate
        now = time.time()
        try:
            history = self._history(ident, seconds, now)
        except Exception:  # the cache is down: fail open, never a 500
            log.warning("%s failure counter unavailable; allowing the request", self.scope)
            return None
        if len(history) < limit:
            return None
        return max(1, math.ceil(history[-limit] + seconds - now))

    def record(self, ident: str) -> None:
        rate = throttle_rate(self.scope)
        if rate is None:
            return
        limit, seconds = rate
        now = time.time()
        try:
            history = self._history(ident, seconds, now)
            history.append(now)
            cache.set(self._key(ident), history[-limit:], timeout=seconds)
        except Exception:  # the cache is down: the failure goes uncounted
            log.warning("%s failure counter unavailable; a failure was not counted", self.scope)


def account_ident(username: str) -> str:
    """One account however its name is typed (case, blanks), as a digest: no name in a cache key."""
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


#: Failed logins per account, from any address, through the API or the session forms (``login_account``).
LOGIN_FAILURES = FailureCounter("login_account")


def _count_failed_login(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    """``django.contrib.auth.authenticate`` failed (the API's login, the admin's and the console's forms)."""
    username = (credentials or {}).get("username")
    if username:
        LOGIN_FAILURES.record(account_ident(str(username)))


user_login_failed.connect(_count_failed_login, dispatch_uid="hangjack.login_failures")


def too_many_login_failures(username: str) -> int | None:
    """Seconds this account must wait before the next login attempt (None: it may try now)."""
    return LOGIN_FAILURES.retry_after(account_ident(username)) if username else None


class LoginRateLimitMiddleware:
    """At most the ``login`` rate (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, e.g. ``10/min``) of login
    form posts per client address to the paths in ``LOGIN_RATE_LIMIT_PATHS``; then 429 + Retry-After.
    A form naming an account with the ``login_account`` rate of failed logins used up (``10/15m``: from any
    address, through the API or a form) is refused the same way until the oldest failure ages out.

    The API's own login is throttled by DRF with the same rates; this covers the session forms (the admin
    and the organiser console). Counters live in the cache and fail open when it is down.
    """

    #: the sign-in forms, and the account forms that take a password or send mail (web/urls.py)
    DEFAULT_PATHS = ("/admin/login/", "/accounts/login/", "/accounts/signup/", "/accounts/invite/",
                     "/accounts/password-link/", "/accounts/password/reset/")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        paths = getattr(settings, "LOGIN_RATE_LIMIT_PATHS", self.DEFAULT_PATHS)
        if request.method != "POST" or request.path not in paths:
            return self.get_response(request)
        wait = too_many_login_failures(str(request.POST.get("username", "")))
        if wait is not None:
            log.warning("failed logins of one account used up on %s", request.path)
            response = HttpResponse(
                "Too many failed sign-ins for this account. Wait a few minutes and try again.",
                status=429, content_type="text/plain",
            )
            response["Retry-After"] = str(wait)
            return response
        rate = throttle_rate("login")
        if rate is None:
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


class OneLineFilter(logging.Filter):
    """A record as one warning line, its message only: no traceback. On the ``django.security.DisallowedHost``
    logger (config/settings/base.py), where every request with a foreign Host used to log a full traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = " ".join(record.getMessage().split()), ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True


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
