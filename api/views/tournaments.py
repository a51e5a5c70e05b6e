"""Organisers' tournaments (CRUD; the creator becomes an organiser) and their entries."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.serializers import BaseSerializer

from tournaments.models import Entry, Tournament, TournamentRole
from tournaments.services import Conflict, audit_record

from ..filters import EntryFilter, TournamentFilter
from ..permissions import (
    IsOrganiser,
    IsSignedIn,
    organised_tournament_ids,
    organiser_user,
    require_organiser_of,
)
from ..schema import error_responses
from ..serializers.events import EntrySerializer, TournamentSerializer
from .scoping import TournamentScopedMixin

TOURNAMENT_EXAMPLE = {
    "id": 1, "name": "Carnival Open", "slug": "carnival-open-2026", "venue": "Queen's Park Oval pavilion",
    "starts_on": "2026-02-14", "ends_on": "2026-02-14", "status": "running", "published": True,
    "rules": "trinidad-tournament", "rules_resolved": {"preset": "trinidad-tournament", "players": 4, "target": 14},
    "entrant_type": "pairs", "pairing_system": "swiss", "match_format": {"kind": "first_to", "n": 2},
    "team_format": None, "rounds_planned": 5,
    "tiebreaks": ["match_points", "wins", "bullseyes_won", "chalk_difference", "hang_jacks_for", "buchholz"],
    "bye_policy": {"result": "win", "score": "average"}, "club_avoidance": 2, "time_called": "void",
    "third_place_match": False, "qualifies_from": None, "created_at": "2026-01-10T18:00:00-04:00",
}
TOURNAMENT_REQUEST = {
    "name": "Carnival Open", "slug": "carnival-open-2026", "starts_on": "2026-02-14",
    "rules": {"preset": "trinidad-tournament", "game_points": 2}, "pairing_system": "swiss",
    "match_format": {"kind": "first_to", "n": 2},
}
ENTRY_EXAMPLE = {"id": 12, "pair": 4, "pair_name": "Kenrick Baptiste & Ria Mohammed", "club": 1, "seed": 2,
                 "withdrawn": False}


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
    update=extend_schema(tags=["tournaments"], summary="Replace a tournament's settings",
                         examples=_examples(TOURNAMENT_REQUEST, TOURNAMENT_EXAMPLE)),
    partial_update=extend_schema(tags=["tournaments"], summary="Change a tournament's settings (publish it, finish it)",
                                 examples=_examples({"published": True}, TOURNAMENT_EXAMPLE)),
    destroy=extend_schema(tags=["tournaments"], summary="Delete a tournament that has no rounds yet (409 otherwise)",
                          responses={204: None, **error_responses(409)}),
)
class TournamentViewSet(viewsets.ModelViewSet):
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter

    def get_permissions(self) -> list[Any]:
        return [IsSignedIn()] if self.action == "create" else [IsOrganiser()]

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
        user = organiser_user(self.request)
        with transaction.atomic():
            tournament = serializer.save()
            TournamentRole.objects.create(tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER)
            audit_record(action="tournament.create", obj=tournament, tournament_id=tournament.pk, user=user,
                         after={"name": tournament.name, "rules": tournament.rules})

    def perform_update(self, serializer: BaseSerializer[Tournament]) -> None:
        with transaction.atomic():
            tournament = serializer.save()
            audit_record(action="tournament.update", obj=tournament, tournament_id=tournament.pk,
                         user=organiser_user(self.request), after=_jsonable(serializer.validated_data))

    def perform_destroy(self, instance: Tournament) -> None:
        if instance.rounds.exists():
            raise Conflict("tournament_has_rounds", "A tournament with rounds cannot be deleted; finish it instead.")
        instance.delete()


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value if isinstance(value, (str, int, bool, list, dict, type(None))) else str(value)
            for key, value in data.items()}


@extend_schema_view(
    list=extend_schema(tags=["entries"], summary="The pairs entered in a tournament", examples=_page(ENTRY_EXAMPLE)),
    create=extend_schema(tags=["entries"], summary="Enter a pair",
                         examples=_examples({"pair": 4, "seed": 2}, ENTRY_EXAMPLE)),
    retrieve=extend_schema(tags=["entries"], summary="One entry", examples=_examples({}, ENTRY_EXAMPLE)[1:]),
    update=extend_schema(tags=["entries"], summary="Replace an entry",
                         examples=_examples({"pair": 4, "seed": 2, "withdrawn": False}, ENTRY_EXAMPLE)),
    partial_update=extend_schema(tags=["entries"], summary="Change a seed, or withdraw a pair",
                                 examples=_examples({"withdrawn": True}, {**ENTRY_EXAMPLE, "withdrawn": True})),
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
        if self.tournament.status == Tournament.Status.FINISHED:
            raise Conflict("tournament_finished", "This tournament has ended: no new entries.")
        serializer.save(tournament=self.tournament)
