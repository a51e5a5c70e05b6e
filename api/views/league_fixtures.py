"""The league API's match days and fixtures (issue 15): match days (create, change date or venue), a fixture
moved, postponed, replayed, given as a walkover or made void, point deductions (add, cancel), line-ups and
substitutions. One service call each (``tournaments.services.leagues``); each service checks that the caller
runs the season."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import PointDeduction, Round, TeamMatch
from tournaments.services import leagues

from ..permissions import IsOrganiser, organiser_user
from ..schema import error_responses
from ..serializers.league_more import (
    DeductionCreateSerializer,
    DeductionSerializer,
    FixtureMoveSerializer,
    FixtureReplaySerializer,
    LineupAnswerSerializer,
    LineupSerializer,
    MatchDayCreateSerializer,
    MatchDaySerializer,
    MatchDayUpdateSerializer,
    ReasonSerializer,
    SubstitutionCreateSerializer,
    SubstitutionSerializer,
    WalkoverSerializer,
)
from ..serializers.leagues import FixtureSerializer
from .leagues import FIXTURE
from .scoping import TournamentScopedMixin, organiser_object

TAGS = ["leagues"]
DAY = {"id": 12, "number": 3, "date": "2026-04-18", "venue": "Couva community centre"}
DEDUCTION = {"id": 4, "team": 7, "team_match": None, "match_points": 0, "bullseyes": 3,
             "reason": "Fielded an unregistered pair", "voided": False}
SCHEDULED = {**FIXTURE, "status": "scheduled", "result_source": "hands", "games": [0, 0], "hang_jacks": [0, 0],
             "entered_as": "", "confirmed": False}


class SeasonMatchDaysView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_match_day_create", tags=TAGS,
                   summary="A match day of the season (numbered after the last unless given) with its date and venue",
                   request=MatchDayCreateSerializer, responses={201: MatchDaySerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Day", value={"date": "2026-04-18", "venue": "Couva community centre"},
                                            request_only=True),
                             OpenApiExample("Created", value=DAY, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = MatchDayCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        day = leagues.match_day_create(tournament=self.tournament, user=organiser_user(request), **body.validated_data)
        return Response(MatchDaySerializer(day).data, status=status.HTTP_201_CREATED)


class MatchDayView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_match_day_update", tags=TAGS,
                   summary="Change a match day's date or venue (a new date is clash-checked for every fixture on it)",
                   request=MatchDayUpdateSerializer, responses={200: MatchDaySerializer,
                                                                **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("New date", value={"date": "2026-04-25"}, request_only=True),
                             OpenApiExample("Changed", value=DAY, response_only=True)])
    def patch(self, request: Request, pk: int) -> Response:
        day = organiser_object(request, Round.objects.all(), "tournament_id", pk=pk)
        body = MatchDayUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        day = leagues.match_day_update(round=day, user=organiser_user(request), **body.validated_data)
        return Response(MatchDaySerializer(day).data)


def _fixture(request: Request, pk: int) -> TeamMatch:
    return organiser_object(request, TeamMatch.objects.select_related("round"), "round.tournament_id", pk=pk)


def _answer(match: TeamMatch) -> Response:
    match = TeamMatch.objects.select_related("round", "team_a", "team_b").get(pk=match.pk)
    return Response(FixtureSerializer(match).data)


class FixtureMoveView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_move", tags=TAGS,
                   summary="Move a fixture (no game played) to another match day; it is scheduled again",
                   request=FixtureMoveSerializer, responses={200: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Move", value={"round": 14}, request_only=True),
                             OpenApiExample("Moved", value=SCHEDULED, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = FixtureMoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return _answer(leagues.fixture_move(team_match=pk, round=body.validated_data["round"], user=organiser_user(request)))


class FixturePostponeView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_postpone", tags=TAGS,
                   summary="Postpone a scheduled fixture: it frees its day and waits to be moved",
                   request=ReasonSerializer, responses={200: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Postpone", value={"reason": "Hall flooded"}, request_only=True),
                             OpenApiExample("Postponed", value={**SCHEDULED, "status": "postponed"}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return _answer(leagues.fixture_postpone(team_match=pk, user=organiser_user(request),
                                                reason=body.validated_data["reason"]))


class FixtureReplayView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_replay", tags=TAGS,
                   summary="Order a fixture replayed on another match day: the original becomes void, the answer is "
                           "the new fixture", request=FixtureReplaySerializer,
                   responses={201: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Replay", value={"round": 15, "reason": "Wrong pair fielded"}, request_only=True),
                             OpenApiExample("The replay", value=SCHEDULED, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = FixtureReplaySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        replay = leagues.fixture_replay(team_match=pk, user=organiser_user(request), **body.validated_data)
        answer = _answer(replay)
        answer.status_code = status.HTTP_201_CREATED
        return answer


class FixtureWalkoverView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_walkover", tags=TAGS,
                   summary="A walkover: the team present wins by the format's full score (neither came: two losses)",
                   request=WalkoverSerializer, responses={200: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Away absent", value={"absent": "away", "reason": "No team"}, request_only=True),
                             OpenApiExample("Walkover", value={**FIXTURE, "status": "walkover", "result_source": "forfeit",
                                                               "games": [17, 0], "hang_jacks": [0, 0]}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = WalkoverSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return _answer(leagues.fixture_walkover(team_match=pk, user=organiser_user(request), **body.validated_data))


class FixtureVoidView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_void", tags=TAGS,
                   summary="A fixture that does not count (cancelled by the league): kept, counted nowhere",
                   request=ReasonSerializer, responses={200: FixtureSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Void", value={"reason": "Cancelled by the league"}, request_only=True),
                             OpenApiExample("Void", value={**SCHEDULED, "status": "void"}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return _answer(leagues.fixture_void(team_match=pk, user=organiser_user(request),
                                            reason=body.validated_data["reason"]))


class SeasonDeductionsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_deduction_add", tags=TAGS,
                   summary="Take match points and/or bullseyes off a team, with the reason shown under the table",
                   request=DeductionCreateSerializer, responses={201: DeductionSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Deduct", value={"team": 7, "bullseyes": 3,
                                                             "reason": "Fielded an unregistered pair"}, request_only=True),
                             OpenApiExample("Deducted", value=DEDUCTION, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = DeductionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        organiser_object(request, self.tournament.teams.all(), "tournament_id", pk=data["team"])
        row = leagues.deduction_add(user=organiser_user(request), **data)
        return Response(DeductionSerializer(row).data, status=status.HTTP_201_CREATED)


class DeductionVoidView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_deduction_void", tags=TAGS,
                   summary="Cancel a point deduction (kept, marked voided)", request=None,
                   responses={200: DeductionSerializer, **error_responses(403, 404)},
                   examples=[OpenApiExample("Cancelled", value={**DEDUCTION, "voided": True}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        row = organiser_object(request, PointDeduction.objects.all(), "tournament_id", pk=pk)
        return Response(DeductionSerializer(leagues.deduction_void(deduction=row, user=organiser_user(request))).data)


class FixtureLineupView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_lineup", tags=TAGS,
                   summary="A team's line-up for the fixture: K roster pairs in board order (both in: boards seated)",
                   request=LineupSerializer, responses={200: LineupAnswerSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Line-up", value={"team": 7, "entries": [81, 82, 83]}, request_only=True),
                             OpenApiExample("Set", value={"id": 41, "lineup_a": [81, 82, 83], "lineup_b": [],
                                                          "seated": False}, response_only=True)])
    def put(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = LineupSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        match = leagues.lineup_set(team_match=pk, user=organiser_user(request), **body.validated_data)
        return Response(LineupAnswerSerializer(match).data)


class FixtureSubstitutionsView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="fixture_substitute", tags=TAGS,
                   summary="Put a roster pair at one board of a team's line-up (recorded; refused once the board's "
                           "game is under way)", request=SubstitutionCreateSerializer,
                   responses={201: SubstitutionSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Substitute", value={"team": 7, "slot": 1, "entry": 84, "reason": "Late"},
                                            request_only=True),
                             OpenApiExample("Recorded", value={"id": 2, "team": 7, "slot": 1, "out_entry": 82,
                                                               "in_entry": 84, "reason": "Late"}, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        _fixture(request, pk)
        body = SubstitutionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        row = leagues.lineup_substitute(team_match=pk, user=organiser_user(request), **body.validated_data)
        return Response(SubstitutionSerializer(row).data, status=status.HTTP_201_CREATED)
