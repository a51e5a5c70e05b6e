"""Scoring tablets: pairing codes and device tokens (docs/decisions.md, a board's life from the tablet).

An organiser creates a single-use pairing code for a table (valid 30 minutes); the tablet trades it for a
device token, shown once and stored only as its SHA-256 digest. One active device per table: pairing a
new one revokes the old. A token lives until it is revoked; finishing the tournament revokes every one of
its tokens and voids its unused pairing codes (``tournament_devices_revoke``), so setting it running again
brings no tablet back: each is paired anew.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.models import Device, PairingCode, Tournament
from tournaments.services._common import actor, require_role
from tournaments.services.audit import audit_record
from tournaments.services.errors import Conflict, DomainError, ValidationFailed

PAIRING_CODE_TTL = timedelta(minutes=30)
#: Crockford's base32 alphabet: no I, L, O or U to misread when typed from a printed sheet.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10
TOKEN_BYTES = 32
TOKEN_PREFIX_LENGTH = 8
MAX_TABLE = 9999
#: ``last_seen_at`` is refreshed at most this often, so authenticating a request rarely writes.
LAST_SEEN_RESOLUTION = timedelta(minutes=1)


class PairingRefused(DomainError):
    """The pairing code is unknown, expired or already used: a wrong credential (401)."""

    status_code = 401


def digest(secret: str) -> str:
    """SHA-256 hex digest of a code or token: what is stored instead of the clear value."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def normalise_code(code: str) -> str:
    """A pairing code as typed: case, spaces and dashes do not matter."""
    return "".join(ch for ch in code.upper() if ch not in " -")


def pairing_code_create(*, tournament: Tournament, table: int, user: Actor) -> tuple[PairingCode, str]:
    """A fresh single-use code for one table, valid 30 minutes; the clear code is returned once."""
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE:
        raise ValidationFailed(
            "table_invalid", f"A table is a number from 1 to {MAX_TABLE}.", fields={"table": "Not a table number."}
        )
    if actor(user) is not None:
        require_role(user, tournament.pk, "pair_tablets")  # a scorekeeper may (tournaments.roles)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended: tablets can no longer be paired.")
    clear = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    with transaction.atomic():
        code = PairingCode.objects.create(
            tournament=tournament,
            table=table,
            code_digest=digest(clear),
            created_by=user if getattr(user, "pk", None) else None,
            expires_at=timezone.now() + PAIRING_CODE_TTL,
        )
        audit_record(
            action="pairing_code.create",
            obj=code,
            tournament_id=tournament.pk,
            user=user,
            after={"table": table, "expires_at": code.expires_at.isoformat()},
        )
    return code, clear


def device_pair(*, code: str, label: str = "") -> tuple[Device, str]:
    """Trade a pairing code for a device token; the table's previous device is revoked.

    Raises ``PairingRefused`` (401) for an unknown, expired or used code and ``Conflict`` when the
    tournament has ended.
    """
    code_digest = digest(normalise_code(code))
    now = timezone.now()
    with transaction.atomic():
        pairing = (
            PairingCode.objects.select_for_update()
            .select_related("tournament")
            .filter(code_digest=code_digest)
            .first()
        )
        if pairing is None:
            raise PairingRefused("pairing_code_unknown", "This pairing code is not known; ask the organiser for a new one.")
        if pairing.used_at is not None:
            raise PairingRefused("pairing_code_used", "This pairing code was already used; ask the organiser for a new one.")
        if pairing.expires_at <= now:
            raise PairingRefused("pairing_code_expired", "This pairing code has expired; ask the organiser for a new one.")
        tournament = pairing.tournament
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict("tournament_finished", "This tournament has ended: tablets can no longer be paired.")
        revoked = list(
            Device.objects.select_for_update()
            .filter(tournament=tournament, table=pairing.table, revoked_at__isnull=True)
            .values_list("pk", flat=True)
        )
        if revoked:
            Device.objects.filter(pk__in=revoked).update(revoked_at=now)
        clear = secrets.token_urlsafe(TOKEN_BYTES)
        device = Device.objects.create(
            tournament=tournament,
            table=pairing.table,
            token_digest=digest(clear),
            token_prefix=clear[:TOKEN_PREFIX_LENGTH],
            label=label[:80],
            last_seen_at=now,
        )
        pairing.used_at = now
        pairing.device = device
        pairing.save(update_fields=["used_at", "device"])
        audit_record(
            action="device.pair",
            obj=device,
            tournament_id=tournament.pk,
            device=device,
            after={"table": device.table, "label": device.label, "revoked": revoked},
        )
    return device, clear


def device_revoke(*, device: Device, user: Actor) -> Device:
    """Revoke a tablet: its token is refused from now on (401). Revoking twice changes nothing."""
    with transaction.atomic():
        locked = Device.objects.select_for_update().get(pk=device.pk)
        if actor(user) is not None:
            require_role(user, locked.tournament_id, "pair_tablets")
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
            audit_record(
                action="device.revoke",
                obj=locked,
                tournament_id=locked.tournament_id,
                user=user,
                after={"table": locked.table},
            )
    return locked


def tournament_devices_revoke(*, tournament: Tournament, user: Actor) -> int:
    """Revoke every active tablet of ``tournament`` and void its unused pairing codes: what finishing it
    does (``events.tournament_update``). A revoked device stays revoked whatever the status becomes later.
    Returns how many devices were revoked (one ``device.revoke`` audit event each)."""
    now = timezone.now()
    with transaction.atomic():
        devices = list(Device.objects.select_for_update().filter(tournament=tournament, revoked_at__isnull=True)
                       .order_by("pk"))
        Device.objects.filter(pk__in=[d.pk for d in devices]).update(revoked_at=now)
        PairingCode.objects.filter(tournament=tournament, used_at__isnull=True, expires_at__gt=now).update(expires_at=now)
        for device in devices:
            device.revoked_at = now
            audit_record(action="device.revoke", obj=device, tournament_id=tournament.pk, user=user,
                         after={"table": device.table, "reason": "tournament_finished"})
    return len(devices)


def device_authenticate(token: str) -> Device | None:
    """The active device holding this token, or None (unknown, revoked, or its tournament ended)."""
    if not token or len(token) > 200:
        return None
    device = (
        Device.objects.select_related("tournament")
        .filter(token_digest=digest(token), revoked_at__isnull=True)
        .first()
    )
    if device is None or device.tournament.status == Tournament.Status.FINISHED:
        return None
    now = timezone.now()
    if device.last_seen_at is None or now - device.last_seen_at >= LAST_SEEN_RESOLUTION:
        Device.objects.filter(pk=device.pk).update(last_seen_at=now)
        device.last_seen_at = now
    return device
