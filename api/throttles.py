"""Rate limits (429 with Retry-After): tablet writes per device; login attempts per client address and
failed logins per account; failed pairing-code exchanges per client address.

The client address is ``config.middleware.client_address``: X-Forwarded-For counts only behind the
configured number of proxies (``NUM_PROXIES``), so a new header value never resets a limit. The counters
live in the cache; with Redis down the cache fails open (django-redis IGNORE_EXCEPTIONS), so a limit never
turns into a 500. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, read at request time so
tests may change them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from config.middleware import FailureCounter, client_address, too_many_login_failures

from .permissions import tablet_device

log = logging.getLogger(__name__)


class _ScopedThrottle(SimpleRateThrottle):
    scope = ""

    def __init__(self) -> None:  # the rate is read per request, not frozen at import
        pass

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Request) -> str:
        """The client address, X-Forwarded-For only behind configured proxies (DRF's own trusts any)."""
        return client_address(request)  # type: ignore[arg-type]

    def allow_request(self, request: Request, view: Any) -> bool:
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except Exception:  # a cache that raises must not refuse or fail the request: fail open
            log.warning("rate limit cache unavailable; allowing %s", self.scope, exc_info=True)
            return True


class TabletWriteThrottle(_ScopedThrottle):
    """Hand submissions and other tablet writes, per paired device."""

    scope = "tablet_write"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        device = tablet_device(request)
        ident = f"device-{device.pk}" if device is not None else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginThrottle(_ScopedThrottle):
    """Organiser logins, per client address."""

    scope = "login"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginAccountThrottle(BaseThrottle):
    """Failed logins per account (``login_account``, 10 per 15 minutes), from any address, through the API
    or the session forms: the count is kept by ``config.middleware`` on Django's ``user_login_failed``;
    this refuses the next attempt, the right password included, until the oldest failure ages out."""

    scope = "login_account"

    def allow_request(self, request: Request, view: Any) -> bool:
        data = request.data
        username = data.get("username") if isinstance(data, Mapping) else None
        self._wait = too_many_login_failures(username) if isinstance(username, str) else None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class PairingThrottle(BaseThrottle):
    """Failed pairing-code exchanges, per client address (a code is short: guessing must be slow). Only
    failures count, so a hall of tablets behind one address pairs freely (docs/decisions.md, issue 11)."""

    scope = "pairing"
    failures = FailureCounter(scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        self._wait = self.failures.retry_after(client_address(request))  # type: ignore[arg-type]
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait

    @classmethod
    def record_failure(cls, request: Request) -> None:
        """A refused exchange (unknown, used or expired code, a malformed request) from this address."""
        cls.failures.record(client_address(request))  # type: ignore[arg-type]
