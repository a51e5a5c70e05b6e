"""Organiser sign-in: the login request and the knox token it issues."""

from __future__ import annotations

from rest_framework import serializers


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, style={"input_type": "password"}, trim_whitespace=False)


class RoleSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField(source="tournament.name")
    role = serializers.CharField()


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    roles = RoleSerializer(many=True, source="tournament_roles.all")


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Shown once: send it as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(allow_null=True)
    user = UserSerializer()
