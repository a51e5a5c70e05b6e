"""Who is calling: scorer tablets (``Authorization: Device <token>``) and organisers (knox tokens, sessions).

A tablet authenticates as a ``TabletUser`` with the ``Device`` as ``request.auth``; organisers are Django
users. Unknown, revoked or malformed credentials answer 401 (docs/decisions.md: wrong credentials 401).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from tournaments.models import Device
from tournaments.services.devices import device_authenticate

DEVICE_PREFIX = "Device"


class TabletUser(AnonymousUser):
    """The user of a paired tablet: authenticated, never staff, never an organiser."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.username = f"tablet-{device.tournament_id}-{device.table}"

    @property
    def is_anonymous(self) -> bool:  # type: ignore[override]
        return False

    @property
    def is_authenticated(self) -> bool:  # type: ignore[override]
        return True

    def __str__(self) -> str:
        return self.username


def _credentials(request: Request, prefix: str) -> str | None:
    """The credential after ``prefix`` in the Authorization header, None when another scheme is used."""
    parts = get_authorization_header(request).split()
    if not parts or parts[0].lower() != prefix.lower().encode():
        return None
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed("Malformed Authorization header: expected one token after the scheme.")
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed("Malformed token.") from None


def device_token(request: Any) -> str | None:
    """The token of ``Authorization: Device <token>``, or None for any other or a malformed header (the
    tablet's fast unchanged read, api/views/tablet.py, leaves those to the authentication below)."""
    try:
        return _credentials(request, DEVICE_PREFIX)
    except exceptions.AuthenticationFailed:
        return None


class DeviceTokenAuthentication(BaseAuthentication):
    """``Authorization: Device <token>``: a scorer tablet paired with a pairing code."""

    def authenticate(self, request: Request) -> tuple[TabletUser, Device] | None:
        token = _credentials(request, DEVICE_PREFIX)
        if token is None:
            return None
        device = device_authenticate(token)
        if device is None:
            raise exceptions.AuthenticationFailed(
                "This tablet is not paired, or its pairing was revoked; pair it again.", code="device_not_paired"
            )
        return TabletUser(device), device

    def authenticate_header(self, request: Request) -> str:
        return DEVICE_PREFIX


class OrganiserTokenAuthentication(KnoxTokenAuthentication):
    """knox's hashed tokens (``Authorization: Token <token>``), refusing undecodable headers with 401."""

    def authenticate(self, request: Request) -> Any:
        token = _credentials(request, self.authenticate_header(request))
        if token is None:
            return None
        if len(token) > 200:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return self.authenticate_credentials(token.encode("ascii"))


# ---- OpenAPI: the three schemes ------------------------------------------------------------------------


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A scorer tablet: `Authorization: Device <token>`, the token from `POST /api/v1/tablet/pair/`.",
        }


class OrganiserTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.OrganiserTokenAuthentication"
    name = "organiserToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "An organiser: `Authorization: Token <token>`, the token from `POST /api/v1/auth/login/`.",
        }
