"""Tablets: organisers print pairing codes and revoke devices; a tablet trades a code for its token."""

from __future__ import annotations

from typing import Any

import qrcode
import qrcode.image.svg
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import DomainError
from tournaments.models import Device
from tournaments.services.devices import device_pair, device_revoke, pairing_code_create

from ..filters import DeviceFilter
from ..permissions import IsOrganiser, organiser_user
from ..schema import error_responses
from ..serializers.devices import (
    DeviceSerializer,
    PairingCodeSerializer,
    PairingCodesRequestSerializer,
    PairRequestSerializer,
    PairResponseSerializer,
)
from ..throttles import PairingThrottle
from .scoping import TournamentScopedMixin, organiser_object

DEVICE_EXAMPLE = {"id": 5, "tournament": 1, "table": 3, "label": "Table 3 tablet", "token_prefix": "q8Zt1mWx",
                  "paired_at": "2026-02-14T09:02:11-04:00", "last_seen_at": "2026-02-14T11:40:00-04:00",
                  "revoked_at": None, "active": True}
TABLET_PAIR_PATH = "/tablet/pair/"


def qr_svg(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


class PairingCodesView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]
    tournament_action = "pair_tablets"  # a scorekeeper may (tournaments.roles)

    @extend_schema(
        operation_id="pairing_codes_create",
        tags=["devices"],
        summary="Print pairing codes: one single-use code per table, valid 30 minutes (link and QR code)",
        request=PairingCodesRequestSerializer,
        responses={201: PairingCodeSerializer(many=True), **error_responses(409)},
        examples=[
            OpenApiExample("Tables 1 to 2", value={"tables": [1, 2]}, request_only=True),
            OpenApiExample(
                "Codes",
                value=[{"table": 1, "code": "7KQ2M9XD4R", "link": "/tablet/pair/7KQ2M9XD4R",
                        "expires_at": "2026-02-14T09:30:00-04:00", "qr_svg": "<svg ...>"}],
                response_only=True, status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        serializer = PairingCodesRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = organiser_user(request)
        codes = []
        for table in serializer.validated_data["tables"]:
            code, clear = pairing_code_create(tournament=tournament, table=table, user=user)
            link = f"{TABLET_PAIR_PATH}{clear}"
            codes.append({"table": table, "code": clear, "link": link, "expires_at": code.expires_at,
                          "qr_svg": qr_svg(request.build_absolute_uri(link))})
        response = Response(PairingCodeSerializer(codes, many=True).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


@extend_schema_view(
    get=extend_schema(
        operation_id="devices_list", tags=["devices"], summary="The tablets paired for a tournament",
        examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                "results": [DEVICE_EXAMPLE]}, response_only=True)],
    )
)
class DeviceListView(TournamentScopedMixin, generics.ListAPIView):
    serializer_class = DeviceSerializer
    permission_classes = [IsOrganiser]
    filterset_class = DeviceFilter

    def get_queryset(self) -> QuerySet[Device]:
        if getattr(self, "swagger_fake_view", False):
            return Device.objects.none()
        return Device.objects.filter(tournament=self.tournament).order_by("table", "-paired_at")


class DeviceRevokeView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="devices_revoke",
        tags=["devices"],
        summary="Revoke a tablet: its token answers 401 from now on",
        request=None,
        responses={200: DeviceSerializer},
        examples=[OpenApiExample("Revoked", value={**DEVICE_EXAMPLE, "revoked_at": "2026-02-14T12:00:00-04:00",
                                                   "active": False}, response_only=True)],
    )
    def post(self, request: Request, pk: int) -> Response:
        device = organiser_object(request, Device.objects.all(), "tournament_id", action="pair_tablets", pk=pk)
        device = device_revoke(device=device, user=organiser_user(request))
        return Response(DeviceSerializer(device).data)


class TabletPairView(APIView):
    """No authentication here: a tablet whose old token was revoked must still be able to pair again."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes = [PairingThrottle]

    @extend_schema(
        operation_id="tablet_pair",
        tags=["tablet"],
        summary="Pair a tablet: trade a pairing code for a device token (shown once); the table's old "
                "tablet is revoked. Unknown, expired or used code: 401",
        request=PairRequestSerializer,
        responses={201: PairResponseSerializer, **error_responses(401, 409, 429)},
        auth=[],
        examples=[
            OpenApiExample("Pair", value={"code": "7KQ2M9XD4R", "label": "Table 3 tablet"}, request_only=True),
            OpenApiExample(
                "Paired",
                value={"token": "q8Zt1mWx3v-5s0dYp2c7QeRkT9uLbN4hJ6aGfV1wXyE", "device": DEVICE_EXAMPLE,
                       "tournament": {"id": 1, "name": "Carnival Open", "slug": "carnival-open-2026"}},
                response_only=True, status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = PairRequestSerializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
            device, token = device_pair(code=serializer.validated_data["code"],
                                        label=serializer.validated_data["label"])
        except (ValidationError, DomainError):
            PairingThrottle.record_failure(request)  # only failed exchanges count toward the limit
            raise
        response = Response(PairResponseSerializer(PairResponseSerializer.body(device, token)).data, status=201)
        response["Cache-Control"] = "no-store"
        return response
