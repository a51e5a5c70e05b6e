"""When the field changes during play (issue 13): withdraw a pair, forfeit a board whose pair did not come
(and cancel a forfeit made by mistake), a club's team forfeit, and seat the Swiss look-ahead's proposed draft.

Each write is one service call (``tournaments.services.field``, ``pairing.round_draft_adopt_proposal``);
the views find the object, check the caller runs its tournament (organiser or co-organiser: ``manage``) and
shape the answer. Refusals are the services', in the one error shape; a forfeit asked for before the grace
time has run out (409 ``grace_time``) carries ``current.grace_ends``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import Conflict
from tournaments.models import Board, Entry, Game, Round, TeamMatch
from tournaments.services.field import (
    board_forfeit,
    board_forfeit_cancel,
    entry_withdraw,
    grace_ends,
    team_match_forfeit,
)
from tournaments.services.pairing import round_draft_adopt_proposal

from ..permissions import IsOrganiser, organiser_user
from ..schema import ErrorSerializer, error_responses
from ..serializers.events import RoundSerializer
from ..serializers.field_changes import (
    ForfeitBoardSerializer,
    ForfeitSerializer,
    TeamForfeitSerializer,
    TeamMatchForfeitSerializer,
    WithdrawalReportSerializer,
    WithdrawSerializer,
)
from .rounds import ROUND_EXAMPLE
from .scoping import organiser_object

FORFEIT_BOARD = {"id": 41, "round": 3, "table": 3, "pair_a": {"entry": 12, "name": "Kenrick Baptiste & Ria Mohammed"},
                 "pair_b": {"entry": 15, "name": "Anand Rampersad & Joel Pierre"}, "status": "forfeited",
                 "help_called": False, "needs_review": False, "disputed": False, "decided": True, "winner": 0,
                 "is_draw": False, "all_confirmed": True, "bullseyes_a": 2, "bullseyes_b": 0, "current_game": None,
                 "updated_at": "2026-02-14T13:41:07-04:00", "result_source": "forfeit", "forfeited": 1,
                 "grace_ends": "2026-02-14T13:15:00-04:00"}
WITHDRAWAL = {
    "entry": {"id": 15, "pair": 7, "pair_name": "Anand Rampersad & Joel Pierre", "club": 2, "seed": 5,
              "withdrawn": True, "withdrawn_from": 3, "joins_from": None, "tags": [], "fee_paid": True},
    "from_round": 3,
    "actions": [{"round": 3, "kind": "re-paired", "boards": [41, 44],
                 "text": "Round 3: Anand Rampersad & Joel Pierre withdrew; Kenrick Baptiste & Ria Mohammed now plays "
                         "Devi Singh & Ravi Ali, who had the bye."}],
    "summary": "Round 3: Anand Rampersad & Joel Pierre withdrew; Kenrick Baptiste & Ria Mohammed now plays Devi Singh & "
               "Ravi Ali, who had the bye.",
}
GRACE_TIME = OpenApiResponse(
    response=ErrorSerializer, description="Too early, or the board cannot be forfeited now",
    examples=[OpenApiExample("Grace time", status_codes=["409"], response_only=True, value={"error": {
        "code": "grace_time", "current": {"grace_ends": "2026-02-14T13:15:00-04:00"},
        "message": "The grace time runs until 13:15 (15 minutes after the round was published): wait for the pair "
                   "until then."}})])


def _board(request: Request, pk: int) -> Board:
    live_games = Prefetch("games", queryset=Game.objects.exclude(status=Game.Status.VOIDED).order_by("number"),
                          to_attr="live_games")
    return organiser_object(
        request, Board.objects.select_related("round__tournament", "pair_a__pair", "pair_b__pair")
        .prefetch_related(live_games), "round.tournament_id", pk=pk)


def _board_answer(request: Request, pk: int) -> Response:
    return Response(ForfeitBoardSerializer(_board(request, pk)).data)


class EntryWithdrawView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="entries_withdraw", tags=["entries"],
        summary="Withdraw a pair from a round on (by default the round in progress, else the next): each round "
                "already drawn is mended, the board re-paired while no hand is played on it, forfeited once "
                "play has started (a walkover in a knockout; a substitute of the club in a club-team event). "
                "The report says what was done, round by round",
        request=WithdrawSerializer, responses={200: WithdrawalReportSerializer, **error_responses(409)},
        examples=[OpenApiExample("From round 3", value={"from_round": 3}, request_only=True),
                  OpenApiExample("Withdrawn", value=WITHDRAWAL, response_only=True, status_codes=["200"])],
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = organiser_object(request, Entry.objects.all(), "tournament_id", pk=pk)
        body = WithdrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = entry_withdraw(entry=entry, user=organiser_user(request),
                                from_round=body.validated_data.get("from_round"))
        fresh = Entry.objects.select_related("pair").get(pk=entry.pk)
        return Response(WithdrawalReportSerializer(
            {"entry": fresh, "actions": report.actions, "summary": report.summary}).data)


class BoardForfeitView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="boards_forfeit", tags=["boards"],
        summary="Forfeit a board of a published or in-play round: pair A, pair B or both did not come. Before "
                "any hand, only once the event's grace time after publishing has run out (409 grace_time, "
                "with current.grace_ends); the games played stay, the pair present wins the board",
        request=ForfeitSerializer, responses={200: ForfeitBoardSerializer, 409: GRACE_TIME},
        examples=[OpenApiExample("Pair B did not come", value={"absent": "b"}, request_only=True),
                  OpenApiExample("Forfeited", value=FORFEIT_BOARD, response_only=True, status_codes=["200"])],
    )
    def post(self, request: Request, pk: int) -> Response:
        board = _board(request, pk)
        body = ForfeitSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            board_forfeit(board=board, absent=body.validated_data["absent"], user=organiser_user(request))
        except Conflict as exc:
            if exc.code == "grace_time":
                exc.current = {"grace_ends": ForfeitBoardSerializer(board).data["grace_ends"]}
            raise
        return _board_answer(request, pk)

    @extend_schema(
        operation_id="boards_forfeit_cancel", tags=["boards"],
        summary="Cancel a forfeit recorded by mistake, while its round is open: the board is played again and "
                "the games the forfeit stopped are back in play (409 not_forfeited, round_closed)",
        request=None, responses={200: ForfeitBoardSerializer, **error_responses(409)},
        examples=[OpenApiExample("Played again", response_only=True, status_codes=["200"], value={
            **FORFEIT_BOARD, "status": "waiting", "decided": False, "winner": None, "all_confirmed": False,
            "bullseyes_a": 0, "result_source": "hands", "forfeited": None})],
    )
    def delete(self, request: Request, pk: int) -> Response:
        board_forfeit_cancel(board=_board(request, pk), user=organiser_user(request))
        return _board_answer(request, pk)


class TeamMatchForfeitView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="team_matches_forfeit", tags=["boards"],
        summary="A club cannot field its team: every board of the team match not already forfeited is forfeited "
                "by its side (the same grace time as a board's forfeit)",
        request=TeamForfeitSerializer, responses={200: TeamMatchForfeitSerializer, 409: GRACE_TIME},
        examples=[OpenApiExample("Club", value={"club": 3}, request_only=True),
                  OpenApiExample("Forfeited", response_only=True, status_codes=["200"], value={
                      "id": 7, "round": 2, "club_a": 3, "club_b": 5, "bullseyes_a": 0, "bullseyes_b": 4,
                      "decided": True, "winner": 1, "boards": [FORFEIT_BOARD]})],
    )
    def post(self, request: Request, pk: int) -> Response:
        match = organiser_object(request, TeamMatch.objects.select_related("round"), "round.tournament_id", pk=pk)
        body = TeamForfeitSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            team_match_forfeit(team_match=match, club=body.validated_data["club"], user=organiser_user(request))
        except Conflict as exc:
            if exc.code == "grace_time":
                round_ = Round.objects.select_related("tournament").get(pk=match.round_id)
                exc.current = {"grace_ends": _iso(grace_ends(round_))}
            raise
        return Response(TeamMatchForfeitSerializer(TeamMatch.objects.select_related("round").get(pk=match.pk)).data)


def _iso(moment: Any) -> str:
    from rest_framework.fields import DateTimeField

    return str(DateTimeField().to_representation(moment))


class RoundAdoptProposalView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="rounds_adopt_proposal", tags=["rounds"],
        summary="Seat the Swiss look-ahead's proposed draft (`proposal`) in place of the drafted boards: the draft "
                "that keeps the event free of rematches, at the cost `proposal.extra` says (409 round_not_draft, "
                "no_proposal, proposal_stale)",
        request=None, responses={200: RoundSerializer, **error_responses(409)},
        examples=[OpenApiExample("Seated", response_only=True, status_codes=["200"],
                                 value={**ROUND_EXAMPLE, "status": "drafted", "published_at": None,
                                        "proposal": None})],
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = organiser_object(request, Round.objects.select_related("tournament"), "tournament_id", pk=pk)
        round_ = round_draft_adopt_proposal(round=round_, user=organiser_user(request))
        return Response(RoundSerializer(Round.objects.get(pk=round_.pk)).data)


__all__ = ["BoardForfeitView", "EntryWithdrawView", "RoundAdoptProposalView", "TeamMatchForfeitView"]
