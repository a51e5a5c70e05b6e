"""The archive's people in the importer's organisation: clubs, players and pairs matched by name, or created.

- A club is the organisation's club of the same name (names are unique within an organisation), else the club
  that has the name as an alias (a spelling variant merged into it; ``services.identity``), else new; each
  existing club taken by at most one of the archive's.
- A player is the organisation's player of the same name in the matched club (the same name without a club
  when the archive's player has none), else one with the name as an alias, each existing player taken by at
  most one of the archive's; else new.
- A pair is the organisation's pair of the same two players (either order) and club, else new.

``people_plan`` only reads (the preview counts what would be created); ``people_write`` creates what is
missing and returns local id -> database id per kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Club, ClubAlias, Pair, Player, PlayerAlias


@dataclass
class PeoplePlan:
    """Per kind, local id -> an existing row's id, or None where one is to be created."""

    clubs: dict[int, int | None] = field(default_factory=dict)
    players: dict[int, int | None] = field(default_factory=dict)
    pairs: dict[int, int | None] = field(default_factory=dict)

    def counts(self) -> dict[str, dict[str, int]]:
        """{"clubs": {"matched": n, "created": m}, ...}."""
        return {kind: {"matched": sum(1 for v in table.values() if v is not None),
                       "created": sum(1 for v in table.values() if v is None)}
                for kind, table in (("clubs", self.clubs), ("players", self.players), ("pairs", self.pairs))}


def people_plan(people: dict[str, Any], owner_id: int) -> PeoplePlan:
    """Which of the archive's clubs, players and pairs the organisation already has (reads only)."""
    plan = PeoplePlan()
    plan.clubs = _clubs_plan(people["clubs"], owner_id)
    candidates: dict[tuple[str, int | None], list[int]] = {}
    for pk, name, club_id in Player.objects.filter(owner_id=owner_id).order_by("id").values_list("pk", "name", "club_id"):
        candidates.setdefault((name.strip().casefold(), club_id), []).append(pk)
    aliases = (PlayerAlias.objects.filter(player__owner_id=owner_id).order_by("player_id", "id")
               .values_list("player_id", "name", "player__club_id"))
    for pk, name, club_id in aliases:  # after the players of that very name
        candidates.setdefault((name.strip().casefold(), club_id), []).append(pk)
    taken: set[int] = set()
    for player in people["players"]:
        club = plan.clubs.get(player["club"]) if player["club"] is not None else None
        if player["club"] is not None and club is None:
            plan.players[player["id"]] = None  # a new club has no players yet
            continue
        free = [pk for pk in candidates.get((player["name"].strip().casefold(), club), []) if pk not in taken]
        plan.players[player["id"]] = free[0] if free else None
        if free:
            taken.add(free[0])
    existing: dict[tuple[frozenset[int], int | None], int] = {}
    for pk, p1, p2, club_id in (Pair.objects.filter(owner_id=owner_id).order_by("-id")
                                .values_list("pk", "player_1_id", "player_2_id", "club_id")):
        existing[(frozenset((p1, p2)), club_id)] = pk
    for pair in people["pairs"]:
        p1, p2 = plan.players.get(pair["player_1"]), plan.players.get(pair["player_2"])
        club = plan.clubs.get(pair["club"]) if pair["club"] is not None else None
        if p1 is None or p2 is None or (pair["club"] is not None and club is None):
            plan.pairs[pair["id"]] = None
            continue
        plan.pairs[pair["id"]] = existing.get((frozenset((p1, p2)), club))
    return plan


def _clubs_plan(clubs: list[dict[str, Any]], owner_id: int) -> dict[int, int | None]:
    """The archive's clubs matched by name, then the rest by an alias; an existing club taken at most once (two
    clubs of the archive stay two clubs here, whatever this organisation merged)."""
    named = {c.name.casefold(): c.pk for c in Club.objects.filter(owner_id=owner_id)}
    aliased: dict[str, int] = {}
    for name, club_id in ClubAlias.objects.filter(club__owner_id=owner_id).order_by("club_id", "id").values_list(
            "name", "club_id"):
        aliased.setdefault(name.strip().casefold(), club_id)
    plan: dict[int, int | None] = {c["id"]: named.get(c["name"].strip().casefold()) for c in clubs}
    taken = {pk for pk in plan.values() if pk is not None}
    for club in clubs:
        if plan[club["id"]] is None:
            pk = aliased.get(club["name"].strip().casefold())
            if pk is not None and pk not in taken:
                plan[club["id"]] = pk
                taken.add(pk)
    return plan


def people_write(people: dict[str, Any], plan: PeoplePlan, owner_id: int) -> dict[str, dict[int, int]]:
    """Create the clubs, players and pairs the plan lacks; local id -> database id for ``club``, ``player``
    and ``pair`` (call inside the import's transaction)."""
    ids: dict[str, dict[int, int]] = {"club": {}, "player": {}, "pair": {}}
    for club in people["clubs"]:
        pk = plan.clubs.get(club["id"])
        if pk is None:
            pk = Club.objects.create(name=club["name"].strip(), short_name=club.get("short_name", ""),
                                     town=club.get("town", ""), owner_id=owner_id).pk
        ids["club"][club["id"]] = pk
    new_players = [p for p in people["players"] if plan.players.get(p["id"]) is None]
    made = Player.objects.bulk_create([
        Player(name=p["name"].strip(), club_id=ids["club"].get(p["club"]) if p["club"] is not None else None,
               owner_id=owner_id) for p in new_players])
    for player, row in zip(new_players, made, strict=True):
        ids["player"][player["id"]] = row.pk
    for player in people["players"]:
        pk = plan.players.get(player["id"])
        if pk is not None:
            ids["player"][player["id"]] = pk
    for pair in people["pairs"]:
        pk = plan.pairs.get(pair["id"])
        if pk is None:
            pk = Pair.objects.create(
                name=pair.get("name", ""), player_1_id=ids["player"][pair["player_1"]],
                player_2_id=ids["player"][pair["player_2"]], seed=pair.get("seed"), owner_id=owner_id,
                club_id=ids["club"].get(pair["club"]) if pair["club"] is not None else None).pk
        ids["pair"][pair["id"]] = pk
    return ids


__all__ = ["PeoplePlan", "people_plan", "people_write"]
