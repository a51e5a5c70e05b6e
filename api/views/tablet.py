"""A scorer tablet's operations: its current board, seating, preview, hands, undo, confirmations, help.

Every request authenticates with ``Authorization: Device <token>``. A tablet reaches only the board at its
own table in its tournament's current round: another table's or tournament's board is 403, a board of a
round that moved on is 409 with the current board's state. Every write needs an ``Idempotency-Key``
(400 when missing) and names the board (in the path), the game and the hand it means.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Board, Device, Game, Hand
from tournaments.selectors import board_for_table, board_state
from tournaments.selectors.tablet_tag import tablet_board_tag
from tournaments.services import (
    Conflict,
    board_call_help,
    board_seat,
    game_confirm,
    hand_preview,
    hand_submit,
    hand_undo,
)
from tournaments.services.devices import LAST_SEEN_RESOLUTION
from tournaments.services.devices import digest as device_digest

from ..auth import device_token
from ..etag import board_etag, board_tag, etag_matches
from ..filters import HandFilter
from ..idempotency import IdempotentWriteMixin, idempotent_response
from ..permissions import IsTablet, tablet_device
from ..schema import IDEMPOTENCY_KEY, error_responses
from ..serializers.boards import (
    BoardStateSerializer,
    ConfirmationSerializer,
    HandPreviewSerializer,
    HandSerializer,
    HandSubmitSerializer,
    PreviewSerializer,
    SeatingSerializer,
    TabletConfirmationSerializer,
    UndoSerializer,
)
from ..throttles import TabletWriteThrottle

TALLY_HAND = {"dealer": 0, "kicks": ["AD", "6S"], "beg": "run", "high": {"side": 1, "card": "AS"},
              "low": {"side": 0, "card": "2S"}, "jack": {"held_by": 0, "won_by": 0}, "game": [30, 29]}
HAND_RESPONSE = {
    "id": 310, "board": 41, "game": 1, "number": 5, "version": 1, "status": "active", "form": "tally", "dealer": 0,
    "record": TALLY_HAND, "trump": "S",
    "events": [{"kind": "kick", "side": 0, "points": 1, "card": "AD"}, {"kind": "kick", "side": 0, "points": 2, "card": "6S"},
               {"kind": "high", "side": 1, "points": 1, "card": "AS"}, {"kind": "low", "side": 0, "points": 1, "card": "2S"},
               {"kind": "jack", "side": 0, "points": 1}, {"kind": "game", "side": 0, "points": 1}],
    "score": [8, 7], "winner": None, "next_dealer": 1, "game_status": "in_play",
    "created_at": "2026-02-14T10:12:44-04:00", "voided_at": None,
}
BOARD_STATE = {
    "board": 41, "tournament": "carnival-open-2026", "round": 3, "round_status": "in_play",
    "clock": {"ends_at": "2026-02-14T11:30:00-04:00", "seconds_left": 1680, "time_called": False, "ends_local": "11:30",
              "time_zone": "America/Port_of_Spain"}, "table": 3,
    "status": "in_play", "help_called": False, "needs_review": False, "match_format": {"kind": "first_to", "n": 2},
    "pairs": {"a": {"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed", "club": "DMAFC",
                    "players": [{"id": 7, "name": "Kenrick Baptiste"}, {"id": 8, "name": "Ria Mohammed"}],
                    "side": 0, "seats": [0, 2]},
              "b": {"entry": 15, "name": "Anand Rampersad & Joel Pierre", "club": "Sangre Grande",
                    "players": [{"id": 21, "name": "Anand Rampersad"}, {"id": 22, "name": "Joel Pierre"}],
                    "side": 1, "seats": [1, 3]}},
    "sides": [{"side": 0, "pair": "a", "seats": [0, 2]}, {"side": 1, "pair": "b", "seats": [1, 3]}],
    "seating": {"0": 7, "1": 21, "2": 8, "3": 22}, "first_dealer": 0,
    "rules": {"preset": "trinidad-tournament", "players": 4, "target": 14, "game_points": 2},
    "game_number": 1, "game_status": "in_play", "score": [8, 7], "next_dealer": 1, "next_hand_number": 6,
    "hands": [], "last_hand_id": 310, "can_undo": True, "undo_reason": "",
    "games": [{"number": 1, "status": "in_play", "score": [8, 7], "winner": None, "first_dealer": 0,
               "awarded": False, "confirmed": False, "confirmations": []}],
    "result": {"decided": False, "winner": None, "is_draw": False, "bullseyes": [0, 0], "chalks": [0, 0],
               "hang_jacks": [0, 0], "live_bullseyes": [0, 0], "all_confirmed": False, "disputed": False},
    "team_match": None,
}
WRITE_ERRORS = error_responses(409, 422, 429)


def _device(request: Request) -> Device:
    device = tablet_device(request)
    assert device is not None  # IsTablet
    return device


def tablet_board(request: Request, board_id: int) -> Board:
    """The board named in the path, if it is this tablet's current board (403 / 404 / 409 otherwise).

    One query on the usual path: the table's current board is the one named.
    """
    device = _device(request)
    current = board_for_table(tournament=device.tournament, table=device.table)
    if current is not None and current.pk == board_id:
        return current
    board = Board.objects.select_related("round").filter(pk=board_id).first()
    if board is None:
        raise NotFound("No such board.")
    if board.round.tournament_id != device.tournament_id or board.table != device.table:
        raise PermissionDenied(f"This tablet scores table {device.table}, not this board.", code="not_your_board")
    raise Conflict(
        "stale_board",
        "This board is no longer the table's current board.",
        current=board_state(current) if current is not None else None,
    )


class _TabletWrite(IdempotentWriteMixin, APIView):
    permission_classes = [IsTablet]
    throttle_classes = [TabletWriteThrottle]


def unchanged_board(request: HttpRequest) -> HttpResponse | None:
    """The 304 of a tablet's conditional board read, when its board is unchanged, in two plain queries
    (``tournaments.selectors.tablet_tag``); None for anything else (no or another credential, no tag sent, a
    changed board, a device not seen for a minute, a finished event...): the view's usual path answers it."""
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH", "")
    token = device_token(request) if if_none_match else None
    if not token or len(token) > 200:  # device_authenticate's bound: such a token is the usual path's 401
        return None
    tag = tablet_board_tag(device_digest(token), seen_after=timezone.now() - LAST_SEEN_RESOLUTION)
    if tag is None:
        return None
    etag = board_tag(tag.board_id, tag.version)
    if not etag_matches(if_none_match, etag):
        return None
    response = HttpResponse(status=304)
    _board_headers(response, etag)
    return response


