"""Organisers on one board: its state and every hand version, answering a help call, confirming a game
(which also rules a dispute), and correcting or voiding a hand with ``If-Match: <hand version>``."""

from __future__ import annotations

import re

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Board, Game, GameConfirmation, Hand
from tournaments.selectors import board_state
from tournaments.services import PreconditionFailed, board_help_clear, game_confirm, hand_correct, hand_void

from ..filters import HandFilter
from ..permissions import IsOrganiser, organiser_user
from ..schema import IF_MATCH, error_responses
from ..serializers.boards import (
    BoardStateSerializer,
    ConfirmationSerializer,
    HandCorrectionSerializer,
    HandSerializer,
    HandVoidSerializer,
)
from .scoping import organiser_object
from .tablet import BOARD_STATE, HAND_RESPONSE, TALLY_HAND

_ETAG_VERSION = re.compile(r'^(?:W/)?"?(\d{1,9})"?$')


def hand_etag(hand: Hand) -> str:
    return f'"{hand.version}"'


def if_match_version(request: Request, hand: Hand) -> int | None:
    """The version named by ``If-Match`` (``"3"``, ``3`` or ``*``); None when the header is absent.

    A value that names no version at all can never match: 412 with the current version.
    """
    header = request.headers.get("If-Match")
    if header is None:
        return None
    header = header.strip()
    if header == "*":
        return hand.version
    match = _ETAG_VERSION.match(header)
    if match is None:
        raise PreconditionFailed(
            "stale_version", f"If-Match names no version of hand {hand.number}; it is at version {hand.version}.",
            current={"hand": hand.pk, "version": hand.version},
        )
    return int(match.group(1))


def _board(request: Request, pk: int) -> Board:
    return organiser_object(request, Board.objects.select_related("round"), "round.tournament_id", pk=pk)


def _hand(request: Request, pk: int) -> Hand:
    return organiser_object(request, Hand.objects.select_related("game__board__round"),
                            "game.board.round.tournament_id", pk=pk)


def _hand_response(hand: Hand, status_code: int = 200) -> Response:
    hand = Hand.objects.select_related("game").get(pk=hand.pk)
    response = Response(HandSerializer(hand).data, status=status_code)
    response["ETag"] = hand_etag(hand)
    return response


class BoardDetailView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="boards_retrieve", tags=["boards"],
                   summary="A board's state (as its tablet sees it), for the organiser",
                   responses={200: BoardStateSerializer},
                   examples=[OpenApiExample("Board", value=BOARD_STATE, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        return Response(board_state(_board(request, pk)))


@extend_schema_view(
    get=extend_schema(operation_id="boards_hands_list", tags=["boards"],
                      summary="Every hand of a board, every version (active, voided, superseded): the audit view",
                      examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                              "results": [HAND_RESPONSE]}, response_only=True)]),
)
class BoardHandsView(generics.ListAPIView):
    serializer_class = HandSerializer
    permission_classes = [IsOrganiser]
    filterset_class = HandFilter

    def get_queryset(self) -> QuerySet[Hand]:
        if getattr(self, "swagger_fake_view", False):
            return Hand.objects.none()
        board = _board(self.request, self.kwargs["pk"])
        return Hand.objects.filter(game__board=board).select_related("game").order_by("game__number", "number", "version")


class BoardHelpClearView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="boards_help_clear", tags=["boards"], summary="Answer the table's call for help",
                   request=None, responses={200: BoardStateSerializer},
                   examples=[OpenApiExample("Board", value=BOARD_STATE, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        board = board_help_clear(board=_board(request, pk), user=organiser_user(request))
        return Response(board_state(board))


class GameConfirmView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="games_confirm",
        tags=["boards"],
        summary="The organiser confirms a finished game (201; 200 when the organiser already confirmed it); "
                "on a disputed game this is the ruling that the result stands (otherwise correct or void hands "
                "first)",
        request=None,
        responses={201: ConfirmationSerializer, 200: ConfirmationSerializer, **error_responses(409)},
        examples=[OpenApiExample("Confirmed", value={"game": 1, "party": "organiser", "agrees": True, "reason": "",
                                                     "game_confirmed": True,
                                                     "created_at": "2026-02-14T10:45:00-04:00"},
                                 response_only=True, status_codes=["201", "200"])],
    )
    def post(self, request: Request, pk: int) -> Response:
        """201 with the organiser's new confirmation; 200 with the one already there (already confirmed)."""
        game = organiser_object(request, Game.objects.select_related("board__round"), "board.round.tournament_id",
                                pk=pk)
        before = GameConfirmation.objects.filter(game=game, party=GameConfirmation.Party.ORGANISER,
                                                 cleared=False).values_list("pk", flat=True).first()
        row = game_confirm(game=game, party="organiser", agrees=True, user=organiser_user(request))
        row.game.refresh_from_db(fields=["confirmed"])
        created = before is None or row.pk != before
        return Response(ConfirmationSerializer(row).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class HandDetailView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="hands_retrieve", tags=["boards"],
                   summary="One hand version; its ETag is the version that a correction names in If-Match",
                   responses={200: HandSerializer},
                   examples=[OpenApiExample("Hand", value=HAND_RESPONSE, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        return _hand_response(_hand(request, pk))

    @extend_schema(
        operation_id="hands_correct",
        tags=["boards"],
        summary="Correct a hand: a new version with the same dealer; later hands are rescored as recorded "
                "(409 when one no longer fits). If-Match: the version corrected (missing 428, stale 412)",
        parameters=[IF_MATCH],
        request=HandCorrectionSerializer,
        responses={200: HandSerializer, **error_responses(409, 412, 428)},
        examples=[
            OpenApiExample("Correction", value={"hand": {**TALLY_HAND, "high": {"side": 0, "card": "AS"}}},
                           request_only=True),
            OpenApiExample("New version", value={**HAND_RESPONSE, "version": 2}, response_only=True),
        ],
    )
    def put(self, request: Request, pk: int) -> Response:
        hand = _hand(request, pk)
        serializer = HandCorrectionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        new = hand_correct(hand=hand, record=serializer.validated_data["hand"],
                           expected_version=if_match_version(request, hand), user=organiser_user(request))
        return _hand_response(new)


class HandVoidView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="hands_void",
        tags=["boards"],
        summary="Void a hand (kept in the audit trail); later hands are rescored. If-Match optional (stale 412)",
        parameters=[IF_MATCH],
        request=HandVoidSerializer,
        responses={200: HandSerializer, **error_responses(409, 412)},
        examples=[OpenApiExample("Void with later hands", value={"with_later": True}, request_only=True),
                  OpenApiExample("Voided", value={**HAND_RESPONSE, "status": "voided"}, response_only=True)],
    )
    def post(self, request: Request, pk: int) -> Response:
        hand = _hand(request, pk)
        serializer = HandVoidSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        voided = hand_void(hand=hand, user=organiser_user(request), expected_version=if_match_version(request, hand),
                           with_later=serializer.validated_data["with_later"])
        return _hand_response(voided)

