"""Club and player identity (issue 15; docs/leagues-model.md, "Club and player identity"): finding a club or
a player by a name or one of its aliases, and what a merge of a spelling variant would move."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.actors import Actor
from tournaments.models import (
    Club,
    ClubAlias,
    Entry,
    EntrySubstitution,
    Pair,
    Player,
    PlayerAlias,
    Team,
    TeamMatch,
)

from .availability import owned_records


def club_named(name: str) -> Q:
    """Clubs called ``name`` or with it as an alias (any case): ``Club.objects.filter(club_named(name))``."""
    return Q(name__iexact=name) | Q(pk__in=ClubAlias.objects.filter(name__iexact=name).values("club_id"))


def player_named(name: str) -> Q:
    """Players called ``name`` or with it as an alias (any case)."""
    return Q(name__iexact=name) | Q(pk__in=PlayerAlias.objects.filter(name__iexact=name).values("player_id"))


def club_merge_preview(variant_id: int) -> dict[str, int]:
    """What merging the club ``variant_id`` into another moves: counts per kind of record."""
    return {
        "pairs": Pair.objects.filter(club_id=variant_id).count(),
        "players": Player.objects.filter(club_id=variant_id).count(),
        "entries": Entry.objects.filter(club_id=variant_id).count(),
        "teams": Team.objects.filter(club_id=variant_id).count(),
        "team_matches": TeamMatch.objects.filter(Q(club_a_id=variant_id) | Q(club_b_id=variant_id)).count(),
        "aliases": ClubAlias.objects.filter(club_id=variant_id).count(),
    }


def player_merge_preview(variant_id: int) -> dict[str, int]:
    """What merging the player ``variant_id`` into another moves: counts per kind of record."""
    return {
        "pairs": Pair.objects.filter(Q(player_1_id=variant_id) | Q(player_2_id=variant_id)).count(),
        "entries": Entry.objects.filter(Q(player_1_id=variant_id) | Q(player_2_id=variant_id)).count(),
        "substitutions": EntrySubstitution.objects.filter(
            Q(in_player_id=variant_id) | Q(out_player_id=variant_id)).count(),
        "aliases": PlayerAlias.objects.filter(player_id=variant_id).count(),
    }


def player_event_ids(player_id: int) -> set[int]:
    """The tournaments whose entries have the player: recorded, in the pair, or as a substitute either way."""
    entries = Entry.objects.filter(
        Q(player_1_id=player_id) | Q(player_2_id=player_id) | Q(pair__player_1_id=player_id)
        | Q(pair__player_2_id=player_id) | Q(substitutions__in_player_id=player_id)
        | Q(substitutions__out_player_id=player_id))
    return set(entries.values_list("tournament_id", flat=True))


def player_entry_ids(player_id: int, tournament_ids: set[int]) -> dict[int, set[int]]:
    """Per tournament of ``tournament_ids``, the entries that have the player."""
    entries = Entry.objects.filter(tournament_id__in=tournament_ids).filter(
        Q(player_1_id=player_id) | Q(player_2_id=player_id) | Q(pair__player_1_id=player_id)
        | Q(pair__player_2_id=player_id) | Q(substitutions__in_player_id=player_id)
        | Q(substitutions__out_player_id=player_id))
    out: dict[int, set[int]] = {}
    for tid, eid in entries.values_list("tournament_id", "id"):
        out.setdefault(tid, set()).add(eid)
    return out


# ---- the console's club and player pages -----------------------------------------------------------------


def clubs_of(user: Actor) -> QuerySet[Club]:
    """The clubs of the caller's organisations (every club for the system), by name."""
    return owned_records(Club.objects.select_related("owner"), user).order_by("name", "id")


def club_of(user: Actor, club_id: int) -> Club | None:
    """The caller's club ``club_id`` (None: not theirs, or none)."""
    return clubs_of(user).filter(pk=club_id).first()


def player_of(user: Actor, player_id: int) -> Player | None:
    return owned_records(Player.objects.select_related("club", "owner"), user).filter(pk=player_id).first()


def club_players(club: Club) -> list[Player]:
    return list(Player.objects.filter(club=club).order_by("name", "id"))


def club_aliases(club: Club) -> list[str]:
    return list(ClubAlias.objects.filter(club=club).values_list("name", flat=True))


def player_aliases(player: Player) -> list[str]:
    return list(PlayerAlias.objects.filter(player=player).values_list("name", flat=True))


def club_merge_candidates(club: Club) -> list[Club]:
    """The other clubs of the club's organisation (what may be merged into it)."""
    return list(Club.objects.filter(owner_id=club.owner_id).exclude(pk=club.pk).order_by("name", "id"))


def player_merge_candidates(player: Player) -> list[Player]:
    """The other players of the player's organisation, those of its club first."""
    others = Player.objects.filter(owner_id=player.owner_id).exclude(pk=player.pk).select_related("club")
    return sorted(others, key=lambda p: (p.club_id != player.club_id, p.name.casefold(), p.pk))
