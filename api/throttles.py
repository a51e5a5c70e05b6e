"""Rate limits: tablet writes per device, logins and pairing per client address (429 with Retry-After).

The counters live in the cache; with Redis down the cache fails open (django-redis IGNORE_EXCEPTIONS),
so a limit never turns into a 500. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, read at
request time so tests may change them.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from .permissions import tablet_device

log = logging.getLogger(__name__)


class _ScopedThrottle(SimpleRateThrottle):
    scope = ""

    def __init__(self) -> None:  # the rate is read per request, not frozen at import
        pass

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

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


class PairingThrottle(_ScopedThrottle):
    """Pairing-code exchanges, per client address (a code is short: guessing must be slow)."""

    scope = "pairing"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
