"""The end of an event: a tournament's prizes (CRUD), how prizes are shared, the awards and the payout sheet,
finishing and reopening the event, its frozen final results and the results as plain text.

Every write is one service call (``tournaments.services.prizes``, ``tournaments.services.finish``); the reads
come from ``tournaments.selectors.final``. Organisers and co-organisers write; every role reads (403
otherwise, as the siblings)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Prize
from tournaments.selectors.final import final_awards, is_final, public_path, results_text
from tournaments.selectors.prizes import payout_from_awards
from tournaments.services.finish import tournament_finish, tournament_reopen
from tournaments.services.prizes import prize_create, prize_delete, prize_settings_set, prize_update

from ..permissions import IsOrganiser, organiser_user
from ..schema import ErrorSerializer
from ..serializers.final import (
    AwardsSerializer,
    FinalResultsSerializer,
    PayoutSerializer,
    PrizeSerializer,
    PrizeSettingsSerializer,
    PrizeWriteSerializer,
    ResultsTextSerializer,
)
from .scoping import TournamentScopedMixin

PRIZE_EXAMPLE = {"id": 3, "tournament": 1, "category": "place", "place": 1, "tag": "", "label": "",
                 "amount": "1000.00", "order": 1, "title": "1st place"}
PRIZE_REQUEST = {"category": "tag", "tag": "ladies", "place": 1, "amount": "300.00", "label": "Best ladies pair"}
AWARD_EXAMPLE = {
    "prizes": [3, 4], "category": "place", "title": "2nd place + 3rd place", "place": 2, "tag": "",
    "amount": "500.00", "awarded": True,
    "winners": [{"kind": "entry", "id": 12, "name": "Kenrick Baptiste & Ria Mohammed", "amount": "250.00",
                 "detail": "=2nd, 4-1, 8 pts"},
                {"kind": "entry", "id": 15, "name": "Anand Rampersad & Joel Pierre", "amount": "250.00",
                 "detail": "=2nd, 4-1, 8 pts"}],
    "note": "Kenrick Baptiste & Ria Mohammed and Anand Rampersad & Joel Pierre are level after every tie-break: "
            "they share 2nd place and 3rd place equally (TTD 500.00), TTD 250.00 each.",
}
AWARDS_EXAMPLE = {"final": False, "currency": "TTD", "one_prize_per_pair": True, "prize_ties": "split",
                  "awards": [AWARD_EXAMPLE]}
PAYOUT_EXAMPLE = {
    "final": True, "currency": "TTD",
    "lines": [{"title": "1st place", "name": "Marcus Joseph & Keisha Joseph", "amount": "1000.00", "note": ""}],
    "total_paid": "1000.00", "entry_fee": "100.00", "entries": 16, "fees_paid": 15, "fees_collected": "1500.00",
    "balance": "500.00", "unpaid": ["Curtis Baptiste & Lennox Charles"],
    "text": {"total_paid": "TTD 1,000.00", "fees_collected": "TTD 1,500.00", "balance": "TTD 500.00"},
}
FINAL_EXAMPLE = {
    "id": 1, "status": "finished", "finished_at": "2026-02-14T19:05:00-04:00", "final": True,
    "final_results": {"version": 1, "finished_at": "2026-02-14T19:05:00-04:00", "after_round": 5, "currency": "TTD",
                      "tie_breaks": [{"name": "match_points", "label": "Match points", "short": "MP",
                                      "explanation": "Points for each board: 2 for a win, 1 for a draw, 0 for a loss."}],
                      "standings": [{"entry_id": 12, "rank": 1, "tied": False, "record": "5-0", "match_points": 10,
                                     "name": "Marcus Joseph & Keisha Joseph", "club": "Couva Jacks"}],
                      "clubs": [], "prizes": [AWARD_EXAMPLE], "payout": PAYOUT_EXAMPLE, "records": [],
                      "one_prize_per_pair": True, "prize_ties": "split"},
}
TEXT_EXAMPLE = {"final": True, "text": "Carnival Open: final results\nQueen's Park Oval pavilion, 14 Feb 2026\n\n"
                                       "1st Marcus Joseph & Keisha Joseph (Couva Jacks): 5-0, 10 pts\n\nPrizes\n"
                                       "1st place (TTD 1,000.00): Marcus Joseph & Keisha Joseph\n\n"
                                       "Full results: https://example.org/t/carnival-open-2026/\n"}


def _refusal(summary: str, code: str, message: str, current: dict[str, Any] | None = None) -> OpenApiResponse:
    error: dict[str, Any] = {"code": code, "message": message}
    if current is not None:
        error["current"] = current
    return OpenApiResponse(response=ErrorSerializer, description=summary, examples=[
        OpenApiExample(summary, value={"error": error}, response_only=True, status_codes=["409"])])


FINISHED_409 = {409: _refusal("The event is finished", "tournament_finished",
                              "The event is finished: its prizes are frozen in the final results. Reopen it to "
                              "change them.")}
FINISH_409 = {409: _refusal("Something is left to play or rule on", "round_open",
                            "Round 4 is still in play: close it first.", {"round": 4, "status": "in_play"})}
REOPEN_409 = {409: _refusal("Not finished", "tournament_not_finished",
                            "The event is not finished: there is nothing to reopen.")}


def _final_body(tournament: Any) -> dict[str, Any]:
    return {"id": tournament.pk, "status": tournament.status, "finished_at": tournament.finished_at,
            "final": is_final(tournament), "final_results": tournament.final_results}


@extend_schema_view(
    get=extend_schema(operation_id="prizes_list", tags=["prizes"], summary="A tournament's prizes, in their order",
                      examples=[OpenApiExample("Page", value={"count": 1, "next": None, "previous": None,
                                                              "results": [PRIZE_EXAMPLE]}, response_only=True)]),
)
class PrizeListView(TournamentScopedMixin, generics.ListAPIView):
    serializer_class = PrizeSerializer
    permission_classes = [IsOrganiser]

    def get_queryset(self) -> QuerySet[Prize]:
        if getattr(self, "swagger_fake_view", False):
            return Prize.objects.none()
        return Prize.objects.filter(tournament=self.tournament).order_by("order", "id")

    @extend_schema(
        operation_id="prizes_create", tags=["prizes"],
        summary="Add a prize: a place, best club, most hang jacks, highest count, or a tag's place",
        request=PrizeWriteSerializer, responses={201: PrizeSerializer, **FINISHED_409},
        examples=[OpenApiExample("A tag prize", value=PRIZE_REQUEST, request_only=True),
                  OpenApiExample("Added", value=PRIZE_EXAMPLE, response_only=True, status_codes=["201"])],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        body = PrizeWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        prize = prize_create(tournament=tournament, user=organiser_user(request), **body.validated_data)
        return Response(PrizeSerializer(prize).data, status=status.HTTP_201_CREATED)


class PrizeDetailView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    def _prize(self, pk: int) -> Prize:
        prize = Prize.objects.filter(pk=pk, tournament=self.tournament).select_related("tournament").first()
        if prize is None:
            raise NotFound("No such prize.")
        return prize

    @extend_schema(operation_id="prizes_retrieve", tags=["prizes"], summary="One prize",
                   responses={200: PrizeSerializer},
                   examples=[OpenApiExample("Prize", value=PRIZE_EXAMPLE, response_only=True)])
    def get(self, request: Request, tournament_pk: int, pk: int) -> Response:
        return Response(PrizeSerializer(self._prize(pk)).data)

    @extend_schema(operation_id="prizes_partial_update", tags=["prizes"],
                   summary="Change some of a prize's fields (checked with the others)",
                   request=PrizeWriteSerializer, responses={200: PrizeSerializer, **FINISHED_409},
                   examples=[OpenApiExample("More money", value={"amount": "1250.00"}, request_only=True),
                             OpenApiExample("Changed", value={**PRIZE_EXAMPLE, "amount": "1250.00"},
                                            response_only=True)])
    def patch(self, request: Request, tournament_pk: int, pk: int) -> Response:
        prize = self._prize(pk)
        body = PrizeWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        prize = prize_update(prize=prize, user=organiser_user(request), **body.validated_data)
        return Response(PrizeSerializer(prize).data)

    @extend_schema(operation_id="prizes_destroy", tags=["prizes"], summary="Remove a prize",
                   request=None, responses={204: None, **FINISHED_409})
    def delete(self, request: Request, tournament_pk: int, pk: int) -> Response:
        prize_delete(prize=self._prize(pk), user=organiser_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PrizeSettingsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="prize_settings_retrieve", tags=["prizes"],
                   summary="How prizes are shared: one prize per pair, and how a tie is settled",
                   responses={200: PrizeSettingsSerializer},
                   examples=[OpenApiExample("Settings", value={"one_prize_per_pair": True, "prize_ties": "split"},
                                            response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        return Response(PrizeSettingsSerializer.of(self.tournament))

    @extend_schema(operation_id="prize_settings_partial_update", tags=["prizes"],
                   summary="Change how prizes are shared",
                   request=PrizeSettingsSerializer, responses={200: PrizeSettingsSerializer, **FINISHED_409},
                   examples=[OpenApiExample("Split ties", value={"prize_ties": "split"}, request_only=True),
                             OpenApiExample("Saved", value={"one_prize_per_pair": True, "prize_ties": "split"},
                                            response_only=True)])
    def patch(self, request: Request, tournament_pk: int) -> Response:
        body = PrizeSettingsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tournament = prize_settings_set(tournament=self.tournament, user=organiser_user(request), **body.validated_data)
        return Response(PrizeSettingsSerializer.of(tournament))


class AwardsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="awards_retrieve", tags=["prizes"],
                   summary="Who wins each prize: frozen at the end of the event, else as things stand now",
                   responses={200: AwardsSerializer},
                   examples=[OpenApiExample("Awards", value=AWARDS_EXAMPLE, response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        return Response({"final": is_final(tournament), "currency": tournament.currency,
                         "one_prize_per_pair": tournament.one_prize_per_pair, "prize_ties": tournament.prize_ties,
                         "awards": [a.to_dict() for a in final_awards(tournament)]})


class PayoutView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="payout_retrieve", tags=["prizes"],
                   summary="The payout sheet: each winner's amount, the total, the entry fees collected, the balance",
                   responses={200: PayoutSerializer},
                   examples=[OpenApiExample("Payout", value=PAYOUT_EXAMPLE, response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        payout = payout_from_awards(tournament, final_awards(tournament))
        return Response({"final": is_final(tournament), **payout.to_dict()})


class FinishView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="tournaments_finish", tags=["tournaments"],
                   summary="Finish the event: refused while a round is open or a board disputed; freezes the final "
                           "results (standings, tie-breaks, prizes, payout) and revokes every tablet",
                   request=None, responses={200: FinalResultsSerializer, **FINISH_409},
                   examples=[OpenApiExample("Finished", value=FINAL_EXAMPLE, response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = tournament_finish(tournament=self.tournament, user=organiser_user(request))
        return Response(FinalResultsSerializer(_final_body(tournament)).data)


class ReopenView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="tournaments_reopen", tags=["tournaments"],
                   summary="Reopen a finished event: running again, its final results kept but superseded, its "
                           "tablets still revoked (pair them again)",
                   request=None, responses={200: FinalResultsSerializer, **REOPEN_409},
                   examples=[OpenApiExample("Reopened", value={**FINAL_EXAMPLE, "status": "running", "final": False,
                                                               "final_results": {**FINAL_EXAMPLE["final_results"],
                                                                                 "reopened_at": "2026-02-14T19:30:00-04:00"}},
                                            response_only=True)])
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = tournament_reopen(tournament=self.tournament, user=organiser_user(request))
        return Response(FinalResultsSerializer(_final_body(tournament)).data)


class FinalResultsView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="final_results_retrieve", tags=["tournaments"],
                   summary="The final results frozen when the event finished (null before)",
                   responses={200: FinalResultsSerializer},
                   examples=[OpenApiExample("Final results", value=FINAL_EXAMPLE, response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        return Response(FinalResultsSerializer(_final_body(self.tournament)).data)


class ResultsTextView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="results_text_retrieve", tags=["tournaments"],
                   summary="The results as plain text for a message app: top places, prizes, the public page",
                   responses={200: ResultsTextSerializer},
                   examples=[OpenApiExample("Text", value=TEXT_EXAMPLE, response_only=True)])
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        link = request.build_absolute_uri(public_path(tournament))
        return Response({"final": is_final(tournament), "text": results_text(tournament, link=link)})


__all__ = [
    "AwardsView", "FinalResultsView", "FinishView", "PayoutView", "PrizeDetailView", "PrizeListView",
    "PrizeSettingsView", "ReopenView", "ResultsTextView",
]
