"""The shared registry for organisers: clubs, players and pairs (CRUD), and the pair CSV import.

Every write is one service call (``tournaments.services``: ``club_create`` ..., ``pairs_import``); who may
change a shared record is ``CanEditRegistryObject``'s question, asked before the service is called."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from tournaments import services
from tournaments.models import Club, Pair, Player, Tournament

from ..filters import ClubFilter, PairFilter, PlayerFilter
from ..parsers import CSVParser, SafeJSONParser
from ..permissions import CanEditRegistryObject, IsOrganiser, organiser_user, require_organiser_of
from ..schema import error_responses
from ..serializers.people import (
    ClubSerializer,
    PairImportQuerySerializer,
    PairImportResultSerializer,
    PairSerializer,
    PlayerSerializer,
)


def _crud_schema(tag: str, example: dict[str, Any]) -> Any:
    """The CRUD operations of one registry resource, documented alike with one example each (the
    refusals are added to every operation by ``api.schema.add_error_responses``)."""
    request_example = {k: v for k, v in example.items() if k not in ("id", "display_name")}
    examples = [
        OpenApiExample(f"{tag} (request)", value=request_example, request_only=True),
        OpenApiExample(f"{tag} (response)", value=example, response_only=True, status_codes=["200", "201"]),
    ]
    page = OpenApiExample(
        f"{tag} page", value={"count": 1, "next": None, "previous": None, "results": [example]}, response_only=True
    )
    return extend_schema_view(
        list=extend_schema(tags=[tag], summary=f"List {tag}", examples=[page]),
        create=extend_schema(tags=[tag], summary=f"Add to {tag}", examples=examples),
        retrieve=extend_schema(tags=[tag], summary=f"One of {tag}", examples=examples[1:]),
        partial_update=extend_schema(tags=[tag], summary=f"Change one of {tag}", examples=examples),
        update=extend_schema(tags=[tag], summary=f"Replace one of {tag}", examples=examples),
        destroy=extend_schema(
            tags=[tag],
            summary=f"Delete one of {tag} (409 while in use)",
            responses={204: None, **error_responses(409)},
            examples=[OpenApiExample("Deleted", value=None, response_only=True, status_codes=["204"])],
        ),
    )


class _RegistryViewSet(viewsets.ModelViewSet):
    """CRUD through the registry services: ``create(user=, **fields)``, ``update(<kind>=, user=, **changes)``
    and ``delete(<kind>=, user=)``."""

    permission_classes = [IsOrganiser, CanEditRegistryObject]
    parser_classes = [SafeJSONParser]
    kind = ""

    def _service(self, verb: str) -> Any:
        return getattr(services, f"{self.kind}_{verb}")

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = self._service("create")(user=organiser_user(self.request), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = self._service("update")(**{self.kind: serializer.instance},
                                                      user=organiser_user(self.request), **serializer.validated_data)

    def perform_destroy(self, instance: Any) -> None:
        self._service("delete")(**{self.kind: instance}, user=organiser_user(self.request))


@_crud_schema("clubs", {"id": 1, "name": "Diego Martin All Fours Club", "short_name": "DMAFC", "town": "Diego Martin"})
class ClubViewSet(_RegistryViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    kind = "club"
    filterset_class = ClubFilter


@_crud_schema("players", {"id": 7, "name": "Kenrick Baptiste", "club": 1})
class PlayerViewSet(_RegistryViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    kind = "player"
    filterset_class = PlayerFilter


@_crud_schema(
    "pairs",
    {"id": 4, "name": "", "display_name": "Kenrick Baptiste & Ria Mohammed", "player_1": 7, "player_2": 8,
     "club": 1, "seed": 2},
)
class PairViewSet(_RegistryViewSet):
    queryset = Pair.objects.select_related("player_1", "player_2")
    serializer_class = PairSerializer
    kind = "pair"
    filterset_class = PairFilter

    @extend_schema(
        operation_id="pairs_import_csv",
        tags=["pairs"],
        summary="Import pairs from CSV (columns player_1, player_2, club, seed); all rows or none",
        parameters=[OpenApiParameter("tournament", int, description="Also enter every pair in this tournament")],
        request={"text/csv": OpenApiTypes.STR},
        responses={201: PairImportResultSerializer},
        examples=[
            OpenApiExample(
                "CSV", value="player_1,player_2,club,seed\nKenrick Baptiste,Ria Mohammed,DMAFC,1\n", request_only=True,
                media_type="text/csv",
            ),
            OpenApiExample(
                "Imported",
                value={"pairs_created": 1, "pairs_existing": 0, "players_created": 2, "clubs_created": 1,
                       "entries_created": 1, "summary": "1 pairs created, 0 already there, 2 players and 1 clubs "
                       "created, 1 entries made"},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[CSVParser], filterset_class=None,
            pagination_class=None)
    def import_csv(self, request: Request) -> Response:
        query = PairImportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        tournament = None
        if "tournament" in query.validated_data:
            tournament = Tournament.objects.filter(pk=query.validated_data["tournament"]).first()
            if tournament is None:
                raise ValidationError({"tournament": "No such tournament."})
            require_organiser_of(request, tournament)
        data = request.data if isinstance(request.data, str) else ""
        result = services.pairs_import(data=data, tournament=tournament, user=organiser_user(request))
        body = {**result.as_dict(), "summary": result.summary()}
        return Response(PairImportResultSerializer(body).data, status=status.HTTP_201_CREATED)
