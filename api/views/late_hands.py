"""A tablet's late hands: entries the server refused for good (token revoked, round closed, event finished)
go to the organiser's inbox instead of being lost (tournaments/services/late_hands.py).

``POST /api/v1/tablet/late-hands/`` with ``Authorization: Device <token>``: the token may be revoked (that
is the point), so this view authenticates by itself, not with ``DeviceTokenAuthentication`` (which refuses
a revoked token). Rate-limited per device like every tablet write; idempotent per entry key.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.services.devices import digest
from tournaments.services.late_hands import DeviceUnknown, late_hand_submit

from ..schema import error_responses
from ..serializers.late_hands import LateHandsRequestSerializer, LateHandsResponseSerializer
from ..throttles import TabletWriteThrottle

EXAMPLE = {"hands": [{"key": "6f1c2b1e-8d1d-4c55-9a53-3a1d8c3b7e10", "board": 41,
                      "payload": {"kind": "hand", "game": 2, "number": 4,
                                  "hand": {"dealer": 1, "kicks": ["9H"], "beg": "stand",
                                           "high": {"side": 0}, "low": {"side": 0}, "jack": None, "game": [40, 20]},
                                  "label": "Game 2, hand 4"},
                      "reason": "stale_board: Round 3 is closed: this board is no longer current."}]}


def device_token(request: Request) -> str:
    """The token of ``Authorization: Device <token>``, or "" (answered 401 by the service)."""
    parts = get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != b"device":
        return ""
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError:
        return ""


class LateHandThrottle(TabletWriteThrottle):
    """The tablet-write limit, per token (the device may be revoked, so it is not ``request.auth``)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = device_token(request)
        ident = f"late-{digest(token)[:24]}" if token else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LateHandsView(APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes = [LateHandThrottle]

    @extend_schema(
        operation_id="tablet_late_hands_submit",
        tags=["tablet"],
        summary="Send entries the server refused for good (token revoked, round closed, event finished) to the "
                "organiser's inbox of late hands; a revoked token is accepted for two days; once per key",
        request=LateHandsRequestSerializer,
        responses={201: LateHandsResponseSerializer, **error_responses(400, 401, 409, 429)},
        examples=[
            OpenApiExample("Late hand", value=EXAMPLE, request_only=True),
            OpenApiExample("Received", value={"received": [EXAMPLE["hands"][0]["key"]], "already_on_server": [],
                                              "table": 3},
                           response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request) -> Response:
        token = device_token(request)
        if not token:
            raise DeviceUnknown("device_unknown", "Send the tablet's token: `Authorization: Device <token>`.")
        serializer = LateHandsRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        device, rows, already = late_hand_submit(token=token, entries=serializer.validated_data["hands"])
        response = Response({"received": [row.key for row in rows] + already, "already_on_server": already,
                             "table": device.table}, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response
