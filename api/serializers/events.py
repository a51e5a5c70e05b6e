"""Tournaments (with the rule set checked by the engine), entries and rounds, for organisers; the registry's
choices (``GET /tournaments/formats/``).

HTTP translation only: a tournament's settings (formats, tie-breaks, bye policy, entrant type, pairing
system, time-called policy, club avoidance) are passed to the services as sent, where the registry checks
them all at once (``tournament_settings_clean``); their OpenAPI schemas are built from the registry when
the document is generated (``api.schema.RegistryFieldExtension``). No list of choices is copied here.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import InvalidHand, RuleSet
from tournaments.models import Entry, Pair, Round, Tournament
from tournaments.selectors.clock import round_clock
from tournaments.services.closing import MAX_CLOCK_MINUTES

from ..schema import RULES_REF
from .fields import NamesAsTyped
from .forfeits import forfeit_policy_field, grace_minutes_field, late_entry_bye_field

MAX_ROUNDS = 99


@extend_schema_field(RULES_REF)
class RulesField(serializers.JSONField):
    """A rule set: a preset name or an object of options (docs/rules.md section 9), checked by the engine."""

    def to_internal_value(self, data: Any) -> Any:
        data = super().to_internal_value(data)
        try:
            RuleSet.from_spec(data, "rules")
        except InvalidHand as exc:
            inner = exc.path.removeprefix("rules").lstrip(".")
            raise serializers.ValidationError({inner: exc.message} if inner else exc.message, code=exc.code) from exc
        return data


class RegistryField(serializers.JSONField):
    """A setting the registry checks (in the service) and documents (``api.schema``): passed on as sent."""

    registry_setting = ""

    def __init__(self, setting: str, **kwargs: Any) -> None:
        self.registry_setting = setting
        super().__init__(**kwargs)


class TournamentSerializer(NamesAsTyped, serializers.ModelSerializer):
    name_fields = ("name", "venue")  # checked by the services (name_invalid), as typed
    rules = RulesField(required=False, help_text="A preset name or an object of options over a preset.")
    rules_resolved = serializers.JSONField(read_only=True, help_text="Every option, resolved by the engine.")
    entrant_type = RegistryField("entrant_type", required=False)
    pairing_system = RegistryField("pairing_system", required=False)
    match_format = RegistryField("match_format", required=False)
    team_format = RegistryField("team_format", required=False, allow_null=True)
    tiebreaks = RegistryField("tiebreaks", required=False)
    bye_policy = RegistryField("bye_policy", required=False)
    time_called = RegistryField("time_called", required=False)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False)
    club_avoidance = RegistryField("club_avoidance", required=False)
    qualifies_from = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all(), allow_null=True, required=False)
    forfeit_policy = forfeit_policy_field()
    grace_minutes = grace_minutes_field()
    late_entry_bye = late_entry_bye_field()

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "slug", "venue", "starts_on", "ends_on", "status", "published", "rules", "rules_resolved",
            "entrant_type", "pairing_system", "match_format", "team_format", "rounds_planned", "tiebreaks",
            "bye_policy", "forfeit_policy", "grace_minutes", "late_entry_bye", "club_avoidance", "time_called",
            "third_place_match", "qualifies_from", "created_at",
        ]
        read_only_fields = ["created_at"]


class EntrySerializer(serializers.ModelSerializer):
    pair = serializers.PrimaryKeyRelatedField(queryset=Pair.objects.all())
    pair_name = serializers.CharField(source="pair.display_name", read_only=True)
    club = serializers.IntegerField(source="pair.club_id", read_only=True, allow_null=True)
    seed = serializers.IntegerField(min_value=1, max_value=100_000, allow_null=True, required=False)
    tags = serializers.JSONField(required=False, help_text='Labels for prize lists: ["ladies", "juniors"] or '
                                 '"ladies; juniors" (normalised by the service). Set them once the pair is entered.')
    fee_paid = serializers.BooleanField(required=False, help_text="The entry fee paid. Set it once the pair is entered.")

    withdrawn_from = serializers.IntegerField(
        read_only=True, allow_null=True,
        help_text="The first round a withdrawn pair no longer plays (`POST /entries/{id}/withdraw/`).")
    joins_from = serializers.IntegerField(
        read_only=True, allow_null=True,
        help_text="A late entry (entered once play had begun): the first round it plays; null from round 1.")

    class Meta:
        model = Entry
        fields = ["id", "pair", "pair_name", "club", "seed", "withdrawn", "withdrawn_from", "joins_from", "tags",
                  "fee_paid"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None:
            early = {name: "Set it with a PATCH once the pair is entered." for name in ("tags", "fee_paid")
                     if name in attrs}
            if early:
                raise serializers.ValidationError(early)
        return attrs


class ProposalBoardSerializer(serializers.Serializer):
    """A board of the proposed draft."""

    pair_a = serializers.IntegerField(help_text="Entry id on side 0.")
    pair_b = serializers.IntegerField(help_text="Entry id on side 1.")
    explanation = serializers.CharField()


class ProposalByeSerializer(serializers.Serializer):
    """The proposed draft's bye."""

    entry = serializers.IntegerField()
    explanation = serializers.CharField()


