"""The public's read-only API: published tournaments only, no login, ETag + Cache-Control (304 on match).

The reads are the public pages' own (``tournaments.selectors``), so the API and the pages always agree:
standings from the latest snapshot (confirmed games only), boards in play with their live score apart.
A selector's ``NotFound`` answers the plain 404 body (``not_found``, "Not found.").
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors as public
from tournaments.errors import NotFound
from tournaments.models import Tournament

from ..etag import ConditionalGetMixin
from ..serializers.public import (
    PublicRoundDetailSerializer,
    PublicRoundSerializer,
    PublicScorecardSerializer,
    PublicStandingsSerializer,
    PublicStatisticsSerializer,
    PublicTournamentSerializer,
)

TOURNAMENT = {"id": 1, "name": "Carnival Open", "slug": "carnival-open-2026", "venue": "Queen's Park Oval pavilion",
              "starts_on": "2026-02-14", "ends_on": "2026-02-14", "status": "running", "rules": "trinidad-tournament",
              "rules_resolved": {"preset": "trinidad-tournament", "target": 14}, "entrant_type": "pairs",
              "pairing_system": "swiss", "match_format": {"kind": "first_to", "n": 2}, "team_format": None,
              "rounds_planned": 5, "tiebreaks": ["match_points", "wins", "bullseyes_won"]}
ROUND = {"number": 3, "status": "in_play", "match_format": None, "published_at": "2026-02-14T13:00:00-04:00",
         "closed_at": None, "clock": {"ends_at": "2026-02-14T14:30:00-04:00", "ends_local": "14:30",
                                      "time_zone": "America/Port_of_Spain", "time_called": False}}
PAIR_A = {"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed", "players": ["Kenrick Baptiste", "Ria Mohammed"],
          "club": "DMAFC"}
PAIR_B = {"entry": 15, "name": "Anand Rampersad & Joel Pierre", "players": ["Anand Rampersad", "Joel Pierre"],
          "club": "Sangre Grande"}


class PublicView(ConditionalGetMixin):
    """No credentials needed or read: the answers are the same for everyone, so caches may share them."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    def handle_exception(self, exc: Exception) -> Response:
        # A missing tournament, round or board answers as Django's 404 always has here (not the
        # selector's sentence), so the public API's bodies stay as they are.
        if isinstance(exc, NotFound):
            exc = Http404()
        return super().handle_exception(exc)  # type: ignore[misc]


def _tournament(slug: str) -> Tournament:
    return public.public_tournament(slug)


@extend_schema_view(
    get=extend_schema(operation_id="public_tournaments_list", tags=["public"], summary="Published tournaments",
                      auth=[], examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                                       "results": [TOURNAMENT]}, response_only=True)]),
)
class TournamentListView(PublicView, generics.ListAPIView):
    serializer_class = PublicTournamentSerializer
    filterset_fields = ["status", "pairing_system"]

    def get_queryset(self) -> QuerySet[Tournament]:
        return public.published_tournaments_query()


class TournamentView(PublicView, APIView):
    @extend_schema(operation_id="public_tournaments_retrieve", tags=["public"], summary="A published tournament",
                   auth=[], responses={200: PublicTournamentSerializer},
                   examples=[OpenApiExample("Tournament", value=TOURNAMENT, response_only=True)])
    def get(self, request: Request, slug: str) -> Response:
        return Response(PublicTournamentSerializer(_tournament(slug)).data)


class RoundsView(PublicView, APIView):
    @extend_schema(operation_id="public_rounds_list", tags=["public"],
                   summary="The rounds the public may see (published, in play, closed)", auth=[],
                   responses={200: PublicRoundSerializer(many=True)},
                   examples=[OpenApiExample("Rounds", value=[ROUND], response_only=True)])
    def get(self, request: Request, slug: str) -> Response:
        return Response(PublicRoundSerializer(public.public_rounds(_tournament(slug)), many=True).data)


