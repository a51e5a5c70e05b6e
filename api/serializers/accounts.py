"""Invitations, roles on a tournament, password links and sign-up: the shapes only. Who may, which password,
which username and which role are the services' checks (``tournaments.services.accounts``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments import roles
from tournaments.models import Invitation, Tournament, TournamentRole
from tournaments.services.accounts import INVITATION_DAYS, MAX_DAYS, PASSWORD_LINK_DAYS

ROLE_CHOICES = [(role, roles.ROLE_LABELS[role]) for role in roles.ROLES]
PASSWORD_HELP = "Checked by the server's password rules: at least 8 characters, not common, not all digits."


class InvitationCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[("organise", "May organise events"), ("role", "A role on one tournament")],
                                   help_text="`organise`: the account may create events and invite organisers; "
                                             "`role`: `role` on `tournament`.")
    tournament = serializers.PrimaryKeyRelatedField(queryset=Tournament.objects.all(), required=False,
                                                    allow_null=True, default=None,
                                                    help_text="For `role`: the tournament.")
    role = serializers.ChoiceField(choices=ROLE_CHOICES, required=False, allow_blank=True, default="",
                                   help_text="For `role`: organiser, co_organiser or scorekeeper.")
    email = serializers.EmailField(required=False, allow_blank=True, default="",
                                   help_text="Mailed the link too, when the server can send mail.")
    days = serializers.IntegerField(min_value=1, max_value=MAX_DAYS, required=False, default=INVITATION_DAYS,
                                    help_text="How long the link works.")


class InvitationSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="tournament_id", read_only=True, allow_null=True)
    user = serializers.IntegerField(source="user_id", read_only=True, allow_null=True,
                                    help_text="For a password link: the account it resets.")
    email = serializers.CharField(read_only=True, help_text="Where the link was mailed; empty when it was not.")

    class Meta:
        model = Invitation
        fields = ["id", "kind", "tournament", "role", "email", "user", "created_at", "expires_at", "used_at", "revoked"]
        read_only_fields = fields


class NewLinkSerializer(InvitationSerializer):
    token = serializers.CharField(read_only=True, help_text="Shown once; the server keeps only its digest.")
    link = serializers.CharField(read_only=True, help_text="The page that uses the token (shown once).")
    mailed = serializers.BooleanField(read_only=True, help_text="Whether the link was mailed to `email`.")

    class Meta(InvitationSerializer.Meta):
        fields = [*InvitationSerializer.Meta.fields, "token", "link", "mailed"]
        read_only_fields = fields


class InvitationAcceptSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200, help_text="The token from the invitation link.")
    username = serializers.CharField(max_length=150, required=False, allow_blank=True, default="",
                                     help_text="A new account's username; leave out to accept as the signed-in user.")
    password = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                     trim_whitespace=False, style={"input_type": "password"}, help_text=PASSWORD_HELP)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class AccountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    may_organise = serializers.BooleanField()
    roles = serializers.SerializerMethodField()

    def get_roles(self, obj: Any) -> list[dict[str, Any]]:
        return [{"tournament": r.tournament_id, "role": r.role} for r in obj["roles"]]


class TournamentRoleSerializer(serializers.ModelSerializer):
    user = serializers.IntegerField(source="user_id", read_only=True)
    username = serializers.CharField(source="user.get_username", read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    role = serializers.ChoiceField(choices=ROLE_CHOICES, read_only=True)

    class Meta:
        model = TournamentRole
        fields = ["user", "username", "tournament", "role"]
        read_only_fields = fields


class RoleGrantSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The account's username (it must exist: otherwise "
                                                               "send an invitation).")
    role = serializers.ChoiceField(choices=ROLE_CHOICES)


class PasswordLinkCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The account that forgot its password.")
    days = serializers.IntegerField(min_value=1, max_value=MAX_DAYS, required=False, default=PASSWORD_LINK_DAYS)


class PasswordLinkUseSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200, help_text="The token from the password link.")
    password = serializers.CharField(max_length=200, trim_whitespace=False, style={"input_type": "password"},
                                     help_text=PASSWORD_HELP)


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, trim_whitespace=False, style={"input_type": "password"},
                                     help_text=PASSWORD_HELP)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
