"""Prizes of an event: the organiser's list (``prize_create``, ``prize_update``, ``prize_delete``), how
prizes are shared (``prize_settings_set``: one prize per pair, ties settled by the tie-breaks or split), and
who wins them (``prizes_award``, ``payout_sheet``: reads, defined in ``tournaments.selectors.prizes`` and
named here too, so the end of an event has one module to look at).

A prize is a place overall, the best club, the most hang jacks, the highest count for game in one hand, or
a place among the pairs carrying a tag (ladies, juniors, seniors: ``Entry.tags``). Its amount is in the
event's currency, with at most two decimals; no amount: a trophy or an honour.

Refusals (docs/services.md): 403 ``not_organiser``/``role_not_allowed``; 400 ``prize_invalid`` with
``fields`` naming the field (``category``, ``place``, ``tag``, ``label``, ``amount``, ``order``,
``prize_ties``, ``one_prize_per_pair``); 409 ``tournament_finished`` (the prizes of a finished event are
frozen in its final results: reopen it first).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Prize, Tournament
from tournaments.selectors.prizes import Award, Payout, payout_sheet, prizes_award

from ._common import STANDINGS_TASK, require_organiser
from ._rules import clean_name
from .audit import audit_record
from .checkin import tags_clean
from .errors import Conflict, ValidationFailed
from .outbox import outbox_enqueue
from .publication import public_change

PRIZE_FIELDS = ("category", "place", "tag", "label", "amount", "order")
MAX_PLACE = 999
MAX_AMOUNT = Decimal("9999999.99")
MAX_ORDER = 999
PRIZE_TIES = ("tie_breaks", "split")


def _invalid(field: str, message: str) -> ValidationFailed:
    return ValidationFailed("prize_invalid", message, fields={field: message})


def _int(value: Any, field: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool):
        raise _invalid(field, f"{what} is a whole number from {low} to {high}.")
    try:
        number = int(str(value).strip()) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        raise _invalid(field, f"{what} is a whole number from {low} to {high}.") from None
    if isinstance(value, float) and not value.is_integer():
        raise _invalid(field, f"{what} is a whole number from {low} to {high}.")
    if not low <= number <= high:
        raise _invalid(field, f"{what} is a whole number from {low} to {high}.")
    return number


def amount_clean(value: Any, field: str = "amount") -> Decimal | None:
    """An amount as stored: ``None`` (no amount) or a Decimal of at least 0 with at most two decimals."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        raise _invalid(field, "An amount is a number such as 500 or 250.50.")
    try:
        amount = Decimal(str(value).strip().replace(",", ""))
    except InvalidOperation:
        raise _invalid(field, "An amount is a number such as 500 or 250.50.") from None
    if not amount.is_finite():
        raise _invalid(field, "An amount is a number such as 500 or 250.50.")
    if amount < 0:
        raise _invalid(field, "An amount is 0 or more.")
    if amount != amount.quantize(Decimal("0.01")):
        raise _invalid(field, "An amount has at most two decimals (cents).")
    if amount > MAX_AMOUNT:
        raise _invalid(field, f"An amount is at most {MAX_AMOUNT:,}.")
    return amount.quantize(Decimal("0.01"))


def prize_clean(values: Mapping[str, Any], *, instance: Prize | None = None) -> dict[str, Any]:
    """``values`` (some of ``PRIZE_FIELDS``; the rest from ``instance``) checked together, in their stored
    form. A place or tag that the category does not use is cleared."""
    unknown = sorted(set(values) - set(PRIZE_FIELDS))
    if unknown:
        raise ValidationFailed("prize_invalid", f"Unknown field {unknown[0]!r} of a prize.",
                               fields={name: "Not a field of a prize." for name in unknown})
    current = {name: getattr(instance, name) for name in PRIZE_FIELDS} if instance is not None else {
        "category": Prize.Category.PLACE, "place": None, "tag": "", "label": "", "amount": None, "order": None}
    data = {**current, **values}
    category = data.get("category")
    if category not in Prize.Category.values:
        choices = ", ".join(Prize.Category.values)
        raise _invalid("category", f"A prize's category is one of {choices}.")
    out: dict[str, Any] = {"category": category}
    if category in (Prize.Category.PLACE, Prize.Category.TAG):
        if data.get("place") in (None, ""):
            raise _invalid("place", "Which place this prize is for (1 for the first).")
        out["place"] = _int(data["place"], "place", 1, MAX_PLACE, "A place")
    else:
        out["place"] = None
    if category == Prize.Category.TAG:
        raw = data.get("tag")
        if not isinstance(raw, str) or not raw.strip():
            raise _invalid("tag", "Which tag this prize is for (for example ladies, juniors or seniors).")
        tags = tags_clean(raw, field="tag")
        if len(tags) != 1:
            raise _invalid("tag", "One tag per prize.")
        out["tag"] = tags[0]
    else:
        out["tag"] = ""
    label = data.get("label") or ""
    if not isinstance(label, str):
        raise _invalid("label", "A label is text.")
    label = clean_name(label, "label")
    if len(label) > 80:
        raise _invalid("label", "A label is at most 80 characters.")
    out["label"] = label
    out["amount"] = amount_clean(data.get("amount"))
    order = data.get("order")
    out["order"] = None if order in (None, "") else _int(order, "order", 0, MAX_ORDER, "The order")
    return out


