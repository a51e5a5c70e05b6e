"""Clubs, players and pairs (partnerships). A pair belongs to one club; a club keeps its roster of pairs."""

from __future__ import annotations

from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    short_name = models.CharField(max_length=20, blank=True)
    town = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(max_length=120)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="players")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    """Two partners who sit opposite each other. ``seed`` orders the club's roster."""

    name = models.CharField(max_length=200, blank=True, help_text="Defaults to the two players' names")
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="pairs")
    seed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["club__name", "seed", "id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(player_1=models.F("player_2")), name="pair_two_players"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name or f"{self.player_1.name} & {self.player_2.name}"
