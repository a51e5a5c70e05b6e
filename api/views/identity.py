"""Club and player identity in the API (issue 15; docs/api.md, "Club and player identity"; the console's club and
player pages do the same, web/views/identity.py): rename a club or a player, merge a spelling variant into the
record kept, and read the aliases a club or player is also known by.

Each write is one service call: ``club_update`` / ``player_update`` with a new ``name`` (a club's rename reaches
only events not yet played: a past event keeps the name it was played under), ``identity.club_merge`` /
``identity.player_merge`` (the variant's references move to the kept record, its name is kept as an alias, the
variant is deleted). A signed-in person only (a tablet is refused, 403; nobody signed in, 401). As the registry's
own endpoints (api/views/people.py): a read shows the caller's organisations' records (404 for another's); a
write finds any record, and the service refuses another organisation's with 403 ``not_owner``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Club, Player
from tournaments.selectors.registry import registry_visible
from tournaments.services import club_update, player_update
from tournaments.services.identity import club_merge, player_merge

from ..parsers import SafeJSONParser
from ..permissions import IsSignedIn, organiser_user
from ..schema import ErrorSerializer, error_responses
from ..serializers.identity import (
    ClubIdentitySerializer,
    ClubMergeResultSerializer,
    ClubMergeSerializer,
    IdentityRenameSerializer,
    PlayerIdentitySerializer,
    PlayerMergeResultSerializer,
    PlayerMergeSerializer,
)
from .scoping import get_or_404

CLUB = {"id": 1, "name": "Couva All Fours Club", "short_name": "CAFC", "town": "Couva", "owner": 3,
        "aliases": ["Couva AFC"]}
PLAYER = {"id": 7, "name": "Kenrick Baptiste", "club": 1, "owner": 3, "aliases": ["Kenric Baptiste"]}


def _refusals(status: int, *examples: tuple[str, str, str, str | None]) -> dict[int, OpenApiResponse]:
    """One documented status with an example per refusal: (title, code, message, field or None)."""
    return {status: OpenApiResponse(response=ErrorSerializer, description=", ".join(e[1] for e in examples), examples=[
        OpenApiExample(title, response_only=True, status_codes=[str(status)],
                       value={"error": {"code": code, "message": message, **({"fields": {field: message}} if field else {})}})
        for title, code, message, field in examples])}


RENAME_REFUSED = _refusals(
    400,
    ("Name taken", "name_taken", "Your organisation already has a club of this name.", "name"),
    ("Name not valid", "name_invalid", "A name needs at least one visible character.", "name"),
)


def _merge_refused(what: str, variant: str, keep: str, conflict: tuple[str, str, str, str | None]) -> dict[int, Any]:
    """A merge's refusals beyond the common ones: 400 (itself, an unknown variant, across organisations), 409."""
    return {
        **_refusals(
            400,
            ("Merged into itself", "same_record",
             f"Choose another {what} to merge: a {what} cannot be merged into itself.", "variant"),
            ("No such variant", "invalid", f"No {what} has the id 999.", "variant"),
            ("Another organisation's", "other_organisation",
             f"{variant} and {keep} belong to different organisations: only records of one organisation merge "
             "(copy the other organisation's pair instead).", "variant"),
        ),
        **_refusals(409, conflict),
    }


CLUB_MERGE_REFUSED = _merge_refused("club", "Couva AFC", "Couva All Fours Club", (
    "Both in one event", "both_in_event",
    "Couva All Fours Club and Couva AFC each field a team in North League 2026: they stay two clubs.", "variant"))
PLAYER_MERGE_REFUSED = _merge_refused("player", "Kenric Baptiste", "Kenrick Baptiste", (
    "A player twice in one event", "player_entered_twice",
    "Kenrick Baptiste and Kenric Baptiste cannot be merged: both play in Carnival Open, and one player would be "
    "there twice.", "variant"))


def _visible(queryset: QuerySet[Any], request: Request, pk: int) -> Any:
    """A read: the caller's organisations' record (staff: any), else 404."""
    return get_or_404(registry_visible(queryset, organiser_user(request)), pk=pk)


class _IdentityView(APIView):
    permission_classes = [IsSignedIn]
    parser_classes = [SafeJSONParser]


# ---- clubs ------------------------------------------------------------------------------------------------


def _rename(request: Request, model: Any, pk: int, update: Any, shown: Any, key: str) -> Response:
    """The rename of a club or a player: the record (404), the name checked, one service call."""
    record = get_or_404(model.objects.all(), pk=pk)
    body = IdentityRenameSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    record = update(**{key: record}, user=organiser_user(request), name=body.validated_data["name"])
    return Response(shown(record).data)


