"""Check-in and availability (docs/decisions.md, "Availability"): who plays a round, fees paid, tags.

One ``Availability`` row per entry and round says ``present``, ``absent`` or ``bye`` (a requested bye); no
row means present, unless the tournament requires check-in, where it means "not checked in" and the
pair is not drawn. ``round_field`` in ``tournaments.selectors.availability`` reads it; the Swiss draft of
pairs (``services/pairing.py``) pairs only the pairs present and gives every requested bye a bye board.

* ``entry_check_in(entry=, round_number=, state=, user=)``: present, absent or bye for one round, before
  that round is drafted (an organiser, or a scorekeeper at the door).
* ``entry_bye_request(entry=, round_number=, user=, requested=True)``: a requested bye for a round (Swiss
  events of pairs), or withdraws the request.
* ``entry_fee_paid_set(entry=, paid=, user=)``: the entry fee paid or not (the door, like check-in).
* ``entry_tags_set(entry=, tags=, user=)``: the organiser's labels for prize categories (``tags_clean``).
* ``entry_details_set(entry=, user=, ...)``: the console's entry form in one transaction: seed and
  withdrawn (through ``entry_update``), tags and fee paid.

Refusals (docs/services.md): 400 ``state_invalid``, ``round_invalid``, ``tags_invalid``, ``byes_invalid``,
``bye_not_offered`` (a requested bye in a round robin, a knockout or a club-team event), ``value_invalid``;
403 ``not_organiser``; 409 ``round_already_paired`` (that round is drafted or later: change its draft
instead), ``entry_withdrawn``, ``tournament_finished``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Availability, Entry, Round, Tournament

from . import _common
from ._common import actor, require_organiser
from .audit import audit_record
from .errors import Conflict, ValidationFailed

#: At most this many tags on an entry, each at most ``TAG_MAX`` characters.
MAX_TAGS = 8
TAG_MAX = 24
#: The highest round a check-in or a requested bye may name.
MAX_ROUND = 99
STATES = tuple(Availability.State.values)
_TAG_SPLIT = re.compile(r"[;,]")
_TAG_OK = re.compile(r"^[\w][\w '&+./-]*$")


# ---- who may ------------------------------------------------------------------------------------------


def _require(user: Actor, tournament_id: int, action: str) -> None:
    """The roles helper's ``action`` (``tournaments.roles``) when it exists, else an organiser of the
    tournament (403 ``not_organiser``). ``user`` None is the system itself (as in ``entry_create``)."""
    if user is None:
        return
    require_role = getattr(_common, "require_role", None)
    if require_role is not None:
        require_role(user, tournament_id, action)
    else:
        require_organiser(user, tournament_id)


def require_check_in(user: Actor, tournament_id: int) -> None:
    """Check-in and fees: an organiser, a co-organiser or a scorekeeper (the ``check_in`` action)."""
    _require(user, tournament_id, "check_in")


def require_manager(user: Actor, tournament_id: int) -> None:
    """Entries, tags, requested byes and imports: an organiser or a co-organiser (``manage``)."""
    _require(user, tournament_id, "manage")


# ---- tags -------------------------------------------------------------------------------------------------


def tags_clean(value: str | Iterable[str] | None, *, field: str = "tags") -> list[str]:
    """Tags as stored: lower case, inner spaces single, each once, in the order given. ``value`` is a list
    or text separated by ``;`` or ``,`` ("Ladies; juniors"). 400 ``tags_invalid`` for more than
    ``MAX_TAGS``, a tag longer than ``TAG_MAX`` characters, or one with other than letters, digits,
    spaces and ``' & + . / -`` (it must start with a letter or digit)."""
    if value is None:
        return []
    if isinstance(value, str):
        parts: list[Any] = _TAG_SPLIT.split(value)
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        raise ValidationFailed("tags_invalid", "Tags are a list of short names.", fields={field: "a list of names"})
    tags: list[str] = []
    for part in parts:
        if not isinstance(part, str):
            raise ValidationFailed("tags_invalid", "Each tag is a short name.", fields={field: "names only"})
        tag = " ".join(unicodedata.normalize("NFC", part).split()).lower()
        if not tag:
            continue
        if len(tag) > TAG_MAX:
            text = f"The tag {tag[:TAG_MAX]}... is longer than {TAG_MAX} characters."
            raise ValidationFailed("tags_invalid", text, fields={field: text})
        if not _TAG_OK.match(tag):
            text = f"The tag {tag!r} may hold letters, digits and spaces only."
            raise ValidationFailed("tags_invalid", text, fields={field: text})
        if tag not in tags:
            tags.append(tag)
    if len(tags) > MAX_TAGS:
        text = f"At most {MAX_TAGS} tags per pair."
        raise ValidationFailed("tags_invalid", text, fields={field: text})
    return tags


