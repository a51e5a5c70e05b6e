"""The organiser's inbox of late hands (docs/decisions.md, "The tablet").

A tablet whose queued entries can no longer be written (its token revoked, the round closed, the event
finished) sends them here instead of losing them; the organiser reads them in the console and marks each
handled (entering the hand by a correction, or deciding it does not count).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LateHand(models.Model):
    """One entry a tablet could not send: the queued request as it was (``payload``) and why it was late."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="late_hands")
    device = models.ForeignKey("tournaments.Device", on_delete=models.CASCADE, related_name="late_hands")
    board = models.ForeignKey(
        "tournaments.Board", null=True, blank=True, on_delete=models.SET_NULL, related_name="late_hands"
    )
    #: The tablet's Idempotency-Key of the queued entry: the same entry sent twice is stored once.
    key = models.CharField(max_length=100)
    #: {"kind": "hand" | "confirm" | ..., "game": n, "number": n, "hand": {...}, "label": "..."}
    payload = models.JSONField(default=dict)
    #: What the server answered the tablet (the refusal's code and sentence), as the tablet says.
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["device", "key"], name="one_late_hand_per_device_key"),
        ]

    def __str__(self) -> str:
        return f"late entry from table {self.device.table} ({self.key[:8]})"
