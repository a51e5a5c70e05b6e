"""Scoring tablets: one active device per table number per tournament, and single-use pairing codes.

Tokens and codes are stored as SHA-256 digests only; the clear value is shown once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Device(models.Model):
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="devices")
    table = models.PositiveIntegerField()
    token_digest = models.CharField(max_length=64, unique=True)
    token_prefix = models.CharField(max_length=8, help_text="First characters, to tell devices apart")
    label = models.CharField(max_length=80, blank=True)
    paired_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "table"], condition=Q(revoked_at__isnull=True), name="one_active_device_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.table} ({self.token_prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class PairingCode(models.Model):
    """A single-use code (link or QR) that a tablet trades for a device token within 30 minutes."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="pairing_codes")
    table = models.PositiveIntegerField()
    code_digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    device = models.OneToOneField(Device, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing_code")

    def __str__(self) -> str:
        return f"pairing code for {self.tournament} table {self.table}"
