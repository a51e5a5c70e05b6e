"""The league API (issue 15): a season's tables, its import (teams and results, preview or commit), a fixture
entered by hand, and results from paper: a game from a chalk sheet, a fixture's match totals, the other
captain's (or the organiser's) confirmation. One service call each (``tournaments.services.leagues``,
``league_import``); who may do what is the services' (an organiser, or a captain of one of the two teams
for a result)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import ValidationFailed
from tournaments.models import Board, Round
from tournaments.services import leagues
from tournaments.services.import_preview import MAX_BYTES
from tournaments.services.league_import import season_import

from ..permissions import IsOrganiser, IsSignedIn, organiser_user
from ..schema import error_responses
from ..serializers.leagues import (
    FixtureCreateSerializer,
    FixtureSerializer,
    MatchTotalsSerializer,
    PaperGameAnswerSerializer,
    PaperGameSerializer,
    SeasonImportRequestSerializer,
    SeasonImportSerializer,
    SeasonTablesSerializer,
)
from .scoping import TournamentScopedMixin

FIXTURE = {"id": 41, "round": 3, "home": "Couva Jacks", "away": "Bay Boys", "status": "played",
           "result_source": "match_totals", "games": [17, 9], "hang_jacks": [2, 1], "entered_as": "organiser",
           "confirmed": True}
GAME = {"id": 310, "board": 88, "number": 2, "score": [14, 9], "winner": 0, "result_source": "paper_game",
        "entered_as": "captain_a", "confirmed": False}
ROW = {"team_id": 7, "team": "Couva Jacks", "club": "Couva All Fours Club", "rank": 1, "played": 8, "byes": 1, "wins": 7,
       "bullseyes_won": 131, "bullseyes_lost": 80, "hang_jacks_for": 12, "hang_jacks_against": 5,
       "sources": {"hands": 2, "match_totals": 6, "bye": 1}, "deductions": []}
TABLES = {"season": {"id": 5, "name": "North League 2026", "label": "2026", "league": 2, "finished": False},
          "overall": dict(division=None, tie_breaks=["bullseyes_won"], race_target=17, rows=[ROW],
                          bye_policy="A bye counts as a win with the race target for."), "divisions": []}
IMPORT = {"ok": False, "stored": False, "counts": {"teams": 1, "results": 1, "rows_with_errors": 1},
          "teams": [{"kind": "team", "line": 2, "values": {"team": "Couva Jacks", "club": "Couva AFC", "division": "Premier"},
                     "ok": True, "errors": {}, "outcome": "New team, new club Couva AFC, new division Premier."}],
          "results": [{"kind": "result", "line": 2, "values": {"round": "1", "home": "Couva Jacks", "away": "Bay Boys",
                                                                "home_games": "18", "away_games": "9"},
                       "ok": False, "errors": {"home_games": "A race to 17 ends when a team reaches 17: 18 games is past it."},
                       "outcome": ""}]}


def _round(tournament_id: int, round_id: int) -> Round:
    found = Round.objects.filter(pk=round_id, tournament_id=tournament_id).select_related("tournament").first()
    if found is None:
        raise ValidationFailed("match_day_not_found", "No such match day in this season.", fields={"round": "a match day"})
    return found


class SeasonTablesView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_tables", tags=["leagues"],
                   summary="A season's tables: overall and per division (byes apart, where results come from)",
                   responses={200: SeasonTablesSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Tables", value=TABLES, response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        return Response(leagues.league_tables(tournament=self.tournament))


class SeasonImportView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="season_import", tags=["leagues"],
                   summary="Import a season's teams and results (CSV or XLSX): every row previewed with its errors; "
                           "stored with commit=true when every row is good",
                   request={"multipart/form-data": SeasonImportRequestSerializer},
                   responses={200: SeasonImportSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Upload", value={"teams_file": "teams.csv", "results_file": "results.csv",
                                                              "commit": False},
                                            request_only=True, media_type="multipart/form-data"),
                             OpenApiExample("Preview", value=IMPORT, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = SeasonImportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        files: dict[str, Any] = {}
        for name in ("teams_file", "results_file"):
            upload = body.validated_data.get(name)
            files[name] = (upload.read(MAX_BYTES + 1), upload.name or "") if upload else None
        answer = season_import(tournament=self.tournament, user=organiser_user(request), teams=files["teams_file"],
                               results=files["results_file"], commit=body.validated_data["commit"])
        return Response(answer.as_dict())


class SeasonFixturesView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_fixture_create", tags=["leagues"],
                   summary="Enter one fixture on a match day, as the league published it (away null: a bye)",
                   request=FixtureCreateSerializer,
                   responses={201: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Fixture", value={"round": 12, "home": 7, "away": 9}, request_only=True),
                             OpenApiExample("Entered", value={**FIXTURE, "status": "scheduled", "result_source": "hands",
                                                              "games": [0, 0], "hang_jacks": [0, 0], "entered_as": "",
                                                              "confirmed": False}, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = FixtureCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        match = leagues.fixture_create(round=_round(self.tournament.pk, data["round"]), home=data["home"],
                                       away=data.get("away"), user=organiser_user(request))
        return Response(FixtureSerializer(match).data, status=status.HTTP_201_CREATED)


class PaperGameView(APIView):
    permission_classes = [IsSignedIn]  # a person (organiser or captain), never a tablet

    @extend_schema(operation_id="fixture_paper_game", tags=["leagues"],
                   summary="A board's next game from a chalk sheet (the organiser's counts at once; a captain's waits "
                           "for the other captain); checked by the engine's rules",
                   request=PaperGameSerializer,
                   responses={201: PaperGameAnswerSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Chalk sheet", request_only=True,
                                            value={"board": 88, "score": [14, 9], "hang_jacks": [1, 0], "kicks": [2, 0]}),
                             OpenApiExample("Entered", value=GAME, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        body = PaperGameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if not Board.objects.filter(pk=data["board"], team_match_id=pk).exists():
            raise ValidationFailed("not_a_board_of_fixture", "That board is not of this fixture.",
                                   fields={"board": "a board of the fixture"})
        game = leagues.paper_game_enter(board=data["board"], user=organiser_user(request), score=data["score"],
                                        hang_jacks=data["hang_jacks"], kicks=data.get("kicks"),
                                        game_counts=data.get("game_counts"))
        return Response(PaperGameAnswerSerializer(game).data, status=status.HTTP_201_CREATED)


class MatchTotalsView(APIView):
    permission_classes = [IsSignedIn]  # a person (organiser or captain), never a tablet

    @extend_schema(operation_id="fixture_match_totals", tags=["leagues"],
                   summary="A fixture known only by its totals: games and hang jacks per team (checked by the engine's "
                           "rules)", request=MatchTotalsSerializer,
                   responses={200: FixtureSerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Totals", value={"games": [17, 9], "hang_jacks": [2, 1]}, request_only=True),
                             OpenApiExample("Entered", value=FIXTURE, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        body = MatchTotalsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        match = leagues.match_totals_enter(team_match=pk, user=organiser_user(request), games=data["games"],
                                           hang_jacks=data["hang_jacks"], played_on=data.get("played_on"),
                                           time_called=data["time_called"])
        return Response(FixtureSerializer(match).data)


class FixtureConfirmView(APIView):
    permission_classes = [IsSignedIn]  # a person (organiser or captain), never a tablet

    @extend_schema(operation_id="fixture_confirm", tags=["leagues"],
                   summary="The other captain's (or the organiser's) word on a result a captain entered",
                   request=None, responses={200: FixtureSerializer, **error_responses(403, 404, 409)},
                   examples=[OpenApiExample("Confirmed", value=FIXTURE, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        match = leagues.match_result_confirm(team_match=pk, user=organiser_user(request))
        return Response(FixtureSerializer(match).data)
