"""The registry of people: clubs, players and pairs; create, change, delete, copy, each audited.

Each record belongs to an organisation (``owner``; docs/adr/0010-owners-and-organisations.md): a new one
goes to the organisation named (the caller must be a member) or to the caller's personal organisation;
only members of its organisation, or staff, change or delete it, and a new record may use (as its club or
players) only records of the caller's organisations. Another organisation's pair is used by copying it
(``pair_copy``).

Refusals (docs/services.md): 400 ``unknown_field``, ``required``, ``too_long``, ``name_invalid``,
``name_taken`` (a club's name, within its organisation), ``same_player`` (a pair is two different players),
``player_entered_twice``; 409 ``pair_has_boards`` (a pair that has played keeps its players and club);
403 ``not_owner`` (``fields`` names the record that is not the caller's); 404 ``not_found`` (a pair to copy
that the caller may not see); 409 ``in_use`` (a club with players or pairs, a player in a pair, a pair
entered in a tournament: what refers to it is named).
"""

from __future__ import annotations

from typing import Any

from django.db import models, transaction
from django.db.models import ProtectedError, Q

from tournaments.actors import Actor
from tournaments.models import Board, Club, Entry, Organisation, Pair, Player, TeamMatch
from tournaments.selectors.registry import copyable_pairs

from ._rules import model_clean, unknown_fields
from .audit import audit_record
from .errors import Conflict, NotFound, ValidationFailed
from .events import check_players_free
from .organisations import owner_for, require_member
from .publication import public_change

CLUB_FIELDS = ("name", "short_name", "town", "owner")
PLAYER_FIELDS = ("name", "club", "owner")
PAIR_FIELDS = ("name", "player_1", "player_2", "club", "seed", "owner")
#: The records a record refers to, checked to be the caller's when they are set or changed.
_REFERENCES = ("club", "player_1", "player_2")


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


def _apply(obj: models.Model, changes: dict[str, Any], allowed: tuple[str, ...], what: str,
           user: Actor) -> dict[str, Any]:
    """Check the caller may change ``obj`` and what it will refer to, then set ``changes`` on it."""
    unknown_fields(changes, allowed, what)
    require_member(user, obj.owner_id, what=f"This {what.removeprefix('a ')}")  # type: ignore[attr-defined]
    before = _snapshot(obj, allowed)
    for key, value in changes.items():
        setattr(obj, key, value)
    changed = {key for key in changes if before.get(key) != _snapshot(obj, (key,))[key]}
    _check_references(obj, user, changed)
    return before


def _check_references(obj: models.Model, user: Actor, names: set[str] | tuple[str, ...]) -> None:
    """The records ``obj`` is given as its club, players or owner are the caller's (403 ``not_owner``)."""
    for name in _REFERENCES:
        if name in names and getattr(obj, f"{name}_id", None) is not None:
            ref = getattr(obj, name)
            require_member(user, ref.owner_id, field=name, what=f"{ref}")
    if "owner" in names:
        require_member(user, obj.owner_id, field="owner", what="That organisation")  # type: ignore[attr-defined]


def _owned(obj: models.Model, user: Actor, owner: Organisation | int | None) -> None:
    obj.owner_id = owner_for(user, owner)  # type: ignore[attr-defined]


# ---- clubs ------------------------------------------------------------------------------------------------


def _announce(shown: Q) -> None:
    """A name changed: every published tournament whose entries (``shown``) show it renders in full, one
    message per tournament (docs/adr/0013; the fingerprints do not see names)."""
    ids = (Entry.objects.filter(shown, tournament__published=True).order_by()
           .values_list("tournament_id", flat=True).distinct())
    for tournament_id in sorted(set(ids)):
        public_change(tournament_id, full=True)


def _check_club_name(club: Club) -> None:
    """A club's name is unique within its organisation, whatever its case (400 ``name_taken``)."""
    clash = Club.objects.filter(owner_id=club.owner_id, name__iexact=club.name).exclude(pk=club.pk)
    if club.name and clash.exists():
        text = "Your organisation already has a club of this name."
        raise ValidationFailed("name_taken", text, fields={"name": text})


