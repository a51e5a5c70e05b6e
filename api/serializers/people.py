"""Clubs, players and pairs (the shared registry), and the pair CSV import's answer.

Shapes only: a pair's two players being different, a club's name being free, a record still in use are
the services' checks (``tournaments.services.people``)."""

from __future__ import annotations

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