def _merge(request: Request, model: Any, pk: int, body_cls: Any, merge: Any, shown: Any, key: str) -> Response:
    """The merge of a variant into a club or a player: the kept record (404), the variant among the caller's
    records, one service call; the kept record with what moved and the aliases added."""
    keep = get_or_404(model.objects.all(), pk=pk)
    body = body_cls(data=request.data, context={"user": request.user})
    body.is_valid(raise_exception=True)
    result = merge(keep=keep, variant=body.validated_data["variant"], user=organiser_user(request))
    keep.refresh_from_db()
    return Response(shown({key: keep, "moved": result["moved"], "aliases_added": result["aliases"]}).data)


class ClubAliasesView(_IdentityView):
    @extend_schema(operation_id="club_aliases", tags=["clubs"],
                   summary="One of your clubs with the other names it is known by (its aliases)",
                   responses={200: ClubIdentitySerializer, **error_responses(401, 404)},
                   examples=[OpenApiExample("Club and aliases", value=CLUB, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        return Response(ClubIdentitySerializer(_visible(Club.objects.all(), request, pk)).data)


class ClubRenameView(_IdentityView):
    @extend_schema(operation_id="club_rename", tags=["clubs"],
                   summary="Rename a club: events not yet played take the new name, events already played keep the "
                           "name they were played under",
                   request=IdentityRenameSerializer,
                   responses={200: ClubIdentitySerializer, **RENAME_REFUSED, **error_responses(401, 403, 404)},
                   examples=[OpenApiExample("Rename", value={"name": "Couva All Fours Club"}, request_only=True),
                             OpenApiExample("Renamed", value=CLUB, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        return _rename(request, Club, pk, club_update, ClubIdentitySerializer, "club")


class ClubMergeView(_IdentityView):
    @extend_schema(operation_id="club_merge", tags=["clubs"],
                   summary="Merge a spelling variant into this club: its players, pairs, entries, teams and team "
                           "matches move here, its name is kept as an alias, and it is deleted; the events it played "
                           "keep the name they were played under",
                   request=ClubMergeSerializer,
                   responses={200: ClubMergeResultSerializer, **CLUB_MERGE_REFUSED, **error_responses(401, 403, 404)},
                   examples=[OpenApiExample("Merge", value={"variant": 2}, request_only=True),
                             OpenApiExample("Merged", response_only=True, value={
                                 "club": CLUB, "aliases_added": ["Couva AFC"],
                                 "moved": {"pairs": 3, "players": 6, "entries": 4, "teams": 0, "team_matches": 0,
                                           "aliases": 0}})])
    def post(self, request: Request, pk: int) -> Response:
        return _merge(request, Club, pk, ClubMergeSerializer, club_merge, ClubMergeResultSerializer, "club")


# ---- players ----------------------------------------------------------------------------------------------


class PlayerAliasesView(_IdentityView):
    @extend_schema(operation_id="player_aliases", tags=["players"],
                   summary="One of your players with the other names they are known by (their aliases)",
                   responses={200: PlayerIdentitySerializer, **error_responses(401, 404)},
                   examples=[OpenApiExample("Player and aliases", value=PLAYER, response_only=True)])
    def get(self, request: Request, pk: int) -> Response:
        return Response(PlayerIdentitySerializer(_visible(Player.objects.all(), request, pk)).data)


class PlayerRenameView(_IdentityView):
    @extend_schema(operation_id="player_rename", tags=["players"], summary="Rename a player",
                   request=IdentityRenameSerializer,
                   responses={200: PlayerIdentitySerializer, **error_responses(400, 401, 403, 404)},
                   examples=[OpenApiExample("Rename", value={"name": "Kenrick Baptiste"}, request_only=True),
                             OpenApiExample("Renamed", value=PLAYER, response_only=True)])
    def post(self, request: Request, pk: int) -> Response:
        return _rename(request, Player, pk, player_update, PlayerIdentitySerializer, "player")


class PlayerMergeView(_IdentityView):
    @extend_schema(operation_id="player_merge", tags=["players"],
                   summary="Merge a spelling variant into this player: their pairs, entries and substitutions move "
                           "here, the variant's name is kept as an alias, and the variant is deleted (409 "
                           "player_entered_twice when both play in one event or partner each other)",
                   request=PlayerMergeSerializer,
                   responses={200: PlayerMergeResultSerializer, **PLAYER_MERGE_REFUSED, **error_responses(401, 403, 404)},
                   examples=[OpenApiExample("Merge", value={"variant": 8}, request_only=True),
                             OpenApiExample("Merged", response_only=True, value={
                                 "player": PLAYER, "aliases_added": ["Kenric Baptiste"],
                                 "moved": {"pairs": 1, "entries": 2, "substitutions": 0, "aliases": 0}})])
    def post(self, request: Request, pk: int) -> Response:
        return _merge(request, Player, pk, PlayerMergeSerializer, player_merge, PlayerMergeResultSerializer, "player")
