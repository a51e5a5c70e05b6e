"""The league API's setup (issue 15): leagues (list, create), a league's seasons, a season's divisions and
teams, a team's roster and captains. One service call each (``tournaments.services.leagues``,
``league_people``); who may act is the services' (a league: a member of its organisation; a season: its
organisers). The console's forms for the same (web/views/league_console.py)."""

from __future__ import annotations

from django.utils.text import slugify
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.formats import TeamKind
from tournaments.models import Division, Entry, League, Team
from tournaments.selectors.league_console import user_leagues
from tournaments.services import leagues
from tournaments.services.league_people import (
    roster_add_by_names,
    team_add_by_club_name,
    team_captains_by_names,
)

from ..permissions import IsOrganiser, IsSignedIn, organiser_user
from ..schema import error_responses
from ..serializers.league_more import (
    CaptainsSerializer,
    DivisionCreateSerializer,
    DivisionSerializer,
    DivisionUpdateSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    RosterAddSerializer,
    RosterEntrySerializer,
    RosterMoveSerializer,
    SeasonCreateSerializer,
    SeasonSummarySerializer,
    TeamCreateSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
)
from .scoping import TournamentScopedMixin, get_or_404, organiser_object

TAGS = ["leagues"]
LEAGUE = {"id": 2, "name": "North League", "slug": "north-league", "owner": 4,
          "seasons": [{"id": 5, "name": "North League 2026", "slug": "north-league-2026", "season": "2026", "league": 2}]}
DIVISION = dict(id=3, name="Premier", order=1, boards=None, race_target=18, cross_overall_only=True)
TEAM = {"id": 7, "name": "Couva Jacks", "club": "Couva All Fours Club", "division": 3, "seed": None, "withdrawn": False,
        "captains": ["ravi"]}


def _slug(value: str, name: str) -> str:
    return slugify(value or name)[:80]


