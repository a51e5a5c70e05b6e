"""Tournaments (with the rule set checked by the engine), entries and rounds, for organisers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import InvalidHand, RuleSet
from tournaments.models import Entry, Pair, Round, Tournament

from ..schema import RULES_REF

MATCH_KINDS = ("first_to", "games")
TEAM_KINDS = ("games", "first_to_total")
TIEBREAKS = ("match_points", "wins", "bullseyes_won", "chalk_difference", "hang_jacks_for", "buchholz")
BYE_RESULTS = ("win", "draw", "loss")
MAX_N = 99


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@extend_schema_field(RULES_REF)
class RulesField(serializers.JSONField):
    """A rule set: a preset name or an object of options (RULES.md section 9), checked by the engine."""

    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        try:
            RuleSet.from_spec(data, "rules")
        except InvalidHand as exc:
            inner = exc.path.removeprefix("rules").lstrip(".")
            raise serializers.ValidationError({inner: exc.message} if inner else exc.message, code=exc.code) from exc
        return data


@extend_schema_field(
    {
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": list(MATCH_KINDS)}, "n": {"type": "integer", "minimum": 1, "maximum": MAX_N}},
        "required": ["kind", "n"],
        "additionalProperties": False,
    }
)
class MatchFormatField(serializers.JSONField):
    """A board's match format: ``{"kind": "first_to", "n": 2}`` or ``{"kind": "games", "n": 3}``."""

    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if not isinstance(data, dict) or set(data) != {"kind", "n"}:
            raise serializers.ValidationError('Expected {"kind": "first_to" | "games", "n": N}.')
        if data["kind"] not in MATCH_KINDS:
            raise serializers.ValidationError({"kind": f"One of {', '.join(MATCH_KINDS)}."})
        if not _whole(data["n"], 1, MAX_N):
            raise serializers.ValidationError({"n": f"A whole number from 1 to {MAX_N}."})
        return data


@extend_schema_field(
    {
        "oneOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {
                    "boards": {"type": "integer", "minimum": 1, "maximum": MAX_N},
                    "kind": {"type": "string", "enum": list(TEAM_KINDS)},
                    "n": {"type": "integer", "minimum": 1, "maximum": 999},
                },
                "required": ["boards", "kind", "n"],
                "additionalProperties": False,
            },
        ]
    }
)
class TeamFormatField(serializers.JSONField):
    """Club-team events: ``{"boards": K, "kind": "games" | "first_to_total", "n": N}``."""

    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if data is None:
            return None
        if not isinstance(data, dict) or set(data) != {"boards", "kind", "n"}:
            raise serializers.ValidationError('Expected {"boards": K, "kind": "games" | "first_to_total", "n": N}.')
        if not _whole(data["boards"], 1, MAX_N):
            raise serializers.ValidationError({"boards": f"A whole number from 1 to {MAX_N}."})
        if data["kind"] not in TEAM_KINDS:
            raise serializers.ValidationError({"kind": f"One of {', '.join(TEAM_KINDS)}."})
        if not _whole(data["n"], 1, 999):
            raise serializers.ValidationError({"n": "A whole number from 1 to 999."})
        return data


@extend_schema_field({"type": "array", "items": {"type": "string", "enum": list(TIEBREAKS)}, "uniqueItems": True})
class TiebreaksField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if not isinstance(data, list) or not all(isinstance(item, str) and item in TIEBREAKS for item in data):
            raise serializers.ValidationError(f"A list of: {', '.join(TIEBREAKS)}.")
        if len(set(data)) != len(data):
            raise serializers.ValidationError("Each tiebreak once.")
        return data


@extend_schema_field(
    {
        "type": "object",
        "properties": {"result": {"type": "string", "enum": list(BYE_RESULTS)}, "score": {"type": "string", "enum": ["average"]}},
        "additionalProperties": False,
    }
)
class ByePolicyField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        if not isinstance(data, dict) or not set(data) <= {"result", "score"}:
            raise serializers.ValidationError('Expected {"result": "win" | "draw" | "loss", "score": "average"}.')
        if "result" in data and data["result"] not in BYE_RESULTS:
            raise serializers.ValidationError({"result": f"One of {', '.join(BYE_RESULTS)}."})
        if "score" in data and data["score"] != "average":
            raise serializers.ValidationError({"score": "Only average."})
        return data


