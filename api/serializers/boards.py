"""Boards, games and hands: the tablet's writes (seating, hands, undo, confirmations), the organiser's
corrections, and the answers (a hand as stored, the board's state)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from tournaments.models import Board, Game, Hand

from ..schema import HAND_REF
from .events import ClockSerializer

MAX_NUMBER = 10_000


@extend_schema_field(HAND_REF)
class HandRecordField(serializers.JSONField):
    """A hand record of docs/hand-format.md v1 (tally, play or misdeal form); the engine checks the rest."""

    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if not isinstance(data, dict):
            raise serializers.ValidationError("A hand record is a JSON object (docs/hand-format.md).")
        return data


@extend_schema_field(
    {
        "oneOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {str(seat): {"type": "integer"} for seat in range(4)},
                "additionalProperties": False,
            },
        ],
        "description": "Seat (0-3) -> player id: seats 0 and 2 for pair A, 1 and 3 for pair B.",
    }
)
class SeatingField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if data is not None and not isinstance(data, dict):
            raise serializers.ValidationError('Seat -> player id, e.g. {"0": 12, "1": 7, "2": 13, "3": 8}.')
        return data


class SeatingSerializer(serializers.Serializer):
    seating = SeatingField(allow_null=True, required=False, default=None)
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, help_text="The seat that deals hand 1 (after the cut).")


class HandSubmitSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="The game number the hand belongs to.")
    number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="The hand's number in the game.")
    hand = HandRecordField()


class HandPreviewSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, required=False,
                                    help_text="The game number (default: the current game).")
    hand = HandRecordField()


class UndoSerializer(serializers.Serializer):
    hand = serializers.IntegerField(min_value=1, max_value=2**63 - 1,
                                    help_text="The id of the hand to void: the board's last (`last_hand_id`).")


class TabletConfirmationSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="The finished game's number.")
    side = serializers.ChoiceField(choices=["a", "b"], help_text="The pair giving its word: A or B.")
    agrees = serializers.BooleanField(default=True, help_text="false: the pair refuses the result (a dispute).")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["agrees"] and not attrs["reason"].strip():
            raise serializers.ValidationError({"reason": "Say why the pair refuses the result."})
        return attrs


class HandSerializer(serializers.ModelSerializer):
    """A hand as stored: the record as submitted and what the engine scored for it."""

    game = serializers.IntegerField(source="game.number", read_only=True)
    board = serializers.IntegerField(source="game.board_id", read_only=True)
    record = serializers.JSONField()
    score = serializers.JSONField(source="score_after")
    events = serializers.JSONField()
    trump = serializers.SerializerMethodField()
    game_status = serializers.CharField(source="game.status", read_only=True)

    class Meta:
        model = Hand
        fields = ["id", "board", "game", "number", "version", "status", "form", "dealer", "record", "trump", "events",
                  "score", "winner", "next_dealer", "game_status", "created_at", "voided_at"]
        read_only_fields = fields

    def get_trump(self, hand: Hand) -> str | None:
        return hand.trump or None


class HandCorrectionSerializer(serializers.Serializer):
    hand = HandRecordField(help_text="The corrected record; it keeps the dealer of the hand it replaces.")


class HandVoidSerializer(serializers.Serializer):
    with_later = serializers.BooleanField(default=False, help_text="Also void every later hand of the board.")


class ConfirmationSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game.number")
    party = serializers.CharField()
    agrees = serializers.BooleanField()
    reason = serializers.CharField()
    game_confirmed = serializers.BooleanField(source="game.confirmed")
    created_at = serializers.DateTimeField()


class PreviewSerializer(serializers.Serializer):
    """The engine's reading of a hand, not stored."""

    game_number = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    score_before = serializers.ListField(child=serializers.IntegerField())
    result = serializers.DictField(help_text="trump, events, score, winner, next_dealer (docs/hand-format.md, the result).")
    ends_game = serializers.BooleanField()


@extend_schema_serializer(component_name="PairState")  # a private class, a public name
class _PairStateSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())
    side = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())


@extend_schema_serializer(component_name="PairsState")  # a private class, a public name
class _PairsStateSerializer(serializers.Serializer):
    a = _PairStateSerializer()
    b = _PairStateSerializer(allow_null=True)


