"""Organisers' rounds: start one (create and pair), publish, confirm its games in bulk, list its boards live;
the round clock (set the time left, call time), the close preview, closing from its token and reopening
(``tournaments.services.closing``; docs/decisions.md, "The clock and closing")."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.models import Board, Game, Round

from ..filters import BoardFilter, RoundFilter
from ..permissions import IsOrganiser, organiser_user
from ..schema import ErrorSerializer, error_responses
from ..serializers.boards import BoardSummarySerializer
from ..serializers.events import (
    ClosePreviewSerializer,
    ConfirmAllResultSerializer,
    RoundClockSetSerializer,
    RoundCloseSerializer,
    RoundCreateSerializer,
    RoundSerializer,
)
from .scoping import TournamentScopedMixin, organiser_object

CLOCK_EXAMPLE = {"ends_at": "2026-02-14T14:30:00-04:00", "seconds_left": 1380, "time_called": False,
                 "ends_local": "14:30", "time_zone": "America/Port_of_Spain"}
ROUND_EXAMPLE = {"id": 9, "tournament": 1, "number": 3, "status": "published", "match_format": None,
                 "needs_review": False, "feasibility": "guaranteed", "feasibility_note": "", "changes": [],
                 "proposal": None, "published_at": "2026-02-14T13:00:00-04:00", "closed_at": None, "boards": 8,
                 "clock": CLOCK_EXAMPLE}
CLOSED_EXAMPLE = {**ROUND_EXAMPLE, "status": "closed", "closed_at": "2026-02-14T14:41:00-04:00",
                  "clock": {**CLOCK_EXAMPLE, "seconds_left": 0, "time_called": True}}
PREVIEW_EXAMPLE = {
    "round": 3, "token": "5f0c2a9e41b7d3c8",
    "boards": [
        {"board": 41, "table": 1, "pair_a": "Kenrick Baptiste & Ria Mohammed", "pair_b": "Anand Rampersad & Joel Pierre",
         "now": "0-0 in games, game 1 at 6-7", "becomes": "pair B wins 0-1 in games",
         "changes": ["game 1 (6-7) awarded to pair B, ahead when time was called"], "undecided": False},
        {"board": 42, "table": 2, "pair_a": "Marcus Joseph & Keisha Joseph", "pair_b": "Curtis Baptiste & Lennox Charles",
         "now": "2-0 in games", "becomes": "pair A wins 2-0 in games",
         "changes": ["game 1 (14-6) confirmed", "game 2 (14-9) confirmed"], "undecided": False},
    ],
    "games_to_confirm": 2, "games_awarded": 1, "games_voided": 0, "disputed": 0, "blocking": [],
}


def _refusals(summary: str, *examples: tuple[str, str, str]) -> dict[int, OpenApiResponse]:
    """A 409 documented with one example per refusal code: (title, code, message)."""
    return {409: OpenApiResponse(response=ErrorSerializer, description=summary, examples=[
        OpenApiExample(title, value={"error": {"code": code, "message": message}}, response_only=True,
                       status_codes=["409"]) for title, code, message in examples])}


NOT_OPEN = ("Round not open", "round_not_open", "Round 3 is closed: only a round in play closes.")
CLOSE_409 = _refusals(
    "Closing refused: nothing changed",
    ("Stale preview", "preview_stale", "A board changed since the preview: look at the preview again before closing."),
    ("Dispute open", "dispute_open", "1 game(s) of round 3 are disputed: rule on them first."),
    ("Unconfirmed games", "games_unconfirmed", "2 finished game(s) are not confirmed yet: confirm them, or close "
                                               "from the preview, which confirms them for you."),
    ("Knockout match level", "match_undecided", "A knockout round closes only when every match is decided: "
                                                "table 2 still level."),
    NOT_OPEN,
)
REOPEN_409 = _refusals(
    "Reopening refused: nothing changed",
    ("Changed since closing", "reopen_changed", "Some results changed since the round was closed, so reopening "
                                                "would not restore them exactly: game 118 changed."),
    ("A later round", "later_round", "Round 4 is already drafted: only the last round reopens."),
    ("Not closed", "round_not_closed", "Round 3 is in_play: only a closed round reopens."),
    ("Event finished", "tournament_finished", "The event is finished: reopen the event first."),
)
START_409 = _refusals(
    "The round cannot start",
    ("Skips a round", "round_skips", "Round 4 cannot start yet: round 2 comes next."),
    ("Planned rounds reached", "rounds_planned_reached", "All 5 planned rounds are played. To play another, raise "
                                                         "the rounds planned in the event's settings first."),
    ("Event finished", "tournament_finished", "The event is finished: reopen it to play another round."),
    ("Round waiting", "round_pending", "Round 3 is waiting to be paired."),
)
CLOCK_409 = _refusals("The round is not in play",
                      ("Round not open", "round_not_open", "Round 3 is closed: only a round in play has a clock."))
BOARD_SUMMARY = {"id": 41, "round": 3, "table": 3, "pair_a": {"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed"},
                 "pair_b": {"entry": 15, "name": "Anand Rampersad & Joel Pierre"}, "status": "in_play",
                 "help_called": False, "needs_review": False, "disputed": False, "decided": False, "winner": None,
                 "is_draw": False, "all_confirmed": False, "bullseyes_a": 1, "bullseyes_b": 0,
                 "current_game": {"number": 2, "score": [6, 9], "status": "in_play"},
                 "updated_at": "2026-02-14T13:41:07-04:00", "result_source": "hands", "forfeited": None}


def start_round(tournament: Any, number: int | None, user: Any) -> Round:
    """A new round, paired by the pairing service (a Celery task, or in-process without a broker)."""
    return services.round_start(tournament=tournament, number=number, user=user)


def _round(request: Request, pk: int, *, action: str | None = None) -> Round:
    return organiser_object(request, Round.objects.select_related("tournament"), "tournament_id", action=action,
                            pk=pk)


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
        return Round.objects.filter(tournament=self.tournament).select_related("tournament").order_by("number")

    @extend_schema(
        operation_id="rounds_start",
        tags=["rounds"],
        summary="Start the next round: create it and pair it (drafted: publish it when the pairings suit)",
        request=RoundCreateSerializer,
        responses={201: RoundSerializer, **START_409},
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


class RoundClosePreviewView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_close_preview", tags=["rounds"],
                   summary="What closing the round would do, writing nothing: every board not finished as it "
                           "stands and as it becomes under the time-called policy, the games confirmed, awarded "
                           "and voided, what blocks closing, and the token to close exactly this",
                   responses={200: ClosePreviewSerializer, **_refusals("The round is not in play", NOT_OPEN)},
                   examples=[OpenApiExample("Preview", value=PREVIEW_EXAMPLE, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(request, pk, action="manage")
        plan = services.round_close_preview(round=round_, user=organiser_user(request))
        return Response(plan.as_dict())


class RoundCloseView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_close", tags=["rounds"],
                   summary="Close a round: with the preview's token, exactly what the preview showed (409 "
                           "preview_stale when a board moved since); refused while a dispute is open",
                   request=RoundCloseSerializer, responses={200: RoundSerializer, **CLOSE_409},
                   examples=[OpenApiExample("From the preview", value={"token": "5f0c2a9e41b7d3c8"}, request_only=True),
                             OpenApiExample("Without a preview (older clients)", value={"confirm_remaining": True},
                                            request_only=True),
                             OpenApiExample("Closed", value=CLOSED_EXAMPLE, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(request, pk)
        serializer = RoundCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        round_ = services.round_close(round=round_, user=organiser_user(request), token=data.get("token"),
                                      confirm_remaining=data["confirm_remaining"])
        return Response(RoundSerializer(round_).data)


class RoundReopenView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_reopen", tags=["rounds"],
                   summary="Reopen the last closed round (no later round drawn): exactly what closing changed is "
                           "put back; 409 reopen_changed when a result changed since",
                   request=None, responses={200: RoundSerializer, **REOPEN_409},
                   examples=[OpenApiExample("In play again", value={**ROUND_EXAMPLE, "status": "in_play"},
                                            response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = services.round_reopen(round=_round(request, pk), user=organiser_user(request))
        return Response(RoundSerializer(round_).data)


class RoundClockView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_clock_set", tags=["rounds"],
                   summary="Set the time left from now (extend or shorten the round; 0 calls time); 400 "
                           "minutes_invalid outside 0 to 600",
                   request=RoundClockSetSerializer, responses={200: RoundSerializer, **CLOCK_409},
                   examples=[OpenApiExample("Ten minutes left", value={"minutes": 10}, request_only=True),
                             OpenApiExample("The round", value={**ROUND_EXAMPLE, "clock": {
                                 **CLOCK_EXAMPLE, "seconds_left": 600}}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(request, pk)
        serializer = RoundClockSetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = services.round_clock_set(round=round_, minutes=serializer.validated_data["minutes"],
                                          user=organiser_user(request))
        return Response(RoundSerializer(round_).data)


class RoundCallTimeView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="rounds_call_time", tags=["rounds"],
                   summary="Call time now: no new game starts, the hands in play finish (closing stays a separate "
                           "step)",
                   request=None, responses={200: RoundSerializer, **CLOCK_409},
                   examples=[OpenApiExample("Time called", value={**ROUND_EXAMPLE, "clock": {
                       **CLOCK_EXAMPLE, "seconds_left": 0, "time_called": True}}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        round_ = services.round_call_time(round=_round(request, pk), user=organiser_user(request))
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
