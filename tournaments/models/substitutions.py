"""A substitute player: a recorded action on an entry (issue 11 item 3; docs/decisions.md, "Owners").

From round ``round_from`` on, ``in_player`` plays for the entry in ``out_player``'s place. The entry's
recorded players (``Entry.player_1``, ``player_2``) never change after its first board; the boards of later
rounds seat the substitute, and the scorecards show them as "Ria Mohammed (sub for Kenrick Baptiste)".
Written only by ``services.entry_substitute``; never updated or deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EntrySubstitution(models.Model):
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="substitutions")
    round_from = models.PositiveIntegerField(help_text="The first round the substitute plays")
    out_player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+")
    in_player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "round_from", "id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(out_player=models.F("in_player")), name="substitute_is_another"),
        ]

    def __str__(self) -> str:
        return f"{self.in_player} for {self.out_player} from round {self.round_from}"
