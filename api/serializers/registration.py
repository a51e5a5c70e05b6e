"""Registration over the API: the import's preview and its rows, check-in (availability) per round.

HTTP translation only: the rows are checked by the services (``tournaments.services.import_preview``), the
states by ``tournaments.services.checkin``; these serializers say the shapes for the OpenAPI document.
"""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Availability
from tournaments.services.import_preview import MAX_ROWS

STATES = [choice for choice, _ in Availability.State.choices]
FIELD_STATES = [*STATES, "not_checked_in"]


class ImportUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A CSV (UTF-8, or Windows text) or XLSX file: first row player_1, "
                                           "player_2, club, seed; optional tags and byes.")


class ImportRowSerializer(serializers.Serializer):
    """One row as the preview returned it, corrected or not (``tags`` and ``byes`` may also be lists)."""

    line = serializers.IntegerField(required=False, min_value=1, help_text="The file's line, for messages.")
    player_1 = serializers.CharField(allow_blank=True, required=False)
    player_2 = serializers.CharField(allow_blank=True, required=False)
    club = serializers.CharField(allow_blank=True, required=False)
    seed = serializers.CharField(allow_blank=True, required=False, help_text="A whole number above 0, or empty.")
    tags = serializers.JSONField(required=False, help_text='"ladies; juniors" or ["ladies", "juniors"]; a row '
                                                          "without it leaves an entry's tags as they are.")
    byes = serializers.JSONField(required=False, help_text='Requested bye rounds: "2; 4" or [2, 4].')


class ImportRowsSerializer(serializers.Serializer):
    rows = serializers.JSONField(help_text=f"Every row to store (at most {MAX_ROWS}): the preview's rows, "
                                           "corrected; checked again by the service.")


class PreviewRowSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    line = serializers.IntegerField()
    player_1 = serializers.CharField()
    player_2 = serializers.CharField()
    club = serializers.CharField()
    seed = serializers.CharField()
    tags = serializers.CharField()
    byes = serializers.CharField()
    ok = serializers.BooleanField()
    errors = serializers.DictField(child=serializers.CharField(),
                                   help_text="column (or `row`) -> what to fix; empty when the row is good.")
    actions = serializers.DictField(child=serializers.CharField(),
                                    help_text="club, player_1, player_2, pair: new / existing (club: none); entry: "
                                              "new / update / same.")
    matched = serializers.DictField(child=serializers.IntegerField(allow_null=True),
                                    help_text="The ids of the records matched by name (null: to be created).")
    outcome = serializers.CharField(help_text="What confirming will do, in a sentence.")


class PreviewCountsSerializer(serializers.Serializer):
    rows = serializers.IntegerField()
    rows_with_errors = serializers.IntegerField()
    clubs_new = serializers.IntegerField()
    players_new = serializers.IntegerField()
    pairs_new = serializers.IntegerField()
    pairs_existing = serializers.IntegerField()
    entries_new = serializers.IntegerField()
    entries_updated = serializers.IntegerField()


class ImportPreviewSerializer(serializers.Serializer):
    filename = serializers.CharField()
    kind = serializers.CharField(help_text="csv or xlsx (empty for rows sent back).")
    ok = serializers.BooleanField(help_text="Every row can be stored as it is.")
    counts = PreviewCountsSerializer()
    ignored_columns = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField())
    rows = PreviewRowSerializer(many=True)


class ImportCommitResultSerializer(serializers.Serializer):
    pairs_created = serializers.IntegerField()
    pairs_existing = serializers.IntegerField()
    players_created = serializers.IntegerField()
    clubs_created = serializers.IntegerField()
    entries_created = serializers.IntegerField()
    entries_updated = serializers.IntegerField()
    byes_requested = serializers.IntegerField()
    summary = serializers.CharField()


class AvailabilitySerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=STATES, help_text="present, absent, or bye (a requested bye: Swiss "
                                                              "events of pairs).")


class AvailabilityResultSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    round = serializers.IntegerField()
    state = serializers.ChoiceField(choices=STATES)


class FieldEntrySerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    pair_name = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=FIELD_STATES)
    recorded = serializers.BooleanField(help_text="False where the state is the default (nobody recorded it).")
    fee_paid = serializers.BooleanField()


class RoundFieldSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    requires_check_in = serializers.BooleanField()
    counts = serializers.DictField(child=serializers.IntegerField())
    entries = FieldEntrySerializer(many=True)