@transaction.atomic
def club_create(*, name: str, user: Actor, short_name: str = "", town: str = "",
                owner: Organisation | int | None = None) -> Club:
    """A new club of ``owner`` (the caller's personal organisation by default); 400 ``name_taken`` when the
    organisation has a club of that name."""
    club = Club(name=name, short_name=short_name, town=town)
    _owned(club, user, owner)
    model_clean(club)
    _check_club_name(club)
    _save(club, CLUB_FIELDS, "club.create", user)
    return club


@transaction.atomic
def club_update(*, club: Club, user: Actor, **changes: Any) -> Club:
    """Change a club's ``name``, ``short_name``, ``town`` or ``owner`` (its organisation's members)."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = _apply(club, changes, CLUB_FIELDS, "a club", user)
    model_clean(club)
    _check_club_name(club)
    _save(club, CLUB_FIELDS, "club.update", user, before)
    if before["name"] != club.name:
        # A rename reaches only events not yet played: a past event keeps the name it was played under.
        unplayed_entries(Entry.objects.filter(club=club)).update(club_name=club.name)
    _announce(Q(club=club) | Q(pair__club=club))
    return club


def unplayed_entries(entries: models.QuerySet[Entry]) -> models.QuerySet[Entry]:
    """``entries`` of events neither finished nor with a board (what a rename still reaches)."""
    return (entries.exclude(tournament__status="finished")
            .exclude(tournament__in=Board.objects.values("round__tournament_id")))


@transaction.atomic
def club_delete(*, club: Club, user: Actor) -> None:
    """Delete a club nobody refers to (409 ``in_use`` while it has players, pairs or team matches)."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    require_member(user, club.owner_id, what="This club")
    used = [what for what, exists in (
        ("its players", club.players.exists()),
        ("its pairs", club.pairs.exists()),
        ("team matches", TeamMatch.objects.filter(Q(club_a=club) | Q(club_b=club)).exists()),
    ) if exists]
    _delete(club, CLUB_FIELDS, "club.delete", user, " and ".join(used) or None)


# ---- players ----------------------------------------------------------------------------------------------


@transaction.atomic
def player_create(*, name: str, user: Actor, club: Club | None = None,
                  owner: Organisation | int | None = None) -> Player:
    """A new player, of ``club`` (one of the caller's) or of none; owned by ``owner``, else by the club's
    organisation, else by the caller's personal organisation."""
    player = Player(name=name, club=club)
    _check_references(player, user, ("club",))
    _owned(player, user, owner if owner is not None or club is None else club.owner_id)
    _save(player, PLAYER_FIELDS, "player.create", user)
    return player


@transaction.atomic
def player_update(*, player: Player, user: Actor, **changes: Any) -> Player:
    """Change a player's ``name``, ``club`` or ``owner`` (its organisation's members)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = _apply(player, changes, PLAYER_FIELDS, "a player", user)
    _save(player, PLAYER_FIELDS, "player.update", user, before)
    _announce(Q(player_1=player) | Q(player_2=player) | Q(pair__player_1=player) | Q(pair__player_2=player)
              | Q(substitutions__in_player=player) | Q(substitutions__out_player=player))
    return player


@transaction.atomic
def player_delete(*, player: Player, user: Actor) -> None:
    """Delete a player in no pair (409 ``in_use`` otherwise)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    require_member(user, player.owner_id, what="This player")
    in_pair = Pair.objects.filter(Q(player_1=player) | Q(player_2=player)).exists()
    _delete(player, PLAYER_FIELDS, "player.delete", user, "pairs" if in_pair else None)


# ---- pairs ------------------------------------------------------------------------------------------------


def _check_pair(pair: Pair) -> None:
    if pair.player_1_id is not None and pair.player_1_id == pair.player_2_id:
        raise ValidationFailed("same_player", "A pair is two different players.",
                               fields={"player_2": "A pair is two different players."})


@transaction.atomic
def pair_create(*, player_1: Player, player_2: Player, user: Actor, club: Club | None = None, name: str = "",
                seed: int | None = None, owner: Organisation | int | None = None) -> Pair:
    """A partnership of two different players (400 ``same_player``), of ``club`` or of none; the club and
    players are the caller's; owned by ``owner``, else by the club's organisation, else by the caller's
    personal organisation."""
    pair = Pair(player_1=player_1, player_2=player_2, club=club, name=name, seed=seed)
    _check_pair(pair)
    _check_references(pair, user, _REFERENCES)
    _owned(pair, user, owner if owner is not None or club is None else club.owner_id)
    _save(pair, PAIR_FIELDS, "pair.create", user)
    return pair


