"""The late-hands inbox (tournaments/services/late_hands.py): what a tablet sends, what it gets back."""

from __future__ import annotations

from rest_framework import serializers


class LateHandEntrySerializer(serializers.Serializer):
    key = serializers.CharField(max_length=100, help_text="The queued entry's Idempotency-Key: stored once per key.")
    board = serializers.IntegerField(allow_null=True, required=False, help_text="The board the entry was meant for.")
    payload = serializers.DictField(help_text="The queued request as it was: kind, game, number, hand, label.")
    reason = serializers.CharField(max_length=300, allow_blank=True, required=False,
                                   help_text="What the server answered the tablet (the refusal).")


class LateHandsRequestSerializer(serializers.Serializer):
    hands = LateHandEntrySerializer(many=True, help_text="At most 50 at a time.")


class LateHandsResponseSerializer(serializers.Serializer):
    received = serializers.ListField(child=serializers.CharField(),
                                     help_text="The keys taken: in the inbox, or already on the server.")
    already_on_server = serializers.ListField(
        child=serializers.CharField(),
        help_text="Keys this device's write already went through under (its answer was lost): not stored again.")
    table = serializers.IntegerField()
