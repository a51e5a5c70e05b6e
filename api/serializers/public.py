"""What the public reads: published tournaments, rounds, pairings, scorecards, standings, statistics.

Standings count confirmed games only (the latest snapshot); boards in play carry their live score apart.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Board, Entry, Game, Hand, Round, Tournament
from tournaments.selectors.clock import OPEN_ROUND_STATUSES, round_clock
from tournaments.selectors.memo import kept_with
from tournaments.selectors.public import entry_seats

ENTRY_SCHEMA = {
    "type": "object",
    "properties": {
        "entry": {"type": "integer"}, "name": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
        "club": {"type": ["string", "null"]},
        "substitutes": {
            "type": "array", "description": "Only on a board where a substitute plays for the pair.",
            "items": {"type": "object", "properties": {"in": {"type": "string"}, "out": {"type": "string"},
                                                       "from_round": {"type": "integer"}}},
        },
    },
}


def entry_data(entry: Entry | None, board: Board | None = None) -> dict[str, Any] | None:
    """An entry as the public reads show it. On a board of a round from which a substitute plays for it,
    ``players`` names them "(sub for ...)" and ``substitutes`` lists them; otherwise (and for every entry of
    an event without substitutes) the shape is as it always was."""
    if entry is None:
        return None
    pair = entry.pair
    data: dict[str, Any] = {
        "entry": entry.pk,
        "name": pair.display_name,
        "players": [pair.player_1.name, pair.player_2.name],
        "club": entry.club_label or None,
    }
    if entry.substitutions_count and board is not None:
        seats = entry_seats(entry, board.round.number)
        if any(seat.replaced is not None for seat in seats):
            data["players"] = [seat.label for seat in seats]
            data["substitutes"] = [{"in": s.player.name, "out": s.replaced.name, "from_round": s.from_round}
                                   for s in seats if s.replaced is not None]
    return data


class PublicTournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["id", "name", "slug", "venue", "starts_on", "ends_on", "status", "rules", "rules_resolved",
                  "entrant_type", "pairing_system", "match_format", "team_format", "rounds_planned", "tiebreaks"]
        read_only_fields = fields


CLOCK_SCHEMA = {
    "oneOf": [{"type": "null"}, {
        "type": "object", "required": ["ends_at", "ends_local", "time_zone", "time_called"],
        "properties": {
            "ends_at": {"type": "string", "format": "date-time", "description": "When time is called."},
            "ends_local": {"type": "string", "description": "That time at the venue, HH:MM."},
            "time_zone": {"type": "string", "description": "The venue's time zone."},
            "time_called": {"type": "boolean", "description": "Time was called when this answer was made "
                                                              "(the answer may be a published file: compare "
                                                              "ends_at with the time now)."},
        },
    }],
    "description": "The round's clock while it is in play (null: no time limit, or not in play). No seconds "
                   "left: the answer is published as a file, so a reader counts down from ends_at.",
}


def round_clock_data(round_: Round) -> dict[str, Any] | None:
    """A live round's clock as the public JSON gives it (``tournaments.selectors.clock.round_clock``)."""
    if round_.ends_at is None or round_.status not in OPEN_ROUND_STATUSES:
        return None
    clock = round_clock(round_)
    return {"ends_at": clock.ends_at.isoformat() if clock.ends_at else None, "ends_local": clock.ends_local,
            "time_zone": clock.zone, "time_called": clock.time_called}


class PublicRoundSerializer(serializers.ModelSerializer):
    clock = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["number", "status", "match_format", "published_at", "closed_at", "clock"]
        read_only_fields = fields

    @extend_schema_field(CLOCK_SCHEMA)
    def get_clock(self, round_: Round) -> dict[str, Any] | None:
        return round_clock_data(round_)


RESULT_SOURCE_HELP = "Where the result comes from: hands (played), forfeit, bye or time_called."
FORFEITED_HELP = "Who did not play a forfeited board: 0 pair A, 1 pair B, 2 both (a loss for each); null when played."


def forfeit_result(board: Board) -> str | None:
    """A forfeited board's result in words (``forfeit: B did not play; A wins 2-0``); None when played."""
    if board.forfeited is None:
        return None
    if board.forfeited not in (0, 1):
        return "forfeit: neither pair played"
    absent, present = ("A", "B") if board.forfeited == 0 else ("B", "A")
    high, low = max(board.bullseyes_a, board.bullseyes_b), min(board.bullseyes_a, board.bullseyes_b)
    return f"forfeit: {absent} did not play; {present} wins {high}-{low}"


