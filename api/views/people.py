"""The registry for organisers: clubs, players and pairs (CRUD), copies of other organisations' pairs, the
pair CSV import, and the caller's organisations.

Every write is one service call (``tournaments.services``: ``club_create`` ..., ``pair_copy``,
``pairs_import``, ``organisation_create``). Records belong to organisations (docs/adr/0010): lists and reads
show the caller's organisations' records (``selectors.registry.registry_visible``; staff: all), and only
their members change one (``CanEditRegistryObject``, then the service: 403 ``not_owner``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from tournaments import services
from tournaments.models import Club, Organisation, Pair, Player, Tournament
from tournaments.selectors.registry import copyable_pairs, registry_visible
from tournaments.services.organisations import organisation_create, organisation_personal, organisation_update

from ..filters import ClubFilter, PairFilter, PlayerFilter
from ..parsers import CSVParser, SafeJSONParser
from ..permissions import CanEditRegistryObject, IsOrganiser, IsSignedIn, organiser_user, require_organiser_of
from ..schema import error_responses
from ..serializers.people import (
    ClubSerializer,
    CopyablePairSerializer,
    CopyableQuerySerializer,
    OrganisationSerializer,
    PairCopySerializer,
    PairImportQuerySerializer,
    PairImportResultSerializer,
    PairSerializer,
    PlayerSerializer,
)


def _crud_schema(tag: str, example: dict[str, Any], serializer: Any = None) -> Any:
    """The CRUD operations of one registry resource, documented alike with one example each (the
    refusals are added to every operation by ``api.schema.add_error_responses``); with ``serializer``, a
    change may also answer 409 (a pair that has played keeps its players and club: ``pair_has_boards``)."""
    changed: dict[str, Any] = {"responses": {200: serializer, **error_responses(409)}} if serializer else {}
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
        partial_update=extend_schema(tags=[tag], summary=f"Change one of {tag}", examples=examples, **changed),
        update=extend_schema(tags=[tag], summary=f"Replace one of {tag}", examples=examples, **changed),
        destroy=extend_schema(
            tags=[tag],
            summary=f"Delete one of {tag} (409 while in use)",
            responses={204: None, **error_responses(409)},
            examples=[OpenApiExample("Deleted", value=None, response_only=True, status_codes=["204"])],
        ),
    )


PAIR_EXAMPLE = {"id": 4, "name": "", "display_name": "Kenrick Baptiste & Ria Mohammed", "player_1": 7, "player_2": 8,
                "club": 1, "seed": 2, "owner": 3}
ORGANISATION_EXAMPLE = {"id": 5, "name": "Arima All Fours League", "slug": "arima-all-fours-league",
                        "kind": "shared", "role": "owner", "created_at": "2026-01-10T18:00:00-04:00"}


class _RegistryViewSet(viewsets.ModelViewSet):
    """CRUD through the registry services: ``create(user=, **fields)``, ``update(<kind>=, user=, **changes)``
    and ``delete(<kind>=, user=)``."""

    permission_classes = [IsOrganiser, CanEditRegistryObject]
    parser_classes = [SafeJSONParser]
    kind = ""

    def get_queryset(self) -> QuerySet[Any]:
        queryset = super().get_queryset()
        if getattr(self, "swagger_fake_view", False):
            return queryset.none()
        if self.action in ("list", "retrieve"):
            # Reads: the caller's organisations' records (404 for another's). Writes find any record, so
            # that another organisation's is refused with 403 not_owner rather than hidden.
            return registry_visible(queryset, organiser_user(self.request))
        return queryset

    def _service(self, verb: str) -> Any:
        return getattr(services, f"{self.kind}_{verb}")

    def perform_create(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = self._service("create")(user=organiser_user(self.request), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Any]) -> None:
        serializer.instance = self._service("update")(**{self.kind: serializer.instance},
                                                      user=organiser_user(self.request), **serializer.validated_data)

    def perform_destroy(self, instance: Any) -> None:
        self._service("delete")(**{self.kind: instance}, user=organiser_user(self.request))


@_crud_schema("clubs", {"id": 1, "name": "Diego Martin All Fours Club", "short_name": "DMAFC", "town": "Diego Martin",
                        "owner": 3})
class ClubViewSet(_RegistryViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    kind = "club"
    filterset_class = ClubFilter


@_crud_schema("players", {"id": 7, "name": "Kenrick Baptiste", "club": 1, "owner": 3})
class PlayerViewSet(_RegistryViewSet):
    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
    kind = "player"
    filterset_class = PlayerFilter


@_crud_schema(
    "pairs",
    PAIR_EXAMPLE,
    PairSerializer,
)
class PairViewSet(_RegistryViewSet):
    queryset = Pair.objects.select_related("player_1", "player_2")
    serializer_class = PairSerializer
    kind = "pair"
    filterset_class = PairFilter

    @extend_schema(
        operation_id="pairs_copy", tags=["pairs"],
        summary="Copy another organisation's pair into yours (its players and its club by name): 201 with the "
                "copy, 200 with the copy already made; 404 for a pair you may not see (copyable: entered in a "
                "published tournament or one you hold a role on)",
        request=PairCopySerializer, responses={200: PairSerializer, 201: PairSerializer},
        examples=[
            OpenApiExample("Into my personal organisation", value={}, request_only=True),
            OpenApiExample("Into a shared organisation of mine", value={"owner": 5}, request_only=True),
            OpenApiExample("The copy", value={**PAIR_EXAMPLE, "id": 41, "player_1": 90, "player_2": 91, "club": 12,
                                              "owner": 5}, response_only=True, status_codes=["200", "201"]),
        ],
    )
    @action(detail=True, methods=["post"], url_path="copy", permission_classes=[IsOrganiser], filterset_class=None)
    def copy(self, request: Request, pk: str | None = None) -> Response:
        body = PairCopySerializer(data=request.data if isinstance(request.data, dict) else {})
        body.is_valid(raise_exception=True)
        pair = self.get_object()
        copy, created = services.pair_copy(pair=pair, user=organiser_user(request), **body.validated_data)
        return Response(PairSerializer(copy).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        operation_id="pairs_copyable", tags=["pairs"],
        summary="The pairs of a published tournament (or one you hold a role on) that you may copy",
        parameters=[CopyableQuerySerializer], responses={200: CopyablePairSerializer(many=True)},
        examples=[OpenApiExample("Copyable pairs", response_only=True, value={
            "count": 1, "next": None, "previous": None, "results": [
                {"id": 4, "display_name": "Kenrick Baptiste & Ria Mohammed",
                 "players": ["Kenrick Baptiste", "Ria Mohammed"], "club": "Diego Martin All Fours Club",
                 "owner": "Kenrick's events"}]})],
    )
    @action(detail=False, methods=["get"], url_path="copyable", permission_classes=[IsOrganiser],
            filterset_class=None)
    def copyable(self, request: Request) -> Response:
        query = CopyableQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        pairs = (copyable_pairs(organiser_user(request), tournament=query.validated_data["tournament"])
                 .select_related("player_1", "player_2", "club", "owner").order_by("id"))
        page = self.paginate_queryset(pairs)
        return self.get_paginated_response(CopyablePairSerializer(page, many=True).data)

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


_ORG_REQUEST = OpenApiExample("Organisation (request)", value={"name": "Arima All Fours League"}, request_only=True)
_ORG_ANSWER = OpenApiExample("Organisation", value=ORGANISATION_EXAMPLE, response_only=True,
                             status_codes=["200", "201"])


@extend_schema_view(
    list=extend_schema(tags=["organisations"], summary="Your organisations: your personal one and the shared ones "
                       "you are a member of (staff: all)",
                       examples=[OpenApiExample("Organisations", response_only=True, value={
                           "count": 1, "next": None, "previous": None, "results": [ORGANISATION_EXAMPLE]})]),
    create=extend_schema(tags=["organisations"], summary="Make a shared organisation; you become its owner",
                         examples=[_ORG_REQUEST, _ORG_ANSWER]),
    retrieve=extend_schema(tags=["organisations"], summary="One of your organisations", examples=[_ORG_ANSWER]),
    update=extend_schema(tags=["organisations"], summary="Rename an organisation (its owners)",
                         examples=[_ORG_REQUEST, _ORG_ANSWER]),
    partial_update=extend_schema(tags=["organisations"], summary="Rename an organisation (its owners)",
                                 examples=[_ORG_REQUEST, _ORG_ANSWER]),
)
class OrganisationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                          mixins.UpdateModelMixin, viewsets.GenericViewSet):  # type: ignore[type-arg]
    """Who owns the registry (docs/adr/0010-owners-and-organisations.md)."""

    serializer_class = OrganisationSerializer
    permission_classes = [IsSignedIn]
    parser_classes = [SafeJSONParser]

    def get_queryset(self) -> QuerySet[Organisation]:
        user = organiser_user(self.request)
        if user is None or getattr(self, "swagger_fake_view", False):
            return Organisation.objects.none()
        if user.is_staff:
            return Organisation.objects.all()
        return Organisation.objects.of_user(user)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        organisation_personal(user=organiser_user(request))  # every user has one, made when first needed
        return super().list(request, *args, **kwargs)

    def perform_create(self, serializer: BaseSerializer[Organisation]) -> None:
        serializer.instance = organisation_create(user=organiser_user(self.request), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Organisation]) -> None:
        serializer.instance = organisation_update(organisation=serializer.instance, user=organiser_user(self.request),
                                                  **serializer.validated_data)