class TournamentSerializer(serializers.ModelSerializer):
    rules = RulesField(required=False, help_text="A preset name or an object of options over a preset.")
    rules_resolved = serializers.JSONField(read_only=True, help_text="Every option, resolved by the engine.")
    match_format = MatchFormatField(required=False)
    team_format = TeamFormatField(required=False, allow_null=True)
    tiebreaks = TiebreaksField(required=False)
    bye_policy = ByePolicyField(required=False)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_N, required=False)
    club_avoidance = serializers.IntegerField(min_value=0, max_value=3, required=False)
    qualifies_from = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all(), allow_null=True, required=False)

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "slug", "venue", "starts_on", "ends_on", "status", "published", "rules", "rules_resolved",
            "entrant_type", "pairing_system", "match_format", "team_format", "rounds_planned", "tiebreaks",
            "bye_policy", "club_avoidance", "time_called", "third_place_match", "qualifies_from", "created_at",
        ]
        read_only_fields = ["created_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        instance = self.instance
        spec = attrs.get("rules", getattr(instance, "rules", None) or "trinidad-tournament")
        rules = RuleSet.from_spec(spec, "rules")  # already checked by RulesField
        if rules.players != 4:
            raise serializers.ValidationError({"rules": "Pairs events take 4-player rule sets only."})
        attrs["rules_resolved"] = rules.to_dict()
        starts = attrs.get("starts_on", getattr(instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError({"ends_on": "The tournament cannot end before it starts."})
        entrant = attrs.get("entrant_type", getattr(instance, "entrant_type", Tournament.EntrantType.PAIRS))
        team_format = attrs.get("team_format", getattr(instance, "team_format", None))
        if entrant == Tournament.EntrantType.CLUB_TEAMS and not team_format:
            raise serializers.ValidationError({"team_format": "A club-team event needs its team format."})
        qualifies_from = attrs.get("qualifies_from")
        if instance is not None and qualifies_from is not None and qualifies_from.pk == instance.pk:
            raise serializers.ValidationError({"qualifies_from": "A tournament cannot qualify from itself."})
        return attrs


class EntrySerializer(serializers.ModelSerializer):
    pair = serializers.PrimaryKeyRelatedField(queryset=Pair.objects.all())
    pair_name = serializers.CharField(source="pair.display_name", read_only=True)
    club = serializers.IntegerField(source="pair.club_id", read_only=True, allow_null=True)
    seed = serializers.IntegerField(min_value=1, max_value=100_000, allow_null=True, required=False)

    class Meta:
        model = Entry
        fields = ["id", "pair", "pair_name", "club", "seed", "withdrawn"]

    def validate_pair(self, pair: Pair) -> Pair:
        tournament = self.context["tournament"]
        clash = Entry.objects.filter(tournament=tournament, pair=pair)
        if self.instance is not None:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise serializers.ValidationError("This pair is already entered.")
        return pair


class RoundSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    boards = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id", "tournament", "number", "status", "match_format", "needs_review", "feasibility",
            "feasibility_note", "changes", "published_at", "closed_at", "boards",
        ]
        read_only_fields = fields

    def get_boards(self, obj: Round) -> int:
        return obj.boards.count()


class RoundCreateSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=MAX_N, required=False, help_text="Defaults to the next round number."
    )


class RoundCloseSerializer(serializers.Serializer):
    confirm_remaining = serializers.BooleanField(
        default=False, help_text="Confirm the round's remaining finished games on the organiser's word first."
    )


class ConfirmAllResultSerializer(serializers.Serializer):
    confirmed = serializers.IntegerField(help_text="How many games were confirmed by this request.")