class RoundView(PublicView, APIView):
    @extend_schema(
        operation_id="public_round_pairings", tags=["public"],
        summary="A round's pairings: every board with its pairs, status and live result", auth=[],
        responses={200: PublicRoundDetailSerializer},
        examples=[OpenApiExample("Pairings", response_only=True, value={"round": ROUND, "boards": [
            {"board": 41, "table": 3, "pair_a": PAIR_A, "pair_b": PAIR_B, "status": "in_play",
             "result": "A leads 1-0", "games_won": [1, 0], "confirmed_won": [1, 0], "games_finished": 1,
             "games_confirmed": 1, "current_game": 2, "current_score": [6, 9], "hands_played": 17,
             "help_called": False}]})],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        round_ = public.public_round(_tournament(slug), number)
        body = {"round": round_, "boards": public.round_boards(round_)}
        return Response(PublicRoundDetailSerializer(body).data)


class ScorecardView(PublicView, APIView):
    @extend_schema(
        operation_id="public_board_scorecard", tags=["public"],
        summary="A board's scorecard: each game hand by hand, as recorded and scored", auth=[],
        responses={200: PublicScorecardSerializer},
        examples=[OpenApiExample("Scorecard", response_only=True, value={
            "board": 41, "round": 3, "table": 3, "status": "in_play", "pair_a": PAIR_A, "pair_b": PAIR_B,
            "seating": {"0": 7, "1": 21, "2": 8, "3": 22},
            "games": [{"number": 1, "status": "finished", "first_dealer": 0, "score": [14, 9], "winner": 0,
                       "awarded": False, "confirmed": True, "hands": [
                           {"number": 1, "version": 1, "dealer": 0, "form": "tally",
                            "record": {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 1, "card": "AH"},
                                       "low": {"side": 0, "card": "2H"}, "jack": None, "game": [41, 36]},
                            "trump": "H", "events": [{"kind": "high", "side": 1, "points": 1, "card": "AH"},
                                                     {"kind": "low", "side": 0, "points": 1, "card": "2H"},
                                                     {"kind": "game", "side": 0, "points": 2}],
                            "score": [3, 1], "winner": None, "next_dealer": 1}]}]})],
    )
    def get(self, request: Request, slug: str, board_id: int) -> Response:
        board = public.public_board(_tournament(slug), board_id)
        games = list(public.scorecard_games(board))
        return Response(PublicScorecardSerializer({"board": board, "games": games}).data)


class StandingsView(PublicView, APIView):
    @extend_schema(
        operation_id="public_standings", tags=["public"],
        summary="Standings from the latest snapshot: confirmed games only", auth=[],
        responses={200: PublicStandingsSerializer},
        examples=[OpenApiExample("Standings", response_only=True, value={
            "after_round": 2, "computed_at": "2026-02-14T12:58:00-04:00",
            "columns": [{"key": "match_points", "short": "MP", "name": "match points"}],
            "rows": [{"rank": 1, "entry": 12, "name": "Kenrick Baptiste & Ria Mohammed", "club": "DMAFC",
                      "values": {"match_points": 4}}],
            "clubs": {"basis": "team_matches",
                      "columns": [{"key": "played", "short": "P", "name": "team matches played"},
                                  {"key": "byes", "short": "Bye", "name": "byes (not counted as played)"},
                                  {"key": "match_points", "short": "MP", "name": "match points"}],
                      "rows": [{"rank": 1, "club": 3, "name": "DMAFC",
                                "values": {"played": 2, "byes": 1, "match_points": 6}}]}})],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug)
        table = public.standings(tournament)
        clubs = public.club_standings(tournament, snapshot=table.snapshot)
        body = {
            "after_round": table.after_round,
            "computed_at": table.snapshot.created_at if table.snapshot else None,
            "columns": [{"key": key, "short": short, "name": name} for key, short, name in table.columns],
            "rows": [
                {"rank": row.rank, "entry": row.entry.pk if row.entry else None, "name": row.name, "club": row.club,
                 "values": {key: value for (key, _, _), value in zip(table.columns, row.values, strict=False)}}
                for row in table.rows
            ],
            # The team (club) table: from team matches in a club-team event, else the pairs' rows per club.
            "clubs": {
                "basis": "team_matches" if tournament.entrant_type == Tournament.EntrantType.CLUB_TEAMS else "pairs",
                "columns": [{"key": key, "short": short, "name": name} for key, short, name in clubs.columns],
                "rows": [
                    {"rank": row.rank, "club": row.club_ref.pk if row.club_ref else None, "name": row.name,
                     "values": {key: value for (key, _, _), value in zip(clubs.columns, row.values, strict=False)}}
                    for row in clubs.rows
                ],
            },
        }
        return Response(PublicStandingsSerializer(body).data)


class StatisticsView(PublicView, APIView):
    @extend_schema(
        operation_id="public_statistics", tags=["public"],
        summary="Per-pair figures over confirmed games and the headline records", auth=[],
        responses={200: PublicStatisticsSerializer},
        examples=[OpenApiExample("Statistics", response_only=True, value={
            "pairs": [{"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed", "games": 5, "bullseyes": 4,
                       "hang_jacks_for": 2, "hang_jacks_against": 0, "kicks": 6, "kick_chalks": 9, "jacks_kicked": 1,
                       "highest_game_count": 52, "longest_straight": 3}],
            "records": [{"label": "Most hang jacks", "value": 2, "entries": [12], "detail": ""}]})],
    )
    def get(self, request: Request, slug: str) -> Response:
        pairs, records = public.tournament_stats(_tournament(slug))
        return Response(PublicStatisticsSerializer({"pairs": pairs, "records": records}).data)
