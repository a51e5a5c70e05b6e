"""Prizes of an event (docs/organiser-guide.md, "From the last round to the prize table")."""

from __future__ import annotations

from django.db import models


class Prize(models.Model):
    """One prize: a place overall, the best club, the most hang jacks, the highest count, or a place among the
    pairs with a tag (ladies, juniors, seniors...). ``amount`` is in the tournament's currency (empty: a
    trophy or an honour only)."""

    class Category(models.TextChoices):
        PLACE = "place", "Place overall"
        BEST_CLUB = "best_club", "Best club"
        MOST_HANG_JACKS = "most_hang_jacks", "Most hang jacks"
        HIGHEST_COUNT = "highest_count", "Highest count in a hand"
        TAG = "tag", "Place among a tag"

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="prizes")
    category = models.CharField(max_length=20, choices=Category.choices, default=Category.PLACE)
    #: The place (1 = first) for ``place`` and ``tag`` prizes.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The entry tag a ``tag`` prize is for (as ``Entry.tags`` stores it: lower case).
    tag = models.CharField(max_length=24, blank=True)
    label = models.CharField(max_length=80, blank=True)
    amount = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "order", "id"]

    def __str__(self) -> str:
        return self.label or self.get_category_display()
