"""Clubs, players and pairs (the shared registry), and the pair CSV import's answer."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Club, Pair, Player


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "town"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club"]


class PairSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)
    seed = serializers.IntegerField(min_value=1, max_value=100_000, allow_null=True, required=False)

    class Meta:
        model = Pair
        fields = ["id", "name", "display_name", "player_1", "player_2", "club", "seed"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        player_1 = attrs.get("player_1", getattr(self.instance, "player_1", None))
        player_2 = attrs.get("player_2", getattr(self.instance, "player_2", None))
        if player_1 is not None and player_1 == player_2:
            raise serializers.ValidationError({"player_2": "A pair is two different players."})
        return attrs


class PairImportQuerySerializer(serializers.Serializer):
    tournament = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="Also enter every pair in this tournament."
    )


class PairImportResultSerializer(serializers.Serializer):
    pairs_created = serializers.IntegerField()
    pairs_existing = serializers.IntegerField()
    players_created = serializers.IntegerField()
    clubs_created = serializers.IntegerField()
    entries_created = serializers.IntegerField()
    summary = serializers.CharField()
