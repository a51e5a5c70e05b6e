"""The end of an event over the API: prizes (read and write), how prizes are shared, the awards and the payout
as they stand (or as frozen at the end), finishing and reopening, and the results as plain text."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Prize, Tournament
from tournaments.selectors.prizes import prize_title

PRIZE_TIES = [("tie_breaks", "Settled by the tie-breaks"), ("split", "Split equally")]


class PrizeSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    title = serializers.SerializerMethodField(help_text="The label, or what the category says (\"1st place\").")
    amount = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True,
                                      help_text="In the event's currency; null: a trophy or an honour.")

    class Meta:
        model = Prize
        fields = ["id", "tournament", "category", "place", "tag", "label", "amount", "order", "title"]
        read_only_fields = fields

    def get_title(self, prize: Prize) -> str:
        return prize_title(prize)


class PrizeWriteSerializer(serializers.Serializer):
    """A prize as sent; the service checks the fields together (400 ``prize_invalid`` naming the field)."""

    category = serializers.ChoiceField(choices=Prize.Category.choices, required=False,
                                       help_text="place, best_club, most_hang_jacks, highest_count or tag.")
    place = serializers.IntegerField(min_value=1, max_value=999, allow_null=True, required=False,
                                     help_text="For place and tag prizes: 1 for the first.")
    tag = serializers.CharField(max_length=24, allow_blank=True, required=False,
                                help_text="For a tag prize: the tag entries carry (ladies, juniors, seniors...).")
    label = serializers.CharField(max_length=80, allow_blank=True, required=False, trim_whitespace=False)
    amount = serializers.DecimalField(max_digits=9, decimal_places=2, min_value=0, allow_null=True, required=False,
                                      help_text="At least 0, at most two decimals; null: no amount.")
    order = serializers.IntegerField(min_value=0, max_value=999, allow_null=True, required=False,
                                     help_text="Where it is listed (empty: last).")


class PrizeSettingsSerializer(serializers.Serializer):
    one_prize_per_pair = serializers.BooleanField(
        required=False, help_text="A pair that wins a bigger prize is passed over for the others.")
    prize_ties = serializers.ChoiceField(
        choices=PRIZE_TIES, required=False,
        help_text="tie_breaks: the standings' order settles a tie; split: the tied share the prizes of their places.")

    @staticmethod
    def of(tournament: Tournament) -> dict[str, Any]:
        return {"one_prize_per_pair": tournament.one_prize_per_pair, "prize_ties": tournament.prize_ties}


class WinnerSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[("entry", "A pair's entry"), ("club", "A club")])
    id = serializers.IntegerField(help_text="The entry's id (a pair) or the club's id.")
    name = serializers.CharField()
    amount = serializers.CharField(allow_null=True, help_text="What this winner receives (a decimal string).")
    detail = serializers.CharField(help_text="Why: the place and record, or the figure.")


class AwardSerializer(serializers.Serializer):
    prizes = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="The prize(s) awarded: more than one when a tie split them.")
    category = serializers.CharField()
    title = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    tag = serializers.CharField(allow_blank=True)
    amount = serializers.CharField(allow_null=True, help_text="The prizes' total (a decimal string).")
    awarded = serializers.BooleanField()
    winners = WinnerSerializer(many=True)
    note = serializers.CharField(allow_blank=True, help_text="Ties, one prize per pair, or why not awarded.")


class AwardsSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="Frozen at the end of the event (false: as things stand now).")
    currency = serializers.CharField()
    one_prize_per_pair = serializers.BooleanField()
    prize_ties = serializers.CharField()
    awards = AwardSerializer(many=True)


class PayoutLineSerializer(serializers.Serializer):
    title = serializers.CharField()
    name = serializers.CharField()
    amount = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


class PayoutTextSerializer(serializers.Serializer):
    total_paid = serializers.CharField()
    fees_collected = serializers.CharField()
    balance = serializers.CharField()


class PayoutSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    currency = serializers.CharField()
    lines = PayoutLineSerializer(many=True)
    total_paid = serializers.CharField()
    entry_fee = serializers.CharField(allow_null=True)
    entries = serializers.IntegerField()
    fees_paid = serializers.IntegerField(help_text="Entries whose fee is recorded as paid.")
    fees_collected = serializers.CharField()
    balance = serializers.CharField(help_text="Fees collected less prizes paid out.")
    unpaid = serializers.ListField(child=serializers.CharField())
    text = PayoutTextSerializer(help_text="The amounts as printed: \"TTD 1,250.00\".")


class FinalResultsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    final = serializers.BooleanField(help_text="The frozen results stand (finished, not reopened since).")
    final_results = serializers.JSONField(
        allow_null=True, help_text="Frozen by finishing: standings, tie-breaks with explanations, prizes, payout, "
                                   "records; with reopened_at once reopened.")


class ResultsTextSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    text = serializers.CharField(help_text="Plain text, short lines, for a message app.")
