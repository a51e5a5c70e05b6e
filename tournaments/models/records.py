"""Append-only records: the audit trail, idempotency answers, the transactional outbox, standings snapshots."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class AuditEvent(models.Model):
    """Who changed what, before and after; written in the same transaction as the change."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    device = models.ForeignKey("tournaments.Device", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} {self.object_type} {self.object_id}"


class IdempotencyRecord(models.Model):
    """A successful tablet write's answer, replayed for the same key; one use per key per device."""

    device = models.ForeignKey("tournaments.Device", on_delete=models.CASCADE, related_name="idempotency_records")
    key = models.CharField(max_length=100)
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of method, path and canonical body")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["device", "key"], name="one_use_per_idempotency_key")]

    def __str__(self) -> str:
        return f"idempotency key {self.key[:12]} of device {self.device_id}"


class OutboxMessage(models.Model):
    """Background work written in the same transaction as the change that needs it.

    Published to Celery on commit and marked sent; a periodic sweep publishes what is still unsent.
    ``coalesce_key`` lets a burst of changes (many confirmed games) become one recomputation.
    """

    created_at = models.DateTimeField(auto_now_add=True)
    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    coalesce_key = models.CharField(max_length=120, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [models.Index(fields=["sent_at", "created_at"], name="outbox_unsent", condition=Q(sent_at__isnull=True))]

    def __str__(self) -> str:
        return f"{self.task}({self.args}) {'sent' if self.sent_at else 'unsent'}"


class StandingsSnapshot(models.Model):
    """Standings computed from confirmed games only, stored per change; rounds are paired from one."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="snapshots")
    created_at = models.DateTimeField(auto_now_add=True)
    after_round = models.PositiveIntegerField(default=0)
    #: Digest of the confirmed results it was computed from: recomputing the same input is a no-op.
    source_hash = models.CharField(max_length=64)
    rows = models.JSONField(default=list)
    clubs = models.JSONField(default=list)

    class Meta:
        ordering = ["-created_at", "-id"]
        get_latest_by = "created_at"

    def __str__(self) -> str:
        return f"standings of {self.tournament} after round {self.after_round}"
