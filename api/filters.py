"""django-filter filter sets for the lists (``?name=``, ``?club=``, ``?status=`` ...)."""

from __future__ import annotations

import django_filters

from tournaments.models import Board, Club, Device, Entry, Hand, Pair, Player, Round, Tournament


class ClubFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=120)
    town = django_filters.CharFilter(lookup_expr="icontains", max_length=120)

    class Meta:
        model = Club
        fields = ["name", "town"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=120)

    class Meta:
        model = Player
        fields = ["name", "club"]


class PairFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=200)

    class Meta:
        model = Pair
        fields = ["name", "club"]


class TournamentFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", max_length=200)

    class Meta:
        model = Tournament
        fields = ["name", "status", "published", "pairing_system", "entrant_type"]


class EntryFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(field_name="pair__club", min_value=1, max_value=2**31 - 1)

    class Meta:
        model = Entry
        fields = ["withdrawn", "club"]


class RoundFilter(django_filters.FilterSet):
    class Meta:
        model = Round
        fields = ["status"]


class BoardFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(min_value=0, max_value=2**31 - 1)

    class Meta:
        model = Board
        fields = ["table", "disputed", "help_called", "decided", "all_confirmed"]


class DeviceFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(min_value=0, max_value=2**31 - 1)
    active = django_filters.BooleanFilter(field_name="revoked_at", lookup_expr="isnull")

    class Meta:
        model = Device
        fields = ["table", "active"]


class HandFilter(django_filters.FilterSet):
    game = django_filters.NumberFilter(field_name="game__number", min_value=0, max_value=2**31 - 1)

    class Meta:
        model = Hand
        fields = ["game", "status"]
