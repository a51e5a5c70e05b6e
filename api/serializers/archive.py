"""The archive's API bodies (docs/archive.md): what an import would create (the preview) and what it created.
The archive document itself is described by docs/schemas/archive-v1.schema.json, not by a serializer."""

from __future__ import annotations

from rest_framework import serializers


class ArchivePeopleCountSerializer(serializers.Serializer):
    matched = serializers.IntegerField(help_text="Already in the organisation (same name)")
    created = serializers.IntegerField(help_text="New in the organisation")


class ArchivePeopleSerializer(serializers.Serializer):
    clubs = ArchivePeopleCountSerializer()
    players = ArchivePeopleCountSerializer()
    pairs = ArchivePeopleCountSerializer()


class ArchivePreviewSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField(help_text="The slug the copy gets (a new one when the archive's is taken here)")
    slug_changed = serializers.BooleanField()
    organisation = serializers.CharField(help_text="The organisation its clubs, players and pairs go into")
    exported_at = serializers.CharField()
    counts = serializers.DictField(child=serializers.IntegerField(),
                                   help_text="entries, rounds, team_matches, boards, games, hands, live_hands, ...")
    people = ArchivePeopleSerializer()


class ArchiveImportedSerializer(ArchivePreviewSerializer):
    id = serializers.IntegerField(help_text="The new tournament's id")