class ProposalOutlookSerializer(serializers.Serializer):
    """The rematch outlook after the proposed draft."""

    status = serializers.CharField()
    reason = serializers.CharField()


class RoundProposalSerializer(serializers.Serializer):
    """``Round.proposal``: the Swiss look-ahead's proposal when the drafted round leaves no rematch-free finish:
    ``message`` for the organiser; with a proposed draft, its ``boards``, ``bye``, ``extra`` (what it costs
    more than the draft seated: rematches, score_difference, floaters, same_club, repeat_floats) and
    ``outlook`` after it. ``POST /rounds/{id}/adopt-proposal/`` seats it."""

    status = serializers.CharField()
    message = serializers.CharField()
    boards = ProposalBoardSerializer(many=True)
    bye = ProposalByeSerializer(allow_null=True)
    extra = serializers.DictField(child=serializers.IntegerField())
    outlook = ProposalOutlookSerializer(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = instance or {}
        bye = data.get("bye")
        outlook = data.get("outlook")
        return {
            "status": str(data.get("status", "")), "message": str(data.get("message", "")),
            "boards": [{"pair_a": a, "pair_b": b, "explanation": text} for a, b, text in data.get("boards") or []],
            "bye": {"entry": bye[0], "explanation": bye[1]} if bye else None,
            "extra": {str(k): int(v) for k, v in (data.get("extra") or {}).items()},
            "outlook": {"status": outlook[0], "reason": outlook[1]} if outlook else None,
        }


class ClockSerializer(serializers.Serializer):
    """A round's clock as read now (``tournaments.selectors.clock.round_clock``; nothing ticks on the server)."""

    ends_at = serializers.DateTimeField(allow_null=True, help_text="When time is called; null: no time limit.")
    seconds_left = serializers.IntegerField(allow_null=True, help_text="0 once time is called (and for a closed "
                                                                       "round); null: no time limit.")
    time_called = serializers.BooleanField(help_text="No new game starts; the hands in play finish.")
    ends_local = serializers.CharField(help_text="`ends_at` as HH:MM in the venue's time zone (\"\" without a limit).")
    time_zone = serializers.CharField(help_text="The venue's time zone (IANA name).")


class RoundSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    boards = serializers.SerializerMethodField()
    proposal = RoundProposalSerializer(read_only=True, allow_null=True)
    clock = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "id", "tournament", "number", "status", "match_format", "needs_review", "feasibility",
            "feasibility_note", "changes", "proposal", "published_at", "closed_at", "boards", "clock",
        ]
        read_only_fields = fields

    def get_boards(self, obj: Round) -> int:
        return obj.boards.count()

    @extend_schema_field(ClockSerializer)
    def get_clock(self, obj: Round) -> dict[str, Any]:
        return round_clock(obj).as_dict()


class RoundCreateSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False, help_text="Defaults to the next round number."
    )


class RoundCloseSerializer(serializers.Serializer):
    token = serializers.CharField(
        required=False, max_length=64,
        help_text="The close preview's `token`: closing then does exactly what the preview showed (the finished "
                  "games confirmed with it), or answers 409 `preview_stale` when a board moved since.",
    )
    confirm_remaining = serializers.BooleanField(
        default=False, help_text="Without a token: confirm the round's remaining finished games on the organiser's "
                                 "word first (else 409 `games_unconfirmed`). Kept for older clients: send the token.",
    )


class BoardCloseSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="The board's id.")
    table = serializers.IntegerField(allow_null=True)
    pair_a = serializers.CharField()
    pair_b = serializers.CharField()
    now = serializers.CharField(help_text="How the board stands: games won by play, and the game in play.")
    becomes = serializers.CharField(help_text="What it becomes when the round closes.")
    changes = serializers.ListField(child=serializers.CharField(),
                                    help_text="Each game closing confirms, awards or voids, in words.")
    undecided = serializers.BooleanField(help_text="Still level after closing (a knockout match blocks closing).")


