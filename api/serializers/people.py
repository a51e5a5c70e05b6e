"""Clubs, players and pairs (the registry), their organisations, and the pair CSV import's answer.

Shapes only: a pair's two players being different, a club's name being free within its organisation, a
record being the caller's (``not_owner``), a record still in use are the services' checks
(``tournaments.services.people``, ``tournaments.services.organisations``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Club, EntrySubstitution, Organisation, Pair, Player

from .fields import NamesAsTyped

OWNER_HELP = ("The organisation it belongs to (one of yours); by default your personal organisation, or the "
              "club's for a player or pair of a club.")


def _owner_field() -> serializers.PrimaryKeyRelatedField:  # type: ignore[type-arg]
    return serializers.PrimaryKeyRelatedField(queryset=Organisation.objects.all(), required=False,
                                              help_text=OWNER_HELP)


class ClubSerializer(NamesAsTyped, serializers.ModelSerializer):
    name_fields = ("name", "short_name", "town")
    owner = _owner_field()

    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "town", "owner"]
        validators: list[Any] = []  # a club's name within its organisation: the service's check (name_taken)


class PlayerSerializer(NamesAsTyped, serializers.ModelSerializer):
    name_fields = ("name",)
    owner = _owner_field()

    class Meta:
        model = Player
        fields = ["id", "name", "club", "owner"]


class PairSerializer(NamesAsTyped, serializers.ModelSerializer):
    name_fields = ("name",)
    display_name = serializers.CharField(read_only=True)
    seed = serializers.IntegerField(min_value=1, max_value=100_000, allow_null=True, required=False)
    owner = _owner_field()

    class Meta:
        model = Pair
        fields = ["id", "name", "display_name", "player_1", "player_2", "club", "seed", "owner"]


class PairCopySerializer(serializers.Serializer):
    owner = _owner_field()


class CopyablePairSerializer(serializers.ModelSerializer):
    """Another organisation's pair as a copier sees it: names only (its records stay the owner's)."""

    display_name = serializers.CharField(read_only=True)
    players = serializers.SerializerMethodField()
    club = serializers.CharField(source="club.name", read_only=True, allow_null=True, default=None)
    owner = serializers.CharField(source="owner.name", read_only=True)

    class Meta:
        model = Pair
        fields = ["id", "display_name", "players", "club", "owner"]
        read_only_fields = fields

    def get_players(self, pair: Pair) -> list[str]:
        return [pair.player_1.name, pair.player_2.name]


class CopyableQuerySerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=2**31 - 1,
                                          help_text="A published tournament (or one you hold a role on).")


class OrganisationSerializer(NamesAsTyped, serializers.ModelSerializer):
    name_fields = ("name",)
    role = serializers.SerializerMethodField(help_text="Your role in it: owner or member (staff: null if none).")

    class Meta:
        model = Organisation
        fields = ["id", "name", "slug", "kind", "role", "created_at"]
        read_only_fields = ["slug", "kind", "created_at"]

    def get_role(self, org: Organisation) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        membership = org.memberships.filter(user_id=user.pk).first()
        return membership.role if membership else None


class SubstituteSerializer(serializers.Serializer):
    """A substitute player for an entry (``services.entry_substitute`` checks the rest)."""

    out_player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(),
                                                    help_text="The entry's player who stops playing.")
    in_player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(),
                                                   help_text="The player who plays in their place (one of yours).")
    from_round = serializers.IntegerField(min_value=-(2**31), max_value=2**31 - 1,
                                          help_text="The first round the substitute plays (1 to 999).")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class EntrySubstitutionSerializer(serializers.ModelSerializer):
    from_round = serializers.IntegerField(source="round_from", read_only=True)
    out_player_name = serializers.CharField(source="out_player.name", read_only=True)
    in_player_name = serializers.CharField(source="in_player.name", read_only=True)

    class Meta:
        model = EntrySubstitution
        fields = ["id", "entry", "from_round", "out_player", "out_player_name", "in_player", "in_player_name",
                  "reason", "created_at"]
        read_only_fields = fields


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
