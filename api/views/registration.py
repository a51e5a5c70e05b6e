"""Registration over the API: import pairs with a preview, and check-in (availability per round).

* ``POST /tournaments/{id}/entries/import/preview/`` (multipart ``file``): every row and what storing it
  would do, with per-field errors; nothing is stored (``pairs_import_preview``).
* ``POST /tournaments/{id}/entries/import/check/`` (``{"rows": [...]}``): the same for corrected rows.
* ``POST /tournaments/{id}/entries/import/`` (``{"rows": [...]}``): store every row, or none
  (``pairs_import_commit``; 400 ``import_rows_invalid`` with ``fields`` ``rows[i].<column>``).
* ``GET /tournaments/{id}/availability/{round}/``: the round's field (present, absent, bye, not checked in).
* ``PUT /tournaments/{id}/entries/{entry}/availability/{round}/`` (``{"state"}``): check a pair in
  (``entry_check_in``; an organiser or a scorekeeper).

Each view validates HTTP input, calls one service or selector and shapes the answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import ValidationFailed
from tournaments.models import Entry
from tournaments.selectors.availability import round_field
from tournaments.services.checkin import entry_check_in, round_number_clean
from tournaments.services.import_preview import (
    MAX_BYTES,
    pairs_import_check,
    pairs_import_commit,
    pairs_import_preview,
)

from ..permissions import IsOrganiser, organiser_user
from ..schema import error_responses
from ..serializers.registration import (
    AvailabilityResultSerializer,
    AvailabilitySerializer,
    ImportCommitResultSerializer,
    ImportPreviewSerializer,
    ImportRowsSerializer,
    ImportUploadSerializer,
    RoundFieldSerializer,
)
from .scoping import TournamentScopedMixin, get_or_404

ROW_EXAMPLE = {"line": 2, "player_1": "Kenrick Baptiste", "player_2": "Ria Mohammed", "club": "Couva Kings",
               "seed": "1", "tags": "ladies; juniors", "byes": ""}
BAD_ROW_EXAMPLE = {"line": 3, "player_1": "", "player_2": "Joy Charles", "club": "Couva Kings", "seed": "two",
                   "tags": "", "byes": "3"}
PREVIEW_EXAMPLE = {
    "filename": "carnival-open.csv", "kind": "csv", "ok": False,
    "counts": {"rows": 2, "rows_with_errors": 1, "clubs_new": 0, "players_new": 2, "pairs_new": 1,
               "pairs_existing": 0, "entries_new": 1, "entries_updated": 0},
    "ignored_columns": ["phone"], "notes": [],
    "rows": [
        {"index": 0, **ROW_EXAMPLE, "ok": True, "errors": {},
         "actions": {"club": "existing", "player_1": "new", "player_2": "new", "pair": "new", "entry": "new"},
         "matched": {"club": 3, "player_1": None, "player_2": None, "pair": None, "entry": None},
         "outcome": "New pair of two new players; club Couva Kings; entered."},
        {"index": 1, **BAD_ROW_EXAMPLE, "ok": False,
         "errors": {"player_1": "player_1 is empty", "seed": "seed 'two' is not a whole number above 0"},
         "actions": {}, "matched": {}, "outcome": "Fix the errors to import this row."},
    ],
}
FIXED_ROWS = {"rows": [ROW_EXAMPLE, {**BAD_ROW_EXAMPLE, "player_1": "Anil Ramdeen", "seed": "2"}]}
ROWS_INVALID = {"error": {"code": "import_rows_invalid", "message": "Nothing stored: line 3 has an error to fix.",
                          "fields": {"rows[1].player_1": "player_1 is empty"}}}


def _examples_400(*cases: tuple[str, dict[str, Any]]) -> list[OpenApiExample]:
    return [OpenApiExample(name, value=value, response_only=True, status_codes=["400"]) for name, value in cases]


class ImportPreviewView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="entries_import_preview", tags=["entries"],
        summary="Preview an import of pairs (CSV or XLSX): every row, what storing it would do, and its errors; "
                "nothing is stored",
        request={"multipart/form-data": ImportUploadSerializer},
        responses={200: ImportPreviewSerializer, **error_responses(409)},
        examples=[
            OpenApiExample("A CSV file", value={"file": "carnival-open.csv"}, request_only=True,
                           media_type="multipart/form-data"),
            OpenApiExample("Two rows, one to fix", value=PREVIEW_EXAMPLE, response_only=True, status_codes=["200"]),
            *_examples_400(("A column missing", {"error": {
                "code": "import_unreadable", "message": "The first row must name the columns player_1, player_2, "
                "club, seed (tags and byes may follow); missing: seed.", "fields": {"file": "..."}}})),
        ],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        upload = ImportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        file = upload.validated_data["file"]
        if file.size > MAX_BYTES:
            text = f"The file is larger than {MAX_BYTES // 1_000_000} MB: split the list."
            raise ValidationFailed("import_too_large", text, fields={"file": text})
        preview = pairs_import_preview(data=file.read(), filename=file.name or "", tournament=tournament,
                                       user=organiser_user(request))
        return Response(ImportPreviewSerializer(preview.as_dict()).data)


class ImportCheckView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="entries_import_check", tags=["entries"],
        summary="Preview corrected rows again (as the preview returned them, fixed); nothing is stored",
        request=ImportRowsSerializer, responses={200: ImportPreviewSerializer, **error_responses(409)},
        examples=[
            OpenApiExample("The rows, fixed", value=FIXED_ROWS, request_only=True),
            OpenApiExample("Every row good", value={**PREVIEW_EXAMPLE, "filename": "", "kind": "", "ok": True,
                                                    "rows": PREVIEW_EXAMPLE["rows"][:1]},
                           response_only=True, status_codes=["200"]),
        ],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        body = ImportRowsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        preview = pairs_import_check(rows=body.validated_data["rows"], tournament=tournament,
                                     user=organiser_user(request))
        return Response(ImportPreviewSerializer(preview.as_dict()).data)


class ImportCommitView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="entries_import_commit", tags=["entries"],
        summary="Store the import: every row (clubs, players, pairs, entries, tags, requested byes) in one "
                "transaction, or nothing while a row has an error",
        request=ImportRowsSerializer, responses={201: ImportCommitResultSerializer, **error_responses(409)},
        examples=[
            OpenApiExample("The rows, fixed", value=FIXED_ROWS, request_only=True),
            OpenApiExample("Stored", value={
                "pairs_created": 2, "pairs_existing": 0, "players_created": 4, "clubs_created": 0,
                "entries_created": 2, "entries_updated": 0, "byes_requested": 1,
                "summary": "2 pairs entered, 0 updated; 2 new pairs, 4 new players, 0 new clubs; 1 byes requested"},
                response_only=True, status_codes=["201"]),
            *_examples_400(("A row still wrong", ROWS_INVALID)),
        ],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        body = ImportRowsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = pairs_import_commit(rows=body.validated_data["rows"], tournament=tournament,
                                     user=organiser_user(request))
        return Response(ImportCommitResultSerializer({**result.as_dict(), "summary": result.summary()}).data,
                        status=status.HTTP_201_CREATED)


FIELD_EXAMPLE = {"round": 1, "requires_check_in": False, "counts": {"present": 1, "absent": 1, "bye": 0,
                                                                     "not_checked_in": 0},
                 "entries": [
                     {"entry": 12, "pair_name": "Kenrick Baptiste & Ria Mohammed", "club": "Couva Kings", "seed": 1,
                      "state": "present", "recorded": False, "fee_paid": True},
                     {"entry": 13, "pair_name": "Anil Ramdeen & Joy Charles", "club": "Couva Kings", "seed": 2,
                      "state": "absent", "recorded": True, "fee_paid": False},
                 ]}


class RoundFieldView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="availability_round", tags=["entries"],
        summary="Who plays a round: each entry present, absent, with a requested bye, or not checked in (where "
                "the event requires check-in)",
        responses={200: RoundFieldSerializer},
        examples=[OpenApiExample("Round 1", value=FIELD_EXAMPLE, response_only=True, status_codes=["200"])],
    )
    def get(self, request: Request, tournament_pk: int, number: int) -> Response:
        tournament = self.tournament
        number = round_number_clean(number, field="round")
        field = round_field(tournament, number)
        body = {"round": number, "requires_check_in": field.requires_check_in, "counts": field.counts(),
                "entries": [{"entry": row.entry.pk, "pair_name": row.entry.pair.display_name,
                             "club": row.entry.club_label or None,
                             "seed": row.entry.seed, "state": row.state, "recorded": row.recorded,
                             "fee_paid": row.entry.fee_paid} for row in field.entries]}
        return Response(RoundFieldSerializer(body).data)


class AvailabilityView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]
    tournament_action = "check_in"  # a scorekeeper at the door may (tournaments.roles)

    @extend_schema(
        operation_id="entry_availability_set", tags=["entries"],
        summary="Check a pair in for a round: present, absent or a requested bye (before the round is paired; "
                "an organiser or a scorekeeper)",
        request=AvailabilitySerializer,
        responses={200: AvailabilityResultSerializer, **error_responses(409)},
        examples=[
            OpenApiExample("Absent", value={"state": "absent"}, request_only=True),
            OpenApiExample("Recorded", value={"entry": 13, "round": 1, "state": "absent"}, response_only=True,
                           status_codes=["200"]),
        ],
    )
    def put(self, request: Request, tournament_pk: int, entry_pk: int, number: int) -> Response:
        tournament = self.tournament
        entry = get_or_404(Entry.objects.filter(tournament=tournament), pk=entry_pk)
        body = AvailabilitySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        state = body.validated_data["state"]
        entry_check_in(entry=entry, round_number=number, state=state, user=organiser_user(request))
        return Response(AvailabilityResultSerializer({"entry": entry.pk, "round": number, "state": state}).data)
