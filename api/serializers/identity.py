"""Club and player identity (issue 15; docs/api.md, "Club and player identity"): a rename, a merge of a
spelling variant, and the aliases a club or player is also known by.

Shapes only: a name's validity and freedom within the organisation, a record being the caller's, a record
merged into itself or across organisations, two players in one event, two clubs fielding teams in one event
are the services' checks (``tournaments.services.people.club_update`` / ``player_update``,
``tournaments.services.identity``)."""

from __future__ import annotations

from typing import Any

from django.db import models
from rest_framework import serializers

from tournaments.models import Club, Player
from tournaments.selectors.identity import club_aliases, player_aliases
from tournaments.selectors.registry import registry_visible

from .fields import NameField

#: The largest id a lookup is asked for (a larger one is refused as a field error, never sent to the database).
MAX_ID = 2**31 - 1


class IdentityRenameSerializer(serializers.Serializer):
    name = NameField(max_length=120, help_text="The new name. Events already played keep the name they were "
                                               "played under (a club's; a player's name shows as it is now).")


class _MergeSerializer(serializers.Serializer):
    """``variant``: the id of the record merged into the one in the path (it is deleted; its name is kept as an
    alias of the kept record). An id that names no record is a field error (400 ``invalid``, ``fields.variant``)."""

    model: type[models.Model] = models.Model
    variant = serializers.IntegerField(min_value=1, max_value=MAX_ID)

    def validate_variant(self, value: int) -> Any:
        # only the caller's organisations' records (``context["user"]``): another organisation's id reads as no
        # record at all, so the answer tells nothing of who owns what
        visible = registry_visible(self.model.objects.all(), self.context.get("user"))  # type: ignore[attr-defined]
        found = visible.filter(pk=value).first()
        if found is None:
            raise serializers.ValidationError(f"No {self.model._meta.verbose_name} has the id {value}.")
        return found


class ClubMergeSerializer(_MergeSerializer):
    model = Club
    variant = serializers.IntegerField(min_value=1, max_value=MAX_ID,
                                       help_text="The club merged into this one (a spelling variant of it).")


class PlayerMergeSerializer(_MergeSerializer):
    model = Player
    variant = serializers.IntegerField(min_value=1, max_value=MAX_ID,
                                       help_text="The player merged into this one (a spelling variant of them).")


class ClubIdentitySerializer(serializers.ModelSerializer):
    """A club with the other names it is known by (a merged variant's name, and that variant's aliases)."""

    aliases = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "town", "owner", "aliases"]
        read_only_fields = fields

    def get_aliases(self, club: Club) -> list[str]:
        return club_aliases(club)


class PlayerIdentitySerializer(serializers.ModelSerializer):
    """A player with the other names they are known by."""

    aliases = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "club", "owner", "aliases"]
        read_only_fields = fields

    def get_aliases(self, player: Player) -> list[str]:
        return player_aliases(player)


_MOVED_HELP = "What moved onto the kept record, counted per kind of record."
_ADDED_HELP = "The names kept as new aliases (the variant's name and its own aliases, less those already known)."


class ClubMergeResultSerializer(serializers.Serializer):
    club = ClubIdentitySerializer(help_text="The kept club, with every alias it now has.")
    moved = serializers.DictField(child=serializers.IntegerField(), help_text=_MOVED_HELP)
    aliases_added = serializers.ListField(child=serializers.CharField(), help_text=_ADDED_HELP)


class PlayerMergeResultSerializer(serializers.Serializer):
    player = PlayerIdentitySerializer(help_text="The kept player, with every alias they now have.")
    moved = serializers.DictField(child=serializers.IntegerField(), help_text=_MOVED_HELP)
    aliases_added = serializers.ListField(child=serializers.CharField(), help_text=_ADDED_HELP)