class PublicBoardSerializer(serializers.Serializer):
    """A pairing with its live standing (``web.selectors.BoardSummary``)."""

    board = serializers.IntegerField(source="board.pk")
    table = serializers.IntegerField(allow_null=True)
    pair_a = serializers.SerializerMethodField()
    pair_b = serializers.SerializerMethodField()
    status = serializers.CharField()
    result = serializers.SerializerMethodField(
        help_text="`A won 2-1`, `B leads 1-0`, `level 1-1`, `not started`, `bye`, `forfeit: B did not play; A wins "
                  "2-0`, `forfeit: neither pair played`.")
    result_source = serializers.CharField(source="board.result_source", help_text=RESULT_SOURCE_HELP)
    forfeited = serializers.IntegerField(source="board.forfeited", allow_null=True, help_text=FORFEITED_HELP)
    games_won = serializers.ListField(child=serializers.IntegerField(), help_text="Finished games won (live).")
    confirmed_won = serializers.ListField(child=serializers.IntegerField(), help_text="Confirmed games won.")
    games_finished = serializers.IntegerField()
    games_confirmed = serializers.IntegerField()
    current_game = serializers.IntegerField(allow_null=True)
    current_score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    hands_played = serializers.IntegerField()
    help_called = serializers.BooleanField()

    def to_representation(self, instance: Any) -> Any:
        # inside a publisher's render, kept across renders while the board's summary is the same object
        # (``memo.kept_with``): a round's JSON lists 500 boards at 1,000 pairs, about twenty changed a render
        return kept_with(instance, ("public_board_json", getattr(instance.board, "pk", None)),
                         lambda: super(PublicBoardSerializer, self).to_representation(instance))

    def get_result(self, summary: Any) -> str:
        return forfeit_result(summary.board) or summary.result

    @extend_schema_field(ENTRY_SCHEMA)
    def get_pair_a(self, summary: Any) -> dict[str, Any] | None:
        return entry_data(summary.pair_a, summary.board)

    @extend_schema_field({"oneOf": [{"type": "null"}, ENTRY_SCHEMA]})
    def get_pair_b(self, summary: Any) -> dict[str, Any] | None:
        return entry_data(summary.pair_b, summary.board)


class PublicRoundDetailSerializer(serializers.Serializer):
    round = PublicRoundSerializer()
    boards = PublicBoardSerializer(many=True)


class PublicHandSerializer(serializers.ModelSerializer):
    score = serializers.JSONField(source="score_after")
    record = serializers.JSONField()
    events = serializers.JSONField()

    class Meta:
        model = Hand
        fields = ["number", "version", "dealer", "form", "record", "trump", "events", "score", "winner", "next_dealer"]
        read_only_fields = fields


class PublicGameSerializer(serializers.ModelSerializer):
    score = serializers.JSONField()
    hands = PublicHandSerializer(many=True, source="active_hands")

    class Meta:
        model = Game
        fields = ["number", "status", "first_dealer", "score", "winner", "awarded", "confirmed", "hands"]
        read_only_fields = fields


class PublicScorecardSerializer(serializers.Serializer):
    board = serializers.IntegerField(source="board.pk")
    round = serializers.IntegerField(source="board.round.number")
    table = serializers.IntegerField(source="board.table", allow_null=True)
    status = serializers.CharField(source="board.status")
    result_source = serializers.CharField(source="board.result_source", help_text=RESULT_SOURCE_HELP)
    forfeited = serializers.IntegerField(source="board.forfeited", allow_null=True, help_text=FORFEITED_HELP)
    pair_a = serializers.SerializerMethodField()
    pair_b = serializers.SerializerMethodField()
    seating = serializers.JSONField(source="board.seating")
    games = PublicGameSerializer(many=True)

    @extend_schema_field(ENTRY_SCHEMA)
    def get_pair_a(self, card: dict[str, Any]) -> dict[str, Any] | None:
        return entry_data(card["board"].pair_a, card["board"])

    @extend_schema_field({"oneOf": [{"type": "null"}, ENTRY_SCHEMA]})
    def get_pair_b(self, card: dict[str, Any]) -> dict[str, Any] | None:
        return entry_data(card["board"].pair_b, card["board"])


class StandingsColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    short = serializers.CharField()
    name = serializers.CharField()


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.JSONField()
    entry = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    club = serializers.CharField()
    values = serializers.DictField(help_text="Column key -> value, in the order of `columns`.")


class ClubStandingsRowSerializer(serializers.Serializer):
    rank = serializers.JSONField()
    club = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    values = serializers.DictField(help_text="Column key -> value, in the order of `columns`.")


class ClubStandingsSerializer(serializers.Serializer):
    basis = serializers.ChoiceField(
        choices=["team_matches", "pairs"],
        help_text="team_matches: a club-team event's team matches (a bye in `byes`, never in `played`); "
                  "pairs: each club's pairs' rows added up.")
    columns = StandingsColumnSerializer(many=True)
    rows = ClubStandingsRowSerializer(many=True)


class PublicStandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    columns = StandingsColumnSerializer(many=True)
    rows = StandingsRowSerializer(many=True)
    clubs = ClubStandingsSerializer(help_text="The team (club) table from the same snapshot.")


class PairStatsSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField(source="entry.pair.display_name")
    games = serializers.IntegerField()
    bullseyes = serializers.IntegerField()
    hang_jacks_for = serializers.IntegerField()
    hang_jacks_against = serializers.IntegerField()
    kicks = serializers.IntegerField()
    kick_chalks = serializers.IntegerField()
    jacks_kicked = serializers.IntegerField()
    highest_game_count = serializers.IntegerField()
    longest_straight = serializers.IntegerField()


class RecordSerializer(serializers.Serializer):
    label = serializers.CharField()
    value = serializers.IntegerField()
    entries = serializers.SerializerMethodField()
    detail = serializers.CharField()

    @extend_schema_field({"type": "array", "items": {"type": "integer"}})
    def get_entries(self, record: Any) -> list[int]:
        return [entry.pk for entry in record.entries]


class PublicStatisticsSerializer(serializers.Serializer):
    pairs = PairStatsSerializer(many=True)
    records = RecordSerializer(many=True)
