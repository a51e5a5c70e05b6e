"""Club and player identity (issue 15; docs/leagues-model.md, "Club and player identity"): merging a spelling
variant of a club or a player into the record kept.

A merge moves every reference to the variant onto the kept record, keeps the variant's name (and its own
aliases) as aliases of the kept record (an import naming it finds the kept record), deletes the variant and
writes one audit event. What was played keeps its names: an entry's recorded ``club_name`` and a team's
``name`` are not touched.

Refusals (docs/services.md): 400 ``same_record`` (a record merged into itself), 400 ``other_organisation``
(the two belong to different organisations), 403 ``not_owner`` (the caller is not a member of their
organisation), 409 ``player_entered_twice`` (the two players are in one event's entries, or partners in one
pair: merged, one player would be there twice), 409 ``both_in_event`` (two clubs that each field a team in
one event).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models, transaction
from django.db.models import Q

from tournaments.actors import Actor
from tournaments.models import (
    Club,
    ClubAlias,
    Entry,
    EntrySubstitution,
    Pair,
    Player,
    PlayerAlias,
    StandingsSnapshot,
    Team,
    TeamMatch,
    Tournament,
)
from tournaments.selectors.identity import (
    club_merge_preview,
    player_entry_ids,
    player_event_ids,
    player_merge_preview,
)

from .audit import audit_record
from .errors import Conflict, ValidationFailed
from .organisations import require_member
from .people import _announce

M = TypeVar("M", bound=models.Model)


def _locked(model: type[M], keep: M, variant: M, what: str) -> tuple[M, M]:
    """Both records, locked; 409 ``{what}_gone`` when one went meanwhile (a second merge of the same variant
    waited on the lock while the first deleted it)."""
    rows = []
    for record, field in ((keep, "keep"), (variant, "variant")):
        row = model.objects.select_for_update().filter(pk=record.pk).first()  # type: ignore[attr-defined]
        if row is None:
            text = f"That {what} is no longer there: it was merged or deleted meanwhile. Reload the page."
            raise Conflict(f"{what}_gone", text, fields={field: text})
        rows.append(row)
    return rows[0], rows[1]


def _check_pair_of_records(keep: models.Model, variant: models.Model, what: str, user: Actor) -> None:
    if keep.pk == variant.pk:
        raise ValidationFailed("same_record", f"Choose another {what} to merge: a {what} cannot be merged into itself.",
                               fields={"variant": "The same record as the one kept."})
    # "That club" / "That player", never the record's name: a refusal must not read out another organisation's names
    require_member(user, keep.owner_id, field="keep", what=f"That {what}")  # type: ignore[attr-defined]
    require_member(user, variant.owner_id, field="variant", what=f"That {what}")  # type: ignore[attr-defined]
    if keep.owner_id != variant.owner_id:  # type: ignore[attr-defined]
        text = (f"{variant} and {keep} belong to different organisations: only records of one organisation merge "
                f"(copy the other organisation's pair instead).")
        raise ValidationFailed("other_organisation", text, fields={"variant": text})


def _keep_aliases(names: list[str], keep_name: str, model: type[models.Model], owner_field: str,
                  keep: models.Model) -> list[str]:
    kept = []
    existing = {n.casefold() for n in model.objects.filter(**{owner_field: keep}).values_list("name", flat=True)}  # type: ignore[attr-defined]
    for name in names:
        folded = name.casefold()
        if not name or folded == keep_name.casefold() or folded in existing:
            continue
        existing.add(folded)
        model.objects.create(**{owner_field: keep, "name": name})  # type: ignore[attr-defined]
        kept.append(name)
    return kept


def _renumber_snapshots(tournament_ids: set[int], variant_id: int, keep_id: int) -> None:
    """The stored standings of the variant's events name the kept club (their rows carry club ids)."""
    def fix(rows: Any) -> Any:
        if not isinstance(rows, list):
            return rows
        return [{**r, **{k: keep_id for k in ("club_id", "entrant_id") if k in r and r[k] == variant_id
                         and (k == "club_id" or "entry_id" not in r)}} if isinstance(r, dict) else r for r in rows]

    for snap in StandingsSnapshot.objects.filter(tournament_id__in=tournament_ids):
        snap.rows, snap.clubs = fix(snap.rows), fix(snap.clubs)
        snap.save(update_fields=["rows", "clubs"])
    for tournament in Tournament.objects.filter(pk__in=tournament_ids, final_results__isnull=False):
        final = dict(tournament.final_results or {})
        for key in ("standings", "clubs"):
            final[key] = fix(final.get(key))
        tournament.final_results = final
        tournament.save(update_fields=["final_results"])


