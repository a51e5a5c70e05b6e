"""The archive over the API (docs/archive.md): ``GET /tournaments/<id>/archive/`` exports an event (any role on
it), ``POST /archives/preview/`` says what importing a document would create, ``POST /archives/`` imports it
(an account that may organise; ``?organisation=<id>`` names the organisation its people go into, default the
caller's personal one). The body is the archive document itself (up to 32 MB, strict JSON). Every refusal is
the one error shape: ``archive_invalid`` and ``archive_mismatch`` name the document's path in ``fields``."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Organisation
from tournaments.services.archive import (
    archive_export,
    archive_filename,
    archive_import_summary,
    archive_preview,
)
from tournaments.services.archive.schema import MAX_ARCHIVE_BYTES

from ..errors import PayloadTooLarge
from ..parsers import check_clean
from ..permissions import IsOrganiser, MayOrganise, organiser_user
from ..schema import ErrorSerializer
from ..serializers.archive import ArchiveImportedSerializer, ArchivePreviewSerializer
from .scoping import TournamentScopedMixin

ORGANISATION = OpenApiParameter(
    name="organisation", type=OpenApiTypes.INT, location=OpenApiParameter.QUERY, required=False,
    description="The organisation (id) whose clubs, players and pairs the archive's are matched with or added to "
                "(you must be a member); default: your personal organisation.")
PREVIEW_EXAMPLE = {"name": "Hang Jack Demo Open", "slug": "hang-jack-demo-open-2", "slug_changed": True,
                   "organisation": "Marcia Ali", "exported_at": "2026-12-01T17:05:00Z",
                   "counts": {"entries": 16, "rounds": 3, "team_matches": 0, "boards": 24, "games": 41, "hands": 215,
                              "live_hands": 213, "confirmations": 60, "prizes": 0},
                   "people": {"clubs": {"matched": 4, "created": 0}, "players": {"matched": 0, "created": 32},
                              "pairs": {"matched": 0, "created": 16}}}
MISMATCH = {"error": {"code": "archive_mismatch",
                      "message": "The archive does not match what its hands give: round 1, table 2, game 1, hand 4: "
                                 "the archive says score 8-7, the hand gives 9-7. ...",
                      "fields": {"hands[57].result.score": "round 1, table 2, game 1, hand 4: the archive says score "
                                                           "8-7, the hand gives 9-7"}}}


def _refusal(description: str, code: str, message: str, **extra: Any) -> OpenApiResponse:
    body = {"error": {"code": code, "message": message, **extra}}
    return OpenApiResponse(ErrorSerializer, description=description,
                           examples=[OpenApiExample(description, value=body, response_only=True)])


REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="Not an archive, a shape or reference at fault "
                         "(archive_not_json, archive_format, archive_version, archive_invalid), or a result that "
                         "differs from what its hands give (archive_mismatch)",
                         examples=[OpenApiExample("A changed hand", value=MISMATCH, response_only=True)]),
    401: _refusal("Not signed in", "not_authenticated", "Sign in first."),
    403: _refusal("May not organise, or not a member of the organisation", "not_owner",
                  "This organisation belongs to another organisation: only its members may change or use it.",
                  fields={"owner": "This organisation belongs to another organisation: only its members may "
                                   "change or use it."}),
    404: _refusal("No such organisation", "not_found", "No such organisation."),
    413: _refusal("Larger than 32 MB", "payload_too_large", "The request body is too large."),
}
ARCHIVE_EXAMPLE = {
    "format": "hangjack-archive", "version": 1, "exported_at": "2026-12-01T17:05:00Z",
    "tournament": {"name": "Hang Jack Demo Open", "slug": "hang-jack-demo-open", "status": "running",
                   "rules": "trinidad-tournament", "entrant_type": "pairs", "pairing_system": "swiss",
                   "match_format": {"kind": "first_to", "n": 2}, "tiebreaks": ["match_points", "bullseye_difference"],
                   "bye_policy": {"result": "win"}, "forfeit_policy": {"result": "win"}},
    "people": {"clubs": [{"id": 1, "name": "Couva Kings", "short_name": "CK", "town": "Couva"}],
               "players": [{"id": 1, "name": "Anil Ramdass", "club": 1}, {"id": 2, "name": "Keisha Mohammed", "club": 1}],
               "pairs": [{"id": 1, "name": "", "player_1": 1, "player_2": 2, "club": 1, "seed": 1}]},
    "entries": [{"id": 1, "pair": 1, "seed": 1}], "availability": [],
    "rounds": [{"number": 1, "status": "closed"}], "team_matches": [],
    "boards": ["... one per board, with its derived result ..."],
    "games": ["... one per game, with its rules and derived result ..."],
    "hands": [{"game": 1, "number": 1, "version": 1, "status": "active", "supersedes": None, "dealer": 0,
               "form": "tally", "record": {"dealer": 0, "kicks": ["9H"], "beg": "stand", "high": {"side": 1, "card": "AH"},
                                           "low": {"side": 0, "card": "2H"}, "jack": None, "game": [41, 36]},
               "result": {"trump": "H", "events": [{"kind": "high", "side": 1, "points": 1, "card": "AH"}],
                          "score": [3, 1], "winner": None, "next_dealer": 1},
               "at": "2026-12-01T14:02:11Z", "voided_at": None, "by": {"kind": "tablet", "table": 1}}],
    "confirmations": [], "prizes": [], "standings": {"after_round": 1, "pairs": [], "clubs": []},
}
REQUEST_EXAMPLE = OpenApiExample("An archive (abridged)", value=ARCHIVE_EXAMPLE, request_only=True)


class ArchiveJSONParser(JSONParser):
    """application/json up to the archive's limit (the API's other bodies stop at 256 kB), strict and NUL-free."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        request = (parser_context or {}).get("request")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        except (TypeError, ValueError):
            length = 0
        if length > MAX_ARCHIVE_BYTES:
            raise PayloadTooLarge()
        raw = stream.read(MAX_ARCHIVE_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_ARCHIVE_BYTES:
            raise PayloadTooLarge()
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError("The body is not valid JSON.") from exc
        check_clean(data)
        return data


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _organisation(request: Request) -> Organisation | None:
    raw = request.query_params.get("organisation")
    if raw in (None, ""):
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise NotFound("No such organisation.")
    found = Organisation.objects.filter(pk=int(raw)).first()
    if found is None:
        raise NotFound("No such organisation.")
    return found


class TournamentArchiveView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(operation_id="tournament_archive", tags=["tournaments"],
                   summary="The event as one archive document (docs/archive.md; its schema "
                           "docs/schemas/archive-v1.schema.json): settings, people, boards, every hand version, "
                           "confirmations, standings. No tokens or e-mail addresses.",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The archive document", examples=[
                       OpenApiExample("An archive (abridged)", value=ARCHIVE_EXAMPLE, response_only=True)]),
                              401: REFUSALS[401],
                              403: _refusal("Not one of the event's people", "not_organiser",
                                            "You are not an organiser of this tournament."),
                              404: _refusal("No such tournament", "not_found", "No such tournament.")})
    def get(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        document = archive_export(tournament=tournament, user=organiser_user(request))
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="{archive_filename(tournament)}"'
        return response


class ArchivePreviewView(APIView):
    permission_classes = [MayOrganise]
    parser_classes = [ArchiveJSONParser]

    @extend_schema(operation_id="archive_preview", tags=["tournaments"],
                   summary="What importing this archive would create (checked as the import checks it: every live "
                           "hand replayed); nothing is written",
                   parameters=[ORGANISATION], request=OpenApiTypes.OBJECT,
                   responses={200: ArchivePreviewSerializer, **REFUSALS},
                   examples=[OpenApiExample("Preview", value=PREVIEW_EXAMPLE, response_only=True), REQUEST_EXAMPLE])
    def post(self, request: Request) -> Response:
        preview = archive_preview(document=request.data, user=organiser_user(request), owner=_organisation(request))
        return Response(ArchivePreviewSerializer(preview.to_dict()).data)


class ArchiveImportView(APIView):
    permission_classes = [MayOrganise]
    parser_classes = [ArchiveJSONParser]

    @extend_schema(operation_id="archive_import", tags=["tournaments"],
                   summary="Import an archive as a new event you organise (all or nothing; every result derived "
                           "again from the hands and compared)",
                   parameters=[ORGANISATION], request=OpenApiTypes.OBJECT,
                   responses={201: ArchiveImportedSerializer, **REFUSALS},
                   examples=[OpenApiExample("Imported", value={**PREVIEW_EXAMPLE, "id": 12}, response_only=True,
                                            status_codes=["201"]), REQUEST_EXAMPLE])
    def post(self, request: Request) -> Response:
        tournament, summary = archive_import_summary(document=request.data, user=organiser_user(request),
                                                     owner=_organisation(request))
        body = {**summary.to_dict(), "id": tournament.pk, "slug": tournament.slug}
        return Response(ArchiveImportedSerializer(body).data, status=status.HTTP_201_CREATED)


__all__ = ["ArchiveImportView", "ArchivePreviewView", "TournamentArchiveView"]