def byes_clean(value: str | Iterable[Any] | None, *, field: str = "byes") -> list[int]:
    """Requested bye rounds as stored: "2; 4", "2, 4" or [2, 4] -> [2, 4] (each once, in order). 400
    ``byes_invalid`` for anything but round numbers from 1 to ``MAX_ROUND``."""
    if value is None:
        return []
    if isinstance(value, str):
        parts: list[Any] = [p for p in value.replace(",", ";").replace(" ", ";").split(";") if p]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        raise ValidationFailed("byes_invalid", "Byes are round numbers, like 2; 4.", fields={field: "round numbers"})
    rounds: set[int] = set()
    for part in parts:
        text = str(part).strip() if not isinstance(part, bool) else "x"
        if not text.isdigit() or not 1 <= int(text) <= MAX_ROUND:
            message = f"{text!r} is not a round number (like 2; 4)"
            raise ValidationFailed("byes_invalid", message, fields={field: message})
        rounds.add(int(text))
    return sorted(rounds)


# ---- shared checks ------------------------------------------------------------------------------------


def _lock_entry(entry: Entry) -> Entry:
    return Entry.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entry.pk)


def round_number_clean(value: Any, *, field: str = "round_number") -> int:
    """A round number from 1 to ``MAX_ROUND`` (400 ``round_invalid``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUND:
        raise ValidationFailed("round_invalid", f"A round number from 1 to {MAX_ROUND}.",
                               fields={field: f"a round from 1 to {MAX_ROUND}"})
    return value


def check_round_open_for_check_in(tournament: Tournament, round_number: int) -> None:
    """409 ``round_already_paired`` once that round is drafted or later (its draft is changed instead)."""
    status = Round.objects.filter(tournament=tournament, number=round_number).values_list("status", flat=True).first()
    if status is not None and status != Round.Status.PENDING:
        raise Conflict("round_already_paired",
                       f"Round {round_number} is already paired: change its draft (swap pairs) instead.")


def bye_offered(tournament: Tournament) -> bool:
    """Requested byes exist in Swiss events of pairs only (a round robin's schedule and a knockout's
    bracket are fixed; a club fields a team)."""
    return tournament.pairing_system == Tournament.PairingSystem.SWISS and not tournament.is_club_teams


def _check_entry_open(entry: Entry) -> None:
    if entry.tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended.")
    if entry.withdrawn:
        raise Conflict("entry_withdrawn", f"{entry} has withdrawn: reinstate the pair first.")


def _set_state(entry: Entry, round_number: int, state: str | None, user: Actor) -> str | None:
    """Store ``state`` for the round (``None``: remove the row, back to the default); the state before."""
    row = Availability.objects.select_for_update().filter(entry=entry, round_number=round_number).first()
    before = row.state if row else None
    if state is None:
        if row is not None:
            row.delete()
    elif row is None:
        Availability.objects.create(entry=entry, round_number=round_number, state=state, updated_by=actor(user))
    elif row.state != state:
        row.state, row.updated_by = state, actor(user)
        row.save(update_fields=["state", "updated_by", "updated_at"])
    return before


# ---- the services ---------------------------------------------------------------------------------------


@transaction.atomic
def entry_check_in(*, entry: Entry, round_number: int, state: str, user: Actor) -> Entry:
    """Record ``state`` (``present``, ``absent`` or ``bye``) of ``entry`` for round ``round_number``,
    before that round is drafted. An organiser or a scorekeeper (``require_check_in``)."""
    locked = _lock_entry(entry)
    require_check_in(user, locked.tournament_id)
    if state not in STATES:
        raise ValidationFailed("state_invalid", f"A state is one of {', '.join(STATES)}.",
                               fields={"state": f"one of {', '.join(STATES)}"})
    round_number = round_number_clean(round_number)
    _check_entry_open(locked)
    if state == Availability.State.BYE and not bye_offered(locked.tournament):
        raise ValidationFailed("bye_not_offered", "Only a Swiss event of pairs takes requested byes.",
                               fields={"state": "present or absent"})
    check_round_open_for_check_in(locked.tournament, round_number)
    before = _set_state(locked, round_number, state, user)
    audit_record(action="entry.check_in", obj=locked, tournament_id=locked.tournament_id, user=user,
                 before={"round": round_number, "state": before}, after={"round": round_number, "state": state})
    return locked


@transaction.atomic
def entry_bye_request(*, entry: Entry, round_number: int, user: Actor, requested: bool = True) -> Entry:
    """A requested bye for round ``round_number`` (Swiss events of pairs), or with ``requested=False`` the
    request withdrawn (the pair is then present, or not checked in where the event requires check-in).
    Organisers only."""
    locked = _lock_entry(entry)
    require_manager(user, locked.tournament_id)
    round_number = round_number_clean(round_number)
    _check_entry_open(locked)
    if not bye_offered(locked.tournament):
        raise ValidationFailed("bye_not_offered", "Only a Swiss event of pairs takes requested byes.",
                               fields={"byes": "no requested byes in this event"})
    check_round_open_for_check_in(locked.tournament, round_number)
    current = Availability.objects.filter(entry=locked, round_number=round_number).values_list("state", flat=True).first()
    if requested:
        before = _set_state(locked, round_number, Availability.State.BYE, user)
    else:
        before = _set_state(locked, round_number, None, user) if current == Availability.State.BYE else current
    audit_record(action="entry.bye_request", obj=locked, tournament_id=locked.tournament_id, user=user,
                 before={"round": round_number, "state": before},
                 after={"round": round_number, "requested": requested})
    return locked


def _byes_set(entry: Entry, rounds: list[int], user: Actor) -> None:
    """The entry's requested byes become ``rounds`` (rounds already paired are left as they are)."""
    paired = set(Round.objects.filter(tournament_id=entry.tournament_id).exclude(status=Round.Status.PENDING)
                 .values_list("number", flat=True))
    current = set(Availability.objects.filter(entry=entry, state=Availability.State.BYE)
                  .values_list("round_number", flat=True))
    wanted = set(rounds)
    for number in sorted((wanted - current) | (current - wanted)):
        if number in paired and number in current:
            continue
        entry_bye_request(entry=entry, round_number=number, user=user, requested=number in wanted)