class ClosePreviewSerializer(serializers.Serializer):
    """``round_close_preview``: what closing would do, writing nothing."""

    round = serializers.IntegerField(help_text="The round's number.")
    token = serializers.CharField(help_text="Names this state of the round: send it to close exactly this.")
    boards = BoardCloseSerializer(many=True, help_text="Every board closing changes (finished and confirmed "
                                                       "boards, byes and forfeits are left out: closing leaves them).")
    games_to_confirm = serializers.IntegerField()
    games_awarded = serializers.IntegerField()
    games_voided = serializers.IntegerField()
    disputed = serializers.IntegerField(help_text="Disputed games: closing is refused while any is open.")
    blocking = serializers.ListField(child=serializers.CharField(), help_text="Why closing would be refused now.")


class MinutesField(serializers.IntegerField):
    """Minutes left from now, 0 to ``MAX_CLOCK_MINUTES``; any refusal is 400 ``minutes_invalid``, as the
    service's own."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        try:
            return super().run_validation(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError(f"Minutes left, from 0 to {MAX_CLOCK_MINUTES}: a whole number.",
                                              code="minutes_invalid") from exc


class RoundClockSetSerializer(serializers.Serializer):
    minutes = MinutesField(min_value=0, max_value=MAX_CLOCK_MINUTES,
                           help_text="The time left from now, in minutes (extend or shorten the round; 0 calls time).")


class ConfirmAllResultSerializer(serializers.Serializer):
    confirmed = serializers.IntegerField(help_text="How many games were confirmed by this request.")


# ---- the registry's choices ------------------------------------------------------------------------------


class ChoiceSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The value an API request sends and a tournament stores.")
    label = serializers.CharField()
    explanation = serializers.CharField(help_text="One sentence for organisers and players.")


class TieBreakChoiceSerializer(ChoiceSerializer):
    short = serializers.CharField(help_text="A column heading.")
    higher_is_better = serializers.BooleanField(help_text="False where fewer is better (bullseyes lost ...).")


class KindChoiceSerializer(ChoiceSerializer):
    max_n = serializers.IntegerField(help_text="The largest N.")


class ByePresetChoiceSerializer(ChoiceSerializer):
    policy = serializers.JSONField(help_text="The preset spelled out, as a tournament stores it.")


class ClubAvoidanceChoiceSerializer(ChoiceSerializer):
    level = serializers.IntegerField(help_text="The value of `club_avoidance`.")


class RuleOptionSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The option's name in a rule set (docs/rules.md section 9).")
    label = serializers.CharField()
    kind = serializers.CharField(help_text="whole, whole_or_null, points_by_rank, boolean or choice.")
    min = serializers.IntegerField(allow_null=True, help_text="The least a tournament may store (numbers).")
    max = serializers.IntegerField(allow_null=True, help_text="The most a tournament may store (numbers).")
    nullable = serializers.BooleanField(help_text="Whether null is a value (discard_to: keep every card).")
    explanation = serializers.CharField(help_text="What it sets, and why its range is what a table can play.")


class FormatDefaultsSerializer(serializers.Serializer):
    entrant_type = serializers.CharField()
    pairing_system = serializers.CharField()
    match_format = serializers.JSONField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    bye_policy = serializers.CharField(help_text="A bye preset's name.")
    forfeit_policy = serializers.CharField(help_text="A forfeit preset's name.")
    club_avoidance = serializers.IntegerField()
    time_called = serializers.CharField()


class FormatsSerializer(serializers.Serializer):
    """Everything a tournament's settings may be, with labels and explanations (the registry as it is now)."""

    tie_breaks = TieBreakChoiceSerializer(many=True)
    match_kinds = KindChoiceSerializer(many=True)
    team_kinds = KindChoiceSerializer(many=True)
    bye_presets = ByePresetChoiceSerializer(many=True)
    forfeit_presets = ByePresetChoiceSerializer(many=True, help_text="What a forfeit may give (`forfeit_policy`).")
    bye_results = ChoiceSerializer(many=True)
    bye_sources = ChoiceSerializer(many=True)
    entrant_types = ChoiceSerializer(many=True)
    pairing_systems = ChoiceSerializer(many=True)
    time_called = ChoiceSerializer(many=True)
    club_avoidance = ClubAvoidanceChoiceSerializer(many=True)
    rule_options = RuleOptionSerializer(many=True, help_text="Every rule option with the range a tournament may "
                                        "store (400 out_of_range on rules.<option> beyond it).")
    defaults = FormatDefaultsSerializer()