@extend_schema_serializer(component_name="StateHand")  # a private class, a public name
class _StateHandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    form = serializers.CharField()
    dealer = serializers.IntegerField()
    record = serializers.JSONField()
    trump = serializers.CharField(allow_null=True)
    events = serializers.ListField(child=serializers.DictField())
    score_after = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    next_dealer = serializers.IntegerField()


class BoardStateSerializer(serializers.Serializer):
    """``selectors.board_state``: the board as the tablet reads it (also the ``current`` of 409/412)."""

    board = serializers.IntegerField()
    tournament = serializers.CharField(help_text="The tournament's slug.")
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    clock = ClockSerializer(help_text="The round clock (time left, time called); `ends_at` null: no time limit.")
    table = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="disputed, forfeited, awaiting_confirmation, in_play, waiting or done.")
    help_called = serializers.BooleanField()
    needs_review = serializers.BooleanField()
    match_format = serializers.DictField()
    pairs = _PairsStateSerializer()
    sides = serializers.ListField(child=serializers.DictField())
    seating = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    first_dealer = serializers.IntegerField(allow_null=True)
    rules = serializers.JSONField(help_text="The current game's fully resolved rule options.")
    game_number = serializers.IntegerField(allow_null=True)
    game_status = serializers.CharField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    next_dealer = serializers.IntegerField(allow_null=True)
    next_hand_number = serializers.IntegerField(allow_null=True)
    hands = _StateHandSerializer(many=True, help_text="The current game's active hands.")
    last_hand_id = serializers.IntegerField(allow_null=True, help_text="What an undo names.")
    can_undo = serializers.BooleanField(help_text="Whether an undo of `last_hand_id` would be taken now (the rules of "
                                        "`POST .../undo/`): the tablet offers Undo only then.")
    undo_reason = serializers.CharField(allow_blank=True, help_text="Why not, as a sentence for the scorer (\"Game 1 is "
                                        "confirmed: ask the organiser to correct it.\"); \"\" when `can_undo`.")
    games = serializers.ListField(child=serializers.DictField())
    result = serializers.DictField()
    team_match = serializers.DictField(allow_null=True)


class BoardSummarySerializer(serializers.ModelSerializer):
    """A board in a list: who plays, how it stands, what needs the organiser."""

    round = serializers.IntegerField(source="round.number", read_only=True)
    pair_a = serializers.SerializerMethodField()
    pair_b = serializers.SerializerMethodField()
    status = serializers.CharField(read_only=True)
    current_game = serializers.SerializerMethodField()
    result_source = serializers.CharField(read_only=True, help_text="Where the result comes from: hands (played), "
                                          "forfeit, bye or time_called.")
    forfeited = serializers.IntegerField(read_only=True, allow_null=True, help_text="Who did not play a forfeited "
                                         "board: 0 pair A, 1 pair B, 2 both; null when played.")

    class Meta:
        model = Board
        fields = ["id", "round", "table", "pair_a", "pair_b", "status", "help_called", "needs_review", "disputed",
                  "decided", "winner", "is_draw", "all_confirmed", "bullseyes_a", "bullseyes_b", "current_game",
                  "updated_at", "result_source", "forfeited"]
        read_only_fields = fields

    def _pair(self, entry: Any) -> dict[str, Any] | None:
        if entry is None:
            return None
        return {"entry": entry.pk, "name": entry.pair.display_name}

    @extend_schema_field({"type": "object", "properties": {"entry": {"type": "integer"}, "name": {"type": "string"}}})
    def get_pair_a(self, board: Board) -> dict[str, Any] | None:
        return self._pair(board.pair_a)

    @extend_schema_field({"oneOf": [{"type": "null"}, {"type": "object", "properties": {
        "entry": {"type": "integer"}, "name": {"type": "string"}}}]})
    def get_pair_b(self, board: Board) -> dict[str, Any] | None:
        return self._pair(board.pair_b)

    @extend_schema_field({"oneOf": [{"type": "null"}, {"type": "object", "properties": {
        "number": {"type": "integer"}, "score": {"type": "array", "items": {"type": "integer"}},
        "status": {"type": "string"}}}]})
    def get_current_game(self, board: Board) -> dict[str, Any] | None:
        games: list[Game] = getattr(board, "live_games", None) or []
        if not games:
            return None
        game = games[-1]
        return {"number": game.number, "score": game.score, "status": game.status}
