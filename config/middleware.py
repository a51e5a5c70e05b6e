"""Cross-cutting middleware: 503 with Retry-After when the database is down; security headers."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def database_unavailable_response() -> HttpResponse:
    body = {"error": {"code": "database_unavailable", "message": "The database cannot be reached; try again shortly."}}
    response = HttpResponse(json.dumps(body), status=503, content_type="application/json")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection into 503 + Retry-After instead of a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except (OperationalError, InterfaceError) as exc:
            log.warning("database unavailable: %s", exc.__class__.__name__)
            return database_unavailable_response()

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, (OperationalError, InterfaceError)) or (
            isinstance(exception, DatabaseError) and "connection" in str(exception).lower()
        ):
            log.warning("database unavailable: %s", exception.__class__.__name__)
            return database_unavailable_response()
        return None


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/docs"):
            response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