#: What a pair that has played keeps (issue 11 item 3): who played, and the club its results count for.
PLAYED_FIELDS = ("player_1", "player_2", "club")


@transaction.atomic
def pair_update(*, pair: Pair, user: Actor, **changes: Any) -> Pair:
    """Change a pair's ``name``, players, ``club``, ``seed`` or ``owner`` (400 ``same_player``).

    A pair with a board in any tournament keeps its players and club (409 ``pair_has_boards``, ``fields``
    naming each): its results stay credited to who played them. Before that, its entries take the change
    (an entry records its pair's club and players), and a player who already plays for another entry of one
    of their tournaments is refused (400 ``player_entered_twice``)."""
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    before = _apply(pair, changes, PAIR_FIELDS, "a pair", user)
    played = [name for name in PLAYED_FIELDS if name in changes and before[name] != _snapshot(pair, (name,))[name]]
    entries = list(Entry.objects.filter(pair=pair).select_related("tournament")) if played else []
    if played and Board.objects.filter(Q(pair_a__in=entries) | Q(pair_b__in=entries)).exists():
        text = "This pair has played: it keeps its players and its club (make a new pair instead)."
        raise Conflict("pair_has_boards", text, fields={name: text for name in played})
    _check_pair(pair)
    for entry in entries:
        moved = {name: getattr(pair, name) for name in ("player_1", "player_2") if name in played}
        if moved:
            check_players_free(entry.tournament_id, moved, exclude=entry)
    _save(pair, PAIR_FIELDS, "pair.update", user, before)
    for entry in entries:
        entry.pair = pair
        entry.record_pair(again=True)
        entry.save(update_fields=["club", "club_name", "player_1", "player_2"])
    _announce(Q(pair=pair))
    return pair


@transaction.atomic
def pair_delete(*, pair: Pair, user: Actor) -> None:
    """Delete a pair entered nowhere (409 ``in_use`` while it is entered in a tournament)."""
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    require_member(user, pair.owner_id, what="This pair")
    entered = Entry.objects.filter(pair=pair).exists()
    _delete(pair, PAIR_FIELDS, "pair.delete", user, "tournament entries" if entered else None)


@transaction.atomic
def pair_copy(*, pair: Pair, user: Actor, owner: Organisation | int | None = None) -> tuple[Pair, bool]:
    """Copy another organisation's pair into the caller's (their personal organisation, or ``owner``): its
    club by name (made there if missing, with its short name and town), its players by name within that club
    (made if missing) and the pair itself; ``(pair, created)``. Copying again answers the copy already made.

    The pair must be copyable by the caller (``selectors.copyable_pairs``: entered in a published tournament
    or in one the caller holds a role on, or already theirs); 404 ``not_found`` otherwise, as for a read."""
    if not copyable_pairs(user).filter(pk=pair.pk).exists():
        raise NotFound("not_found", "No such pair.")
    source = Pair.objects.select_related("player_1", "player_2", "club").get(pk=pair.pk)
    target = owner_for(user, owner)
    if source.owner_id == target:
        return source, False
    club = None
    if source.club is not None:
        club = Club.objects.filter(owner_id=target, name__iexact=source.club.name).order_by("id").first()
        if club is None:
            club = club_create(name=source.club.name, short_name=source.club.short_name, town=source.club.town,
                               owner=target, user=user)
    players = []
    for original in (source.player_1, source.player_2):
        player = Player.objects.filter(owner_id=target, club=club, name__iexact=original.name).order_by("id").first()
        players.append(player or player_create(name=original.name, club=club, owner=target, user=user))
    p1, p2 = players
    existing = Pair.objects.filter(owner_id=target).filter(
        Q(player_1=p1, player_2=p2) | Q(player_1=p2, player_2=p1)).order_by("id").first()
    if existing is not None:
        return existing, False
    copy = pair_create(player_1=p1, player_2=p2, club=club, name=source.name, seed=source.seed, owner=target,
                       user=user)
    audit_record(action="pair.copy", obj=copy, tournament_id=None, user=user,
                 before={"pair": source.pk, "owner": source.owner_id}, after={"owner": target})
    return copy, True