@transaction.atomic
def entry_fee_paid_set(*, entry: Entry, paid: bool, user: Actor) -> Entry:
    """The entry fee paid (``True``) or not. An organiser or a scorekeeper at the door."""
    locked = _lock_entry(entry)
    require_check_in(user, locked.tournament_id)
    if not isinstance(paid, bool):
        raise ValidationFailed("value_invalid", "Paid is true or false.", fields={"fee_paid": "true or false"})
    if locked.fee_paid != paid:
        locked.fee_paid = paid
        locked.save(update_fields=["fee_paid"])
        audit_record(action="entry.fee_paid", obj=locked, tournament_id=locked.tournament_id, user=user,
                     before={"fee_paid": not paid}, after={"fee_paid": paid})
    return locked


@transaction.atomic
def entry_tags_set(*, entry: Entry, tags: str | Iterable[str] | None, user: Actor) -> Entry:
    """Replace the entry's tags (``tags_clean``: "ladies; juniors" or a list). Organisers only."""
    locked = _lock_entry(entry)
    require_manager(user, locked.tournament_id)
    cleaned = tags_clean(tags)
    if list(locked.tags or []) != cleaned:
        before = list(locked.tags or [])
        locked.tags = cleaned
        locked.save(update_fields=["tags"])
        audit_record(action="entry.tags", obj=locked, tournament_id=locked.tournament_id, user=user,
                     before={"tags": before}, after={"tags": cleaned})
    return locked


_UNSET: Any = object()


@transaction.atomic
def entry_details_set(*, entry: Entry, user: Actor, pair: Any = _UNSET, seed: Any = _UNSET, withdrawn: Any = _UNSET,
                      tags: Any = _UNSET, fee_paid: Any = _UNSET, byes: Any = _UNSET) -> Entry:
    """The entry form (console) or a PATCH of an entry (API) in one transaction: ``pair``, ``seed`` and
    ``withdrawn`` through ``entry_update``, ``tags``, ``fee_paid`` and the requested ``byes`` (rounds, as
    ``byes_clean`` reads them; those of rounds already paired stay) through the services above. Only the
    arguments given change."""
    from .events import entry_update

    changes = {key: value for key, value in (("pair", pair), ("seed", seed), ("withdrawn", withdrawn))
               if value is not _UNSET}
    if changes:
        entry = entry_update(entry=entry, user=user, **changes)
    else:
        require_manager(user, entry.tournament_id)
    if tags is not _UNSET:
        entry = entry_tags_set(entry=entry, tags=tags, user=user)
    if fee_paid is not _UNSET:
        entry = entry_fee_paid_set(entry=entry, paid=fee_paid, user=user)
    if byes is not _UNSET:
        _byes_set(entry, byes_clean(byes), user)
    return Entry.objects.select_related("tournament", "pair").get(pk=entry.pk)
