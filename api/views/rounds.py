"""Organisers' rounds: start one (create and pair), publish, close, confirm its games in bulk, and list
its boards live."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.models import Board, Game, Round

from ..filters import BoardFilter, RoundFilter
from ..permissions import IsOrganiser, organiser_user
from ..schema import error_responses
from ..serializers.boards import BoardSummarySerializer
from ..serializers.events import (
    ConfirmAllResultSerializer,
    RoundCloseSerializer,
    RoundCreateSerializer,
    RoundSerializer,
)
from .scoping import TournamentScopedMixin, organiser_object

ROUND_EXAMPLE = {"id": 9, "tournament": 1, "number": 3, "status": "published", "match_format": None,
                 "needs_review": False, "feasibility": "guaranteed", "feasibility_note": "", "changes": [],
                 "proposal": None, "published_at": "2026-02-14T13:00:00-04:00", "closed_at": None, "boards": 8}
BOARD_SUMMARY = {"id": 41, "round": 3, "table": 3, "pair_a": {"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed"},
                 "pair_b": {"entry": 15, "name": "Anand Rampersad & Joel Pierre"}, "status": "in_play",
                 "help_called": False, "needs_review": False, "disputed": False, "decided": False, "winner": None,
                 "is_draw": False, "all_confirmed": False, "bullseyes_a": 1, "bullseyes_b": 0,
                 "current_game": {"number": 2, "score": [6, 9], "status": "in_play"},
                 "updated_at": "2026-02-14T13:41:07-04:00", "result_source": "hands", "forfeited": None}


def start_round(tournament: Any, number: int | None, user: Any) -> Round:
    """A new round, paired by the pairing service (a Celery task, or in-process without a broker)."""
    return services.round_start(tournament=tournament, number=number, user=user)


def _round(request: Request, pk: int) -> Round:
    return organiser_object(request, Round.objects.select_related("tournament"), "tournament_id", pk=pk)


@extend_schema_view(
    get=extend_schema(operation_id="rounds_list", tags=["rounds"], summary="A tournament's rounds",
                      examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                              "results": [ROUND_EXAMPLE]}, response_only=True)]),
)
class RoundListView(TournamentScopedMixin, generics.ListAPIView):
    serializer_class = RoundSerializer
    permission_classes = [IsOrganiser]
    filterset_class = RoundFilter

    def get_queryset(self) -> QuerySet[Round]:
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return Round.objects.filter(tournament=self.tournament).order_by("number")

    @extend_schema(
        operation_id="rounds_start",
        tags=["rounds"],
        summary="Start the next round: create it and pair it (drafted: publish it when the pairings suit)",
        request=RoundCreateSerializer,
        responses={201: RoundSerializer, **error_responses(409)},
        examples=[OpenApiExample("Next round", value={}, request_only=True),
                  OpenApiExample("Drafted", value={**ROUND_EXAMPLE, "status": "drafted", "published_at": None},
                                 response_only=True, status_codes=["201"])],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        serializer = RoundCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = start_round(tournament, serializer.validated_data.get("number"), organiser_user(request))
        return Response(RoundSerializer(round_).data, status=status.HTTP_201_CREATED)


class RoundDetailView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_retrieve", tags=["rounds"], summary="One round",
                   responses={200: RoundSerializer},
                   examples=[OpenApiExample("Round", value=ROUND_EXAMPLE, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundSerializer(_round(request, pk)).data)


class RoundPublishView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_publish", tags=["rounds"],
                   summary="Publish a drafted round: tablets and the public see its boards",
                   request=None, responses={200: RoundSerializer, **error_responses(409)},
                   examples=[OpenApiExample("Published", value=ROUND_EXAMPLE, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = services.round_publish(round=_round(request, pk), user=organiser_user(request))
        return Response(RoundSerializer(round_).data)


class RoundCloseView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_close", tags=["rounds"],
                   summary="Close a round (time called): refused while a dispute is open; unfinished games are "
                           "voided or awarded as the tournament says",
                   request=RoundCloseSerializer, responses={200: RoundSerializer, **error_responses(409)},
                   examples=[OpenApiExample("Close", value={"confirm_remaining": True}, request_only=True),
                             OpenApiExample("Closed", value={**ROUND_EXAMPLE, "status": "closed",
                                                             "closed_at": "2026-02-14T15:30:00-04:00"},
                                            response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(request, pk)
        serializer = RoundCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = services.round_close(round=round_, user=organiser_user(request),
                                      confirm_remaining=serializer.validated_data["confirm_remaining"])
        return Response(RoundSerializer(round_).data)


class RoundConfirmAllView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_confirm_all", tags=["rounds"],
                   summary="Bulk confirm: the organiser confirms every finished, unconfirmed, undisputed game",
                   request=None, responses={200: ConfirmAllResultSerializer},
                   examples=[OpenApiExample("Confirmed", value={"confirmed": 5}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        count = services.round_confirm_all(round=_round(request, pk), user=organiser_user(request))
        return Response({"confirmed": count})


@extend_schema_view(
    get=extend_schema(operation_id="rounds_boards_list", tags=["rounds"],
                      summary="The round's boards, live: status, help calls, disputes, current game score",
                      examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                              "results": [BOARD_SUMMARY]}, response_only=True)]),
)
class RoundBoardsView(generics.ListAPIView):
    serializer_class = BoardSummarySerializer
    permission_classes = [IsOrganiser]
    filterset_class = BoardFilter

    def get_queryset(self) -> QuerySet[Board]:
        if getattr(self, "swagger_fake_view", False):
            return Board.objects.none()
        round_ = _round(self.request, self.kwargs["pk"])
        live_games = Prefetch("games", queryset=Game.objects.exclude(status=Game.Status.VOIDED).order_by("number"),
                              to_attr="live_games")
        return (
            Board.objects.filter(round=round_)
            .select_related("round", "pair_a__pair__player_1", "pair_a__pair__player_2",
                            "pair_b__pair__player_1", "pair_b__pair__player_2")
            .prefetch_related(live_games)
            .order_by("table", "id")
        )
