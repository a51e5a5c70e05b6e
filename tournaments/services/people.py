"""The shared registry of people: clubs, players and pairs; create, change, delete, each audited.

Refusals (docs/services.md): 400 ``unknown_field``, ``required``, ``too_long``, ``name_taken`` (a club's
name), ``same_player`` (a pair is two different players); 409 ``in_use`` (a club with players or pairs,
a player in a pair, a pair entered in a tournament: what refers to it is named).
"""

from __future__ import annotations

from typing import Any

from django.db import models, transaction
from django.db.models import ProtectedError, Q

from tournaments.actors import Actor
from tournaments.models import Club, Entry, Pair, Player, TeamMatch

from ._rules import model_clean, unknown_fields
from .audit import audit_record
from .errors import Conflict, ValidationFailed

CLUB_FIELDS = ("name", "short_name", "town")
PLAYER_FIELDS = ("name", "club")
PAIR_FIELDS = ("name", "player_1", "player_2", "club", "seed")


def _snapshot(obj: models.Model, fields: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in fields:
        field = obj._meta.get_field(name)
        out[name] = getattr(obj, field.attname)
    return out


def _save(obj: models.Model, fields: tuple[str, ...], action: str, user: Actor,
          before: dict[str, Any] | None = None) -> None:
    model_clean(obj)
    obj.save()
    audit_record(action=action, obj=obj, tournament_id=None, user=user, before=before, after=_snapshot(obj, fields))


def _delete(obj: models.Model, fields: tuple[str, ...], action: str, user: Actor, used_by: str | None) -> None:
    if used_by:
        raise Conflict("in_use", f"{obj} cannot be deleted: {used_by} still refer to it.")
    before, pk = _snapshot(obj, fields), obj.pk
    try:
        with transaction.atomic():
            obj.delete()
    except ProtectedError:
        raise Conflict("in_use", f"{obj} cannot be deleted: other records still refer to it.") from None
    obj.pk = pk
    audit_record(action=action, obj=obj, tournament_id=None, user=user, before=before)


def _apply(obj: models.Model, changes: dict[str, Any], allowed: tuple[str, ...], what: str) -> dict[str, Any]:
    unknown_fields(changes, allowed, what)
    before = _snapshot(obj, allowed)
    for key, value in changes.items():
        setattr(obj, key, value)
    return before


# ---- clubs ------------------------------------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, user: Actor, short_name: str = "", town: str = "") -> Club:
    """A new club (400 ``name_taken`` when another club has the name)."""
    club = Club(name=name, short_name=short_name, town=town)
    _save(club, CLUB_FIELDS, "club.create", user)
    return club


@transaction.atomic
def club_update(*, club: Club, user: Actor, **changes: Any) -> Club:
    """Change a club's ``name``, ``short_name`` or ``town``."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = _apply(club, changes, CLUB_FIELDS, "a club")
    _save(club, CLUB_FIELDS, "club.update", user, before)
    return club


@transaction.atomic
def club_delete(*, club: Club, user: Actor) -> None:
    """Delete a club nobody refers to (409 ``in_use`` while it has players, pairs or team matches)."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    used = [what for what, exists in (
        ("its players", club.players.exists()),
        ("its pairs", club.pairs.exists()),
        ("team matches", TeamMatch.objects.filter(Q(club_a=club) | Q(club_b=club)).exists()),
    ) if exists]
    _delete(club, CLUB_FIELDS, "club.delete", user, " and ".join(used) or None)


# ---- players ----------------------------------------------------------------------------------------------


@transaction.atomic
def player_create(*, name: str, user: Actor, club: Club | None = None) -> Player:
    """A new player, of ``club`` or of none."""
    player = Player(name=name, club=club)
    _save(player, PLAYER_FIELDS, "player.create", user)
    return player


@transaction.atomic
def player_update(*, player: Player, user: Actor, **changes: Any) -> Player:
    """Change a player's ``name`` or ``club``."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = _apply(player, changes, PLAYER_FIELDS, "a player")
    _save(player, PLAYER_FIELDS, "player.update", user, before)
    return player


@transaction.atomic
def player_delete(*, player: Player, user: Actor) -> None:
    """Delete a player in no pair (409 ``in_use`` otherwise)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    in_pair = Pair.objects.filter(Q(player_1=player) | Q(player_2=player)).exists()
    _delete(player, PLAYER_FIELDS, "player.delete", user, "pairs" if in_pair else None)


# ---- pairs ------------------------------------------------------------------------------------------------


def _check_pair(pair: Pair) -> None:
    if pair.player_1_id is not None and pair.player_1_id == pair.player_2_id:
        raise ValidationFailed("same_player", "A pair is two different players.",
                               fields={"player_2": "A pair is two different players."})


@transaction.atomic
def pair_create(*, player_1: Player, player_2: Player, user: Actor, club: Club | None = None, name: str = "",
                seed: int | None = None) -> Pair:
    """A partnership of two different players (400 ``same_player``), of ``club`` or of none."""
    pair = Pair(player_1=player_1, player_2=player_2, club=club, name=name, seed=seed)
    _check_pair(pair)
    _save(pair, PAIR_FIELDS, "pair.create", user)
    return pair


@transaction.atomic
def pair_update(*, pair: Pair, user: Actor, **changes: Any) -> Pair:
    """Change a pair's ``name``, players, ``club`` or ``seed`` (400 ``same_player``)."""
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    before = _apply(pair, changes, PAIR_FIELDS, "a pair")
    _check_pair(pair)
    _save(pair, PAIR_FIELDS, "pair.update", user, before)
    return pair


@transaction.atomic
def pair_delete(*, pair: Pair, user: Actor) -> None:
    """Delete a pair entered nowhere (409 ``in_use`` while it is entered in a tournament)."""
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    entered = Entry.objects.filter(pair=pair).exists()
    _delete(pair, PAIR_FIELDS, "pair.delete", user, "tournament entries" if entered else None)
