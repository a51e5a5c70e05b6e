"""The console's club and player pages (issue 15; docs/leagues-model.md, "Club and player identity"): the
clubs of the organiser's organisations; a club's or a player's page with its rename (a past event keeps the
name it was played under), its aliases, a merge of a spelling variant (pick it, see what moves, then merge)
and its history across seasons. Thin views over ``tournaments.services`` (``club_update``, ``player_update``,
``identity.club_merge``, ``identity.player_merge``) and ``tournaments.selectors.identity`` / ``history``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from tournaments.selectors import history
from tournaments.selectors import identity as reads
from tournaments.services import club_update, player_update
from tournaments.services.identity import club_merge, player_merge

from .league_console import Errors, attempt, refused


def _pick(candidates: list[Any], value: str) -> Any:
    return next((c for c in candidates if str(c.pk) == value.strip()), None)


@login_required
def clubs(request: HttpRequest) -> HttpResponse:
    return render(request, "console/identity/clubs.html", {"clubs": list(reads.clubs_of(request.user))})


@login_required
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    club = reads.club_of(request.user, club_id)
    if club is None:
        raise Http404("No such club of yours")
    candidates = reads.club_merge_candidates(club)
    here = reverse("web:console_club", args=[club.pk])
    errors = _rename_or_merge(
        request, candidates, what="club",
        rename=lambda name: (lambda: club_update(club=club, user=request.user, name=name),
                             f"Renamed {club.name} to {name.strip()}: events already played keep {club.name}."),
        merge=lambda variant: (lambda: club_merge(keep=club, variant=variant, user=request.user),
                               f"{variant.name} merged into {club.name}; its name is kept as an alias."))
    if request.method == "POST" and errors is None:
        return HttpResponseRedirect(here)
    variant = _pick(candidates, request.GET.get("variant", ""))
    return render(request, "console/identity/club.html", {
        "club": club, "errors": errors or {}, "typed_name": request.POST.get("name", "") if errors else "",
        "candidates": candidates, "variant": variant,
        "preview": reads.club_merge_preview(variant.pk) if variant else None,
        "aliases": reads.club_aliases(club), "players": reads.club_players(club),
        "history": history.club_history(club),
    }, status=400 if errors else 200)


@login_required
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = reads.player_of(request.user, player_id)
    if player is None:
        raise Http404("No such player of yours")
    candidates = reads.player_merge_candidates(player)
    here = reverse("web:console_player", args=[player.pk])
    errors = _rename_or_merge(
        request, candidates, what="player",
        rename=lambda name: (lambda: player_update(player=player, user=request.user, name=name),
                             f"Renamed {player.name} to {name.strip()}."),
        merge=lambda variant: (lambda: player_merge(keep=player, variant=variant, user=request.user),
                               f"{variant.name} merged into {player.name}; the name is kept as an alias."))
    if request.method == "POST" and errors is None:
        return HttpResponseRedirect(here)
    variant = _pick(candidates, request.GET.get("variant", ""))
    return render(request, "console/identity/player.html", {
        "player": player, "errors": errors or {}, "typed_name": request.POST.get("name", "") if errors else "",
        "candidates": candidates, "variant": variant,
        "preview": reads.player_merge_preview(variant.pk) if variant else None,
        "aliases": reads.player_aliases(player), "history": history.player_history(player),
    }, status=400 if errors else 200)


def _rename_or_merge(request: HttpRequest, candidates: Any, *, what: str, rename: Any, merge: Any) -> Errors | None:
    """A club's or player's page posts a rename or a merge: run the service the action names (``rename(name)``
    and ``merge(variant)`` give the call and its success message); None when nothing was refused."""
    if request.method != "POST":
        return None
    action = request.POST.get("action")
    if action == "rename":
        return attempt(request, *rename(request.POST.get("name", "")))
    if action == "merge":
        variant = _pick(candidates, request.POST.get("variant", ""))
        if variant is None:
            return refused(f"Choose the {what} to merge into this one.", "variant")
        return attempt(request, *merge(variant))
    return None