def _lock(tournament: Tournament, user: Actor) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished",
                       "The event is finished: its prizes are frozen in the final results. Reopen it to change them.")
    return locked


def _snapshot(prize: Prize) -> dict[str, Any]:
    return {"category": prize.category, "place": prize.place, "tag": prize.tag, "label": prize.label,
            "amount": None if prize.amount is None else f"{prize.amount:.2f}", "order": prize.order}


def _changed(tournament: Tournament) -> None:
    """Public pages show the prizes: one message so what they show follows (docs/decisions.md, issue 17)."""
    outbox_enqueue(STANDINGS_TASK, [tournament.pk], coalesce_key=f"standings:{tournament.pk}")
    public_change(tournament.pk, standings=True)


@transaction.atomic
def prize_create(*, tournament: Tournament, user: Actor, **values: Any) -> Prize:
    """A new prize (``PRIZE_FIELDS``); without an order it goes last."""
    locked = _lock(tournament, user)
    data = prize_clean(values)
    if data["order"] is None:
        last = Prize.objects.filter(tournament=locked).order_by("-order").values_list("order", flat=True).first()
        data["order"] = min(MAX_ORDER, (last or 0) + 1)
    prize = Prize.objects.create(tournament=locked, **data)
    audit_record(action="prize.create", obj=prize, tournament_id=locked.pk, user=user, after=_snapshot(prize))
    _changed(locked)
    return prize


@transaction.atomic
def prize_update(*, prize: Prize, user: Actor, **values: Any) -> Prize:
    """Change some of a prize's fields (checked with the others)."""
    locked_t = _lock(prize.tournament, user)
    locked = Prize.objects.select_for_update().get(pk=prize.pk, tournament=locked_t)
    before = _snapshot(locked)
    data = prize_clean(values, instance=locked)
    if data["order"] is None:
        data["order"] = locked.order
    for key, value in data.items():
        setattr(locked, key, value)
    locked.save()
    audit_record(action="prize.update", obj=locked, tournament_id=locked_t.pk, user=user, before=before,
                 after=_snapshot(locked))
    _changed(locked_t)
    return locked


@transaction.atomic
def prize_delete(*, prize: Prize, user: Actor) -> None:
    """Remove a prize."""
    locked_t = _lock(prize.tournament, user)
    locked = Prize.objects.select_for_update().get(pk=prize.pk, tournament=locked_t)
    before = _snapshot(locked)
    pk = locked.pk
    locked.delete()
    locked.pk = pk
    audit_record(action="prize.delete", obj=locked, tournament_id=locked_t.pk, user=user, before=before)
    _changed(locked_t)


@transaction.atomic
def prize_settings_set(*, tournament: Tournament, user: Actor, one_prize_per_pair: Any = None,
                       prize_ties: Any = None) -> Tournament:
    """One prize per pair (true or false) and how a tie for a prize is settled (``tie_breaks``: the
    standings order decides; ``split``: the tied share the prizes of their places equally). ``None``: as is."""
    locked = _lock(tournament, user)
    before = {"one_prize_per_pair": locked.one_prize_per_pair, "prize_ties": locked.prize_ties}
    if one_prize_per_pair is not None:
        if not isinstance(one_prize_per_pair, bool):
            raise ValidationFailed("prize_invalid", "One prize per pair is true or false.",
                                   fields={"one_prize_per_pair": "true or false"})
        locked.one_prize_per_pair = one_prize_per_pair
    if prize_ties is not None:
        if prize_ties not in PRIZE_TIES:
            text = "A tie for a prize is settled by the tie-breaks (tie_breaks) or split equally (split)."
            raise ValidationFailed("prize_invalid", text, fields={"prize_ties": text})
        locked.prize_ties = prize_ties
    after = {"one_prize_per_pair": locked.one_prize_per_pair, "prize_ties": locked.prize_ties}
    if after != before:
        locked.save(update_fields=["one_prize_per_pair", "prize_ties"])
        audit_record(action="tournament.prize_settings", obj=locked, tournament_id=locked.pk, user=user,
                     before=before, after=after)
        _changed(locked)
    return locked


__all__ = [
    "PRIZE_FIELDS", "Award", "Payout", "amount_clean", "payout_sheet", "prize_clean", "prize_create", "prize_delete",
    "prize_settings_set", "prize_update", "prizes_award",
]