@transaction.atomic
def club_merge(*, keep: Club, variant: Club, user: Actor) -> dict[str, Any]:
    """Merge the club ``variant`` (a spelling variant) into ``keep``; what moved (counts) and the aliases kept."""
    keep, variant = _locked(Club, keep, variant, "club")
    _check_pair_of_records(keep, variant, "club", user)
    both = set(Team.objects.filter(club=keep).values_list("tournament_id", flat=True)) & set(
        Team.objects.filter(club=variant).values_list("tournament_id", flat=True))
    if both:
        names = ", ".join(Tournament.objects.filter(pk__in=both).order_by("pk").values_list("name", flat=True))
        raise Conflict("both_in_event", f"{keep} and {variant} each field a team in {names}: they stay two clubs.",
                       fields={"variant": f"Both play in {names}."})
    moved = club_merge_preview(variant.pk)
    events = set(Entry.objects.filter(Q(club=variant) | Q(pair__club=variant)).values_list("tournament_id", flat=True))
    events |= set(Team.objects.filter(club=variant).values_list("tournament_id", flat=True))
    Pair.objects.filter(club=variant).update(club=keep)
    Player.objects.filter(club=variant).update(club=keep)
    Entry.objects.filter(club=variant).update(club=keep)  # club_name (the name played under) stays
    Team.objects.filter(club=variant).update(club=keep)
    TeamMatch.objects.filter(club_a=variant).update(club_a=keep)
    TeamMatch.objects.filter(club_b=variant).update(club_b=keep)
    _renumber_snapshots(events, variant.pk, keep.pk)
    names = [variant.name, *ClubAlias.objects.filter(club=variant).values_list("name", flat=True)]
    aliases = _keep_aliases(names, keep.name, ClubAlias, "club", keep)
    before = {"variant": {"id": variant.pk, "name": variant.name, "short_name": variant.short_name,
                          "town": variant.town, "owner": variant.owner_id}}
    variant.delete()
    audit_record(action="club.merge", obj=keep, tournament_id=None, user=user, before=before,
                 after={"moved": moved, "aliases": aliases})
    _announce(Q(club=keep) | Q(pair__club=keep))
    return {"moved": moved, "aliases": aliases}


@transaction.atomic
def player_merge(*, keep: Player, variant: Player, user: Actor) -> dict[str, Any]:
    """Merge the player ``variant`` into ``keep``; what moved (counts) and the aliases kept. 409
    ``player_entered_twice`` when both are in one event's entries (or partners in one pair)."""
    keep, variant = _locked(Player, keep, variant, "player")
    _check_pair_of_records(keep, variant, "player", user)
    partners = Pair.objects.filter(Q(player_1=keep, player_2=variant) | Q(player_1=variant, player_2=keep))
    shared = player_event_ids(keep.pk) & player_event_ids(variant.pk)
    if partners.exists() or shared:
        names = ", ".join(Tournament.objects.filter(pk__in=shared).order_by("pk").values_list("name", flat=True))
        where = f"both play in {names}" if shared else "they are partners in a pair"
        text = f"{keep} and {variant} cannot be merged: {where}, and one player would be there twice."
        raise Conflict("player_entered_twice", text, fields={"variant": text})
    moved = player_merge_preview(variant.pk)
    events = set(player_entry_ids(variant.pk, player_event_ids(variant.pk)))
    for field in ("player_1", "player_2"):
        Pair.objects.filter(**{field: variant}).update(**{field: keep})
        Entry.objects.filter(**{field: variant}).update(**{field: keep})
    EntrySubstitution.objects.filter(in_player=variant).update(in_player=keep)
    EntrySubstitution.objects.filter(out_player=variant).update(out_player=keep)
    names = [variant.name, *PlayerAlias.objects.filter(player=variant).values_list("name", flat=True)]
    aliases = _keep_aliases(names, keep.name, PlayerAlias, "player", keep)
    before = {"variant": {"id": variant.pk, "name": variant.name, "club": variant.club_id, "owner": variant.owner_id},
              "events": sorted(events)}
    variant.delete()
    audit_record(action="player.merge", obj=keep, tournament_id=None, user=user, before=before,
                 after={"moved": moved, "aliases": aliases})
    _announce(Q(player_1=keep) | Q(player_2=keep) | Q(pair__player_1=keep) | Q(pair__player_2=keep))
    return {"moved": moved, "aliases": aliases}
