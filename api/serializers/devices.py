"""Pairing codes (printed per table), paired devices, and the tablet's pairing request and answer."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Device
from tournaments.services.devices import MAX_TABLE

MAX_TABLES_PER_REQUEST = 200


class PairingCodesRequestSerializer(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_TABLE),
        min_length=1,
        max_length=MAX_TABLES_PER_REQUEST,
        help_text="The table numbers to print a code for.",
    )

    def validate_tables(self, tables: list[int]) -> list[int]:
        if len(set(tables)) != len(tables):
            raise serializers.ValidationError("Each table once.")
        return tables


class PairingCodeSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    code = serializers.CharField(help_text="Single use, valid 30 minutes; shown once.")
    link = serializers.CharField(help_text="The tablet page that trades the code: `/tablet/pair/<code>`.")
    expires_at = serializers.DateTimeField()
    qr_svg = serializers.CharField(help_text="The link as a QR code (SVG), for the printed sheet.")


class DeviceSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    active = serializers.BooleanField(source="is_active", read_only=True)

    class Meta:
        model = Device
        fields = ["id", "tournament", "table", "label", "token_prefix", "paired_at", "last_seen_at", "revoked_at",
                  "active"]
        read_only_fields = fields


class PairRequestSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40, help_text="The pairing code from the printed sheet or the link.")
    label = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                  help_text="A name for this tablet (e.g. `Table 3 tablet`).")


class PairedTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class PairResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Shown once. Keep it in local storage; send `Authorization: Device <token>`.")
    device = DeviceSerializer()
    tournament = PairedTournamentSerializer()

    @staticmethod
    def body(device: Device, token: str) -> dict[str, Any]:
        tournament = device.tournament
        return {"token": token, "device": device, "tournament": {"id": tournament.pk, "name": tournament.name,
                                                                 "slug": tournament.slug}}
