"""Who is there: a pair's availability per round (check-in, requested byes), and invitations to organise.

``Availability`` is docs/decisions.md's one model ("Availability"): a row per entry and round says
present, absent or a requested bye; no row means present unless the event requires check-in. Withdrawals
and late entries (issue 13) extend it. ``Invitation`` is a single-use, expiring link (its token stored
hashed) that makes an account able to organise, or gives a role on one tournament.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Availability(models.Model):
    class State(models.TextChoices):
        PRESENT = "present", "Present"
        ABSENT = "absent", "Absent"
        BYE = "bye", "Requested a bye"

    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="availability")
    round_number = models.PositiveIntegerField()
    state = models.CharField(max_length=8, choices=State.choices)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        verbose_name_plural = "availability"
        constraints = [models.UniqueConstraint(fields=["entry", "round_number"], name="one_availability_per_round")]

    def __str__(self) -> str:
        return f"{self.entry} round {self.round_number}: {self.state}"


class Invitation(models.Model):
    class Kind(models.TextChoices):
        ORGANISE = "organise", "May organise events"
        ROLE = "role", "A role on one tournament"
        PASSWORD = "password", "Set a new password"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: SHA-256 of the token in the link; the token itself is shown once and never stored.
    token_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True)
    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="invitations")
    role = models.CharField(max_length=12, blank=True)
    #: For a password link: the account it resets.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    revoked = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"invitation {self.pk} ({self.kind})"
