"""Clubs, players and pairs (partnerships). A pair belongs to one club; a club keeps its roster of pairs.

Each belongs to an organisation (``owner``; docs/adr/0010-owners-and-organisations.md): only its members (and
staff) change it, and a club's name is unique within its organisation. A record written without an owner
goes to the house organisation (``organisations.house_organisation_id``).
"""

from __future__ import annotations

from django.db import models

from .organisations import house_organisation_id


def _owner(related_name: str) -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey("tournaments.Organisation", on_delete=models.PROTECT, related_name=related_name,
                             default=house_organisation_id, help_text="The organisation whose members may change it")


class Club(models.Model):
    name = models.CharField(max_length=120)
    short_name = models.CharField(max_length=20, blank=True)
    town = models.CharField(max_length=120, blank=True)
    owner = _owner("clubs")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="club_name_unique_per_owner")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(max_length=120)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="players")
    owner = _owner("players")

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
    owner = _owner("pairs")

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


class ClubAlias(models.Model):
    """Another spelling of a club's name (a merged variant's, or one the organiser adds): imports that name a
    club by it find the club (docs/leagues-model.md, "Club and player identity")."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="club_alias_unique")]

    def __str__(self) -> str:
        return f"{self.name} (alias of {self.club_id})"


class PlayerAlias(models.Model):
    """Another spelling of a player's name (a merged variant's)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "name"]
        constraints = [models.UniqueConstraint(fields=["player", "name"], name="player_alias_unique")]

    def __str__(self) -> str:
        return f"{self.name} (alias of {self.player_id})"