def _board_headers(response: HttpResponse | Response, etag: str) -> None:
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization"


class CurrentBoardView(APIView):
    permission_classes = [IsTablet]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # the common poll first: an unchanged board answered without DRF's authentication and the ORM
        unchanged = unchanged_board(request) if request.method == "GET" else None
        if unchanged is None:
            return super().dispatch(request, *args, **kwargs)  # type: ignore[no-any-return]
        for key, value in self.default_response_headers.items():  # what DRF adds to this view's answers
            unchanged[key] = value
        return unchanged

    @extend_schema(
        operation_id="tablet_board",
        tags=["tablet"],
        summary="The tablet's current board: pairs, sides, seats, rules, current game, score, next dealer, "
                "hands so far (404 `no_current_board` between rounds); conditional: send the last ETag in "
                "If-None-Match and an unchanged board is a 304 with no body",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False,
                                     description="The ETag of the board state the tablet shows")],
        responses={200: BoardStateSerializer, 304: OpenApiResponse(description="The board is unchanged")},
        examples=[OpenApiExample("Board", value=BOARD_STATE, response_only=True)],
    )
    def get(self, request: Request) -> Response:
        device = _device(request)
        board = board_for_table(tournament=device.tournament, table=device.table)
        if board is None:
            raise NotFound("No board at this table in a published round yet.", code="no_current_board")
        # The tag comes from a cheap version read, taken before the state: a change landing in between gives
        # an older tag with a newer body, and the next poll is a full read again (never the other way).
        etag = board_etag(board)
        if etag_matches(request.META.get("HTTP_IF_NONE_MATCH", ""), etag):
            response: HttpResponse | Response = HttpResponse(status=304)
        else:
            response = Response(board_state(board, reread=False))  # the row the tag was made of
        _board_headers(response, etag)
        return response