class LeaguesView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(operation_id="leagues_list", tags=TAGS, summary="The leagues of your organisations, with their seasons",
                   responses={200: LeagueSerializer(many=True), **error_responses(401)},
                   examples=[OpenApiExample("Leagues", value=[LEAGUE], response_only=True)])
    def get(self, request: Request) -> Response:
        return Response(LeagueSerializer(user_leagues(organiser_user(request)), many=True).data)

    @extend_schema(operation_id="league_create", tags=TAGS, summary="A new league of your own organisation",
                   request=LeagueCreateSerializer, responses={201: LeagueSerializer, **error_responses(400, 401, 403)},
                   examples=[OpenApiExample("League", value={"name": "North League"}, request_only=True),
                             OpenApiExample("Created", value={**LEAGUE, "seasons": []}, response_only=True)])
    def post(self, request: Request) -> Response:
        body = LeagueCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        name = body.validated_data["name"]
        league = leagues.league_create(user=organiser_user(request), name=name,
                                       slug=_slug(body.validated_data.get("slug", ""), name))
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueSeasonsView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(operation_id="league_season_create", tags=TAGS,
                   summary="A new season of a league (a club-team round robin with the league's defaults)",
                   request=SeasonCreateSerializer, responses={201: SeasonSummarySerializer,
                                                              **error_responses(400, 401, 403, 404)},
                   examples=[OpenApiExample("Season", value={"name": "North League 2026", "season": "2026", "boards": 3,
                                                             "race_to": 17}, request_only=True),
                             OpenApiExample("Created", value=LEAGUE["seasons"][0], response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        league = get_or_404(League.objects.all(), pk=pk)
        body = SeasonCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        season = leagues.season_create(
            league=league, user=organiser_user(request), name=data["name"], slug=_slug(data.get("slug", ""), data["name"]),
            season=data["season"], team_format={"boards": data["boards"], "kind": TeamKind.FIRST_TO_TOTAL.value, "n": data["race_to"]})
        return Response(SeasonSummarySerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDivisionsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_division_create", tags=TAGS, summary="A division of the season",
                   request=DivisionCreateSerializer, responses={201: DivisionSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Division", value=dict(name="Premier", race_target=18), request_only=True),
                             OpenApiExample("Created", value=DIVISION, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = DivisionCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        division = leagues.division_create(tournament=self.tournament, user=organiser_user(request), **body.validated_data)
        return Response(DivisionSerializer(division).data, status=status.HTTP_201_CREATED)


class DivisionView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_division_update", tags=TAGS,
                   summary="Change a division (name, order, K, race target: for fixtures made after the change)",
                   request=DivisionUpdateSerializer, responses={200: DivisionSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Rename", value={"name": "Premier A"}, request_only=True),
                             OpenApiExample("Changed", value=DIVISION, response_only=True)])
    def patch(self, request: Request, pk: int) -> Response:
        division = organiser_object(request, Division.objects.all(), "tournament_id", pk=pk)
        body = DivisionUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        division = leagues.division_update(division=division, user=organiser_user(request), **body.validated_data)
        return Response(DivisionSerializer(division).data)


class SeasonTeamsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_team_create", tags=TAGS,
                   summary="A team of a club in the season (the club found by name among yours, or made)",
                   request=TeamCreateSerializer, responses={201: TeamSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Team", value={"club": "Couva All Fours Club", "name": "Couva Jacks",
                                                           "division": 3}, request_only=True),
                             OpenApiExample("Created", value={**TEAM, "captains": []}, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = TeamCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        team = team_add_by_club_name(tournament=self.tournament, user=organiser_user(request), club=data["club"],
                                     name=data["name"], division=data.get("division"))
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)


def _team(request: Request, pk: int) -> Team:
    return organiser_object(request, Team.objects.select_related("club", "tournament"), "tournament_id", pk=pk)


class TeamView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_team_update", tags=TAGS,
                   summary="Change a team (its name this season, division, seed, withdrawn)",
                   request=TeamUpdateSerializer, responses={200: TeamSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Move division", value={"division": 4}, request_only=True),
                             OpenApiExample("Changed", value=TEAM, response_only=True)])
    def patch(self, request: Request, pk: int) -> Response:
        team = _team(request, pk)
        body = TeamUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team = leagues.team_update(team=team, user=organiser_user(request), **body.validated_data)
        return Response(TeamSerializer(team).data)


class TeamRosterView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_roster_add", tags=TAGS,
                   summary="Put a pair of the team's club on its roster (the players found by name, or made)",
                   request=RosterAddSerializer, responses={201: RosterEntrySerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Pair", value={"player_1": "Ravi", "player_2": "Sunil"}, request_only=True),
                             OpenApiExample("Added", value={"id": 81, "pair": "Ravi & Sunil", "team": 7},
                                            response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        team = _team(request, pk)
        body = RosterAddSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = roster_add_by_names(team=team, user=organiser_user(request), **body.validated_data)
        return Response(RosterEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class SeasonRosterMoveView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_roster_move", tags=TAGS,
                   summary="Put an entered pair on another team's roster (null: on none); refused while it is in a "
                           "line-up not yet played", request=RosterMoveSerializer,
                   responses={200: RosterEntrySerializer, **error_responses(400, 403, 404, 409)},
                   examples=[OpenApiExample("Move", value={"entry": 81, "team": 9}, request_only=True),
                             OpenApiExample("Moved", value={"id": 81, "pair": "Ravi & Sunil", "team": 9},
                                            response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        body = RosterMoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = get_or_404(Entry.objects.filter(tournament=self.tournament), pk=body.validated_data["entry"])
        entry = leagues.roster_move(entry=entry, team=body.validated_data["team"], user=organiser_user(request))
        return Response(RosterEntrySerializer(entry).data)


class TeamCaptainsView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="season_team_captains", tags=TAGS,
                   summary="The accounts that may enter and confirm the team's results (replacing the list)",
                   request=CaptainsSerializer, responses={200: TeamSerializer, **error_responses(400, 403, 404)},
                   examples=[OpenApiExample("Captains", value={"captains": ["ravi"]}, request_only=True),
                             OpenApiExample("Saved", value=TEAM, response_only=True)])
    def put(self, request: Request, pk: int) -> Response:
        team = _team(request, pk)
        body = CaptainsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team = team_captains_by_names(team=team, user=organiser_user(request),
                                      usernames=" ".join(body.validated_data["captains"]))
        return Response(TeamSerializer(team).data)
