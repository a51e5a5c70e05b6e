"""Organisers' tournaments (CRUD; the creator becomes an organiser), their entries, and the registry's
choices for a tournament's settings (``GET /tournaments/formats/``, public).

Every write is one service call (``tournaments.services``: ``tournament_create`` ..., ``entry_delete``);
the views check who may call and shape the answer, nothing else."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from tournaments import formats
from tournaments.formats.catalogue import catalogue
from tournaments.models import Entry, Tournament
from tournaments.services import (
    entry_create,
    entry_delete,
    tournament_create,
    tournament_delete,
    tournament_update,
)
from tournaments.services.checkin import entry_details_set
from tournaments.services.events import entry_substitute
from tournaments.services.field import entry_enter_late, entry_withdraw

from ..filters import EntryFilter, TournamentFilter
from ..permissions import (
    IsOrganiser,
    MayOrganise,
    organised_tournament_ids,
    organiser_user,
    require_organiser_of,
)
from ..schema import error_responses
from ..serializers.events import EntrySerializer, FormatsSerializer, TournamentSerializer
from ..serializers.people import EntrySubstitutionSerializer, SubstituteSerializer
from .scoping import TournamentScopedMixin

TOURNAMENT_EXAMPLE = {
    "id": 1, "name": "Carnival Open", "slug": "carnival-open-2026", "venue": "Queen's Park Oval pavilion",
    "starts_on": "2026-02-14", "ends_on": "2026-02-14", "status": "running", "published": True,
    "rules": "trinidad-tournament", "rules_resolved": {"preset": "trinidad-tournament", "players": 4, "target": 14},
    "entrant_type": "pairs", "pairing_system": "swiss", "match_format": {"kind": "first_to", "n": 2},
    "team_format": None, "rounds_planned": 5,
    "tiebreaks": list(formats.DEFAULT_TIE_BREAKS),
    "bye_policy": formats.DEFAULT_BYE_POLICY.to_dict(), "forfeit_policy": formats.DEFAULT_FORFEIT_POLICY.to_dict(),
    "grace_minutes": 15, "late_entry_bye": False, "club_avoidance": 2, "time_called": "void",
    "third_place_match": False, "qualifies_from": None, "created_at": "2026-01-10T18:00:00-04:00",
}
TOURNAMENT_REQUEST = {
    "name": "Carnival Open", "slug": "carnival-open-2026", "starts_on": "2026-02-14",
    "rules": {"preset": "trinidad-tournament", "game_points": 2}, "pairing_system": "swiss",
    "match_format": {"kind": "first_to", "n": 2},
    "tiebreaks": ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"],
    "bye_policy": "league",
}
ENTRY_EXAMPLE = {"id": 12, "pair": 4, "pair_name": "Kenrick Baptiste & Ria Mohammed", "club": 1, "seed": 2,
                 "withdrawn": False, "withdrawn_from": None, "joins_from": None, "tags": ["ladies"], "fee_paid": True}


def _examples(request: dict[str, Any], response: dict[str, Any]) -> list[OpenApiExample]:
    return [
        OpenApiExample("Request", value=request, request_only=True),
        OpenApiExample("Response", value=response, response_only=True, status_codes=["200", "201"]),
    ]


def _page(example: dict[str, Any]) -> list[OpenApiExample]:
    return [OpenApiExample("Page", value={"count": 1, "next": None, "previous": None, "results": [example]},
                           response_only=True)]


@extend_schema_view(
    list=extend_schema(tags=["tournaments"], summary="The tournaments you organise (staff: all)",
                       examples=_page(TOURNAMENT_EXAMPLE)),
    create=extend_schema(tags=["tournaments"], summary="Create a tournament; you become its organiser. The rule "
                         "set is checked by the engine (400 with the field's path)",
                         examples=_examples(TOURNAMENT_REQUEST, TOURNAMENT_EXAMPLE)),
    retrieve=extend_schema(tags=["tournaments"], summary="One tournament you organise",
                           examples=_examples(TOURNAMENT_REQUEST, TOURNAMENT_EXAMPLE)[1:]),
    update=extend_schema(tags=["tournaments"], summary="Replace a tournament's settings (409 for one fixed now)",
                         examples=_examples(TOURNAMENT_REQUEST, TOURNAMENT_EXAMPLE),
                         responses={200: TournamentSerializer, **error_responses(409)}),
    partial_update=extend_schema(tags=["tournaments"], summary="Change a tournament's settings (publish it, finish it)",
                                 examples=_examples({"published": True}, TOURNAMENT_EXAMPLE),
                                 responses={200: TournamentSerializer, **error_responses(409)}),
    destroy=extend_schema(tags=["tournaments"], summary="Delete a tournament that has no rounds yet (409 otherwise)",
                          responses={204: None, **error_responses(409)}),
)
class TournamentViewSet(viewsets.ModelViewSet):
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter

    def get_permissions(self) -> list[Any]:
        if self.action == "formats":
            return []
        return [MayOrganise()] if self.action == "create" else [IsOrganiser()]

    def get_queryset(self) -> QuerySet[Tournament]:
        queryset = Tournament.objects.all()
        user = organiser_user(self.request)
        if user is None or getattr(self, "swagger_fake_view", False):
            return queryset.none()
        if self.action == "list" and not user.is_staff:
            queryset = queryset.filter(pk__in=organised_tournament_ids(user))
        return queryset

    def get_object(self) -> Tournament:
        tournament: Tournament = super().get_object()
        require_organiser_of(self.request, tournament)
        return tournament

    def perform_create(self, serializer: BaseSerializer[Tournament]) -> None:
        serializer.instance = tournament_create(user=organiser_user(self.request), **serializer.validated_data)

    def perform_update(self, serializer: BaseSerializer[Tournament]) -> None:
        serializer.instance = tournament_update(tournament=serializer.instance, user=organiser_user(self.request),
                                                **serializer.validated_data)

    def perform_destroy(self, instance: Tournament) -> None:
        tournament_delete(tournament=instance, user=organiser_user(self.request))

    @extend_schema(
        tags=["tournaments"], operation_id="tournaments_formats",
        summary="What a tournament's settings may be: tie-breaks, match and team formats, bye presets, entrant "
                "types, pairing systems, time-called policies, with labels and explanations (no login)",
        responses={200: FormatsSerializer},
        examples=[OpenApiExample("The registry", value=catalogue(), response_only=True, status_codes=["200"])],
    )
    @action(detail=False, methods=["get"], url_path="formats", authentication_classes=[], permission_classes=[],
            filterset_class=None, pagination_class=None)
    def formats(self, request: Request) -> Response:
        response = Response(FormatsSerializer(catalogue()).data)
        response["Cache-Control"] = "public, max-age=300"
        return response


@extend_schema_view(
    list=extend_schema(tags=["entries"], summary="The pairs entered in a tournament", examples=_page(ENTRY_EXAMPLE)),
    create=extend_schema(tags=["entries"], summary="Enter a pair; once play has begun, a late entry that joins the "
                         "next round not drawn yet (`joins_from`; no bye in it unless `late_entry_bye`; 409 "
                         "bracket_seated in a knockout)",
                         examples=_examples({"pair": 4, "seed": 2}, ENTRY_EXAMPLE),
                         responses={201: EntrySerializer, **error_responses(409)}),
    retrieve=extend_schema(tags=["entries"], summary="One entry", examples=_examples({}, ENTRY_EXAMPLE)[1:]),
    update=extend_schema(tags=["entries"], summary="Replace an entry (its pair is fixed once it has a board: 409)",
                         examples=_examples({"pair": 4, "seed": 2, "withdrawn": False}, ENTRY_EXAMPLE),
                         responses={200: EntrySerializer, **error_responses(409)}),
    partial_update=extend_schema(tags=["entries"], summary="Change a seed, tags or the fee paid, or withdraw a pair "
                                 "(as `POST /entries/{id}/withdraw/` from the round in progress) or reinstate it",
                                 examples=[*_examples({"tags": ["ladies", "seniors"], "fee_paid": True},
                                                      {**ENTRY_EXAMPLE, "tags": ["ladies", "seniors"]}),
                                           OpenApiExample("Withdraw", value={"withdrawn": True}, request_only=True)],
                                 responses={200: EntrySerializer, **error_responses(409)}),
    destroy=extend_schema(tags=["entries"], summary="Remove an entry that has played no board (409 otherwise)",
                          responses={204: None, **error_responses(409)}),
)
class EntryViewSet(TournamentScopedMixin, viewsets.ModelViewSet):
    serializer_class = EntrySerializer
    permission_classes = [IsOrganiser]
    filterset_class = EntryFilter

    def get_queryset(self) -> QuerySet[Entry]:
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return Entry.objects.filter(tournament=self.tournament).select_related("pair__player_1", "pair__player_2")

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False) and "tournament_pk" in self.kwargs:
            context["tournament"] = self.tournament
        return context

    def perform_create(self, serializer: BaseSerializer[Entry]) -> None:
        data = dict(serializer.validated_data)
        if data.get("withdrawn"):
            serializer.instance = entry_create(tournament=self.tournament, user=organiser_user(self.request), **data)
            return
        # once play has begun, a late entry: it joins the next round not drawn yet (before: an ordinary entry)
        data.pop("withdrawn", None)
        serializer.instance = entry_enter_late(tournament=self.tournament, user=organiser_user(self.request), **data)

    def perform_update(self, serializer: BaseSerializer[Entry]) -> None:
        # pair, seed, reinstating (entry_update), tags and fee paid, in one transaction; withdrawing goes
        # through entry_withdraw (as POST .../withdraw/ does), which mends the rounds already drawn
        data = dict(serializer.validated_data)
        user = organiser_user(self.request)
        entry = serializer.instance
        withdrawing = data.get("withdrawn") is True and not entry.withdrawn
        if withdrawing:
            data.pop("withdrawn")
        with transaction.atomic():
            entry = entry_details_set(entry=entry, user=user, **data)
            if withdrawing:
                entry_withdraw(entry=entry, user=user)
                entry = Entry.objects.select_related("pair").get(pk=entry.pk)
        serializer.instance = entry

    def perform_destroy(self, instance: Entry) -> None:
        entry_delete(entry=instance, user=organiser_user(self.request))

    @extend_schema(
        tags=["entries"], operation_id="entries_substitute",
        summary="Record a substitute: from round N on, another player plays for this pair in one player's place "
                "(shown on the scorecards from that round; 409 once that round has hands on the pair's board)",
        request=SubstituteSerializer, responses={201: EntrySubstitutionSerializer, **error_responses(409)},
        examples=[
            OpenApiExample("Substitute", request_only=True, value={
                "out_player": 7, "in_player": 31, "from_round": 3, "reason": "Kenrick is at work"}),
            OpenApiExample("Recorded", response_only=True, status_codes=["201"], value={
                "id": 2, "entry": 12, "from_round": 3, "out_player": 7, "out_player_name": "Kenrick Baptiste",
                "in_player": 31, "in_player_name": "Ria Mohammed", "reason": "Kenrick is at work",
                "created_at": "2026-02-14T15:02:00-04:00"}),
        ],
    )
    @action(detail=True, methods=["post"], url_path="substitute", filterset_class=None, pagination_class=None)
    def substitute(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = SubstituteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        substitution = entry_substitute(entry=self.get_object(), user=organiser_user(request), **body.validated_data)
        return Response(EntrySubstitutionSerializer(substitution).data, status=201)