class SeatingView(_TabletWrite):
    @extend_schema(
        operation_id="tablet_board_seat",
        tags=["tablet"],
        summary="Record the seating and the first dealer (after the cut), before hand 1; opens game 1",
        parameters=[IDEMPOTENCY_KEY],
        request=SeatingSerializer,
        responses={200: BoardStateSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample("Seating", value={"seating": {"0": 7, "1": 21, "2": 8, "3": 22}, "first_dealer": 0},
                           request_only=True),
            OpenApiExample("Board", value=BOARD_STATE, response_only=True),
        ],
    )
    def post(self, request: Request, board_id: int) -> Response:
        device = _device(request)

        def write() -> tuple[int, dict[str, Any]]:
            board = tablet_board(request, board_id)
            serializer = SeatingSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            board = board_seat(board=board, device=device, **serializer.validated_data)
            return 200, board_state(board)

        return idempotent_response(request, device, write)


class PreviewView(APIView):
    permission_classes = [IsTablet]
    throttle_classes = [TabletWriteThrottle]

    @extend_schema(
        operation_id="tablet_hand_preview",
        tags=["tablet"],
        summary="Dry run: the engine's reading of a hand as the next of the game; nothing is stored",
        request=HandPreviewSerializer,
        responses={200: PreviewSerializer, **error_responses(409, 429)},
        examples=[
            OpenApiExample("Tally hand", value={"game": 1, "hand": TALLY_HAND}, request_only=True),
            OpenApiExample(
                "Reading",
                value={"game_number": 1, "hand_number": 5, "dealer": 0, "score_before": [2, 6],
                       "result": {k: HAND_RESPONSE[k] for k in ("trump", "events", "score", "winner", "next_dealer")},
                       "ends_game": False},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Request, board_id: int) -> Response:
        board = tablet_board(request, board_id)
        serializer = HandPreviewSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        reading = hand_preview(board=board, record=data["hand"], game_number=data.get("game"), device=_device(request))
        return Response(PreviewSerializer(reading).data)


@extend_schema_view(
    get=extend_schema(
        operation_id="tablet_hands_list", tags=["tablet"],
        summary="The board's hands so far (active ones; `?status=` for undone or corrected ones too)",
        examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None, "results": [HAND_RESPONSE]},
                                 response_only=True)],
    ),
)
class HandsView(IdempotentWriteMixin, generics.ListAPIView):
    permission_classes = [IsTablet]
    serializer_class = HandSerializer
    filterset_class = HandFilter

    def get_throttles(self) -> list[Any]:
        return [TabletWriteThrottle()] if self.request.method == "POST" else []

    def get_queryset(self) -> QuerySet[Hand]:
        if getattr(self, "swagger_fake_view", False):
            return Hand.objects.none()
        board = tablet_board(self.request, self.kwargs["board_id"])
        hands = Hand.objects.filter(game__board=board).exclude(game__status=Game.Status.VOIDED).select_related("game")
        if "status" not in self.request.query_params:
            hands = hands.filter(status=Hand.Status.ACTIVE)
        return hands.order_by("game__number", "number", "version")

    @extend_schema(
        operation_id="tablet_hand_submit",
        tags=["tablet"],
        summary="Submit a hand (tally or play form) as hand `number` of game `game`: the engine's events, the "
                "new score, the winner and the next dealer",
        parameters=[IDEMPOTENCY_KEY],
        request=HandSubmitSerializer,
        responses={201: HandSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample("Tally hand", value={"game": 1, "number": 5, "hand": TALLY_HAND}, request_only=True),
            OpenApiExample("Misdeal", value={"game": 1, "number": 6, "hand": {"dealer": 1, "misdeal": True}},
                           request_only=True),
            OpenApiExample("Scored", value=HAND_RESPONSE, response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request, board_id: int) -> Response:
        device = _device(request)

        def write() -> tuple[int, dict[str, Any]]:
            board = tablet_board(request, board_id)
            serializer = HandSubmitSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            hand = hand_submit(board=board, game_number=data["game"], hand_number=data["number"], record=data["hand"],
                               device=device)
            return status.HTTP_201_CREATED, dict(HandSerializer(hand).data)

        return idempotent_response(request, device, write)


class UndoView(_TabletWrite):
    @extend_schema(
        operation_id="tablet_hand_undo",
        tags=["tablet"],
        summary="Undo the board's last hand, named by id (a double tap cannot void two); may reopen the last "
                "game while nobody confirmed it",
        parameters=[IDEMPOTENCY_KEY],
        request=UndoSerializer,
        responses={200: HandSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample("Undo", value={"hand": 310}, request_only=True),
            OpenApiExample("Voided", value={**HAND_RESPONSE, "status": "voided",
                                            "voided_at": "2026-02-14T10:13:02-04:00"}, response_only=True),
        ],
    )
    def post(self, request: Request, board_id: int) -> Response:
        device = _device(request)

        def write() -> tuple[int, dict[str, Any]]:
            board = tablet_board(request, board_id)
            serializer = UndoSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            hand = hand_undo(board=board, hand_id=serializer.validated_data["hand"], device=device)
            hand = Hand.objects.select_related("game").get(pk=hand.pk)
            return 200, dict(HandSerializer(hand).data)

        return idempotent_response(request, device, write)


class ConfirmationView(_TabletWrite):
    @extend_schema(
        operation_id="tablet_game_confirm",
        tags=["tablet"],
        summary="A pair confirms (or refuses, with a reason: a dispute) a finished game; one tap per pair",
        parameters=[IDEMPOTENCY_KEY],
        request=TabletConfirmationSerializer,
        responses={201: ConfirmationSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample("Pair A confirms", value={"game": 1, "side": "a", "agrees": True}, request_only=True),
            OpenApiExample("Pair B refuses", value={"game": 1, "side": "b", "agrees": False,
                                                    "reason": "Hand 9: High was ours"}, request_only=True),
            OpenApiExample("Recorded", value={"game": 1, "party": "a", "agrees": True, "reason": "",
                                              "game_confirmed": False, "created_at": "2026-02-14T10:40:00-04:00"},
                           response_only=True, status_codes=["201"]),
        ],
    )
    def post(self, request: Request, board_id: int) -> Response:
        device = _device(request)

        def write() -> tuple[int, dict[str, Any]]:
            board = tablet_board(request, board_id)
            serializer = TabletConfirmationSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            game = Game.objects.filter(board=board, number=data["game"]).exclude(status=Game.Status.VOIDED).first()
            if game is None:
                raise Conflict("stale_game", f"The board has no game {data['game']}.", current=board_state(board))
            row = game_confirm(game=game, party=data["side"], agrees=data["agrees"], reason=data["reason"],
                               device=device)  # row.game: the locked game, its ``confirmed`` current
            return status.HTTP_201_CREATED, dict(ConfirmationSerializer(row).data)

        return idempotent_response(request, device, write)


class HelpView(_TabletWrite):
    @extend_schema(
        operation_id="tablet_call_help",
        tags=["tablet"],
        summary="Call the organiser to the table (a flag on the board; calling twice is one call)",
        parameters=[IDEMPOTENCY_KEY],
        request=None,
        responses={200: BoardStateSerializer, **WRITE_ERRORS},
        examples=[OpenApiExample("Board", value={**BOARD_STATE, "help_called": True}, response_only=True)],
    )
    def post(self, request: Request, board_id: int) -> Response:
        device = _device(request)

        def write() -> tuple[int, dict[str, Any]]:
            board = board_call_help(board=tablet_board(request, board_id), device=device)
            return 200, board_state(board)

        return idempotent_response(request, device, write)
