"""A season's import (teams and results, CSV or XLSX, previewed row by row) and the next season started
from it (issue 15). Thin views over ``tournaments.services.league_import`` and ``league_next_season``.

The preview page keeps the two files (base64 in hidden fields, at most the import's size limit each), so
"Import these rows" sends the very files that were previewed.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import slugify

from tournaments.errors import DomainError
from tournaments.services.import_preview import MAX_BYTES
from tournaments.services.league_import import RESULT_COLUMNS, RESULT_OPTIONAL, TEAM_COLUMNS, season_import
from tournaments.services.league_next_season import LEAVES, season_next, season_next_plan
from web.permissions import organiser_tournament

from .league_console import Errors, refusal_errors


def _kept(request: HttpRequest, name: str) -> tuple[bytes, str] | None:
    """An uploaded file, else the one the preview kept (base64 + its name)."""
    upload = request.FILES.get(name)
    if upload is not None:
        return upload.read(MAX_BYTES + 1), upload.name or ""
    text = request.POST.get(f"{name}_data", "")
    if not text:
        return None
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)[: MAX_BYTES + 1], request.POST.get(f"{name}_name", "")
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None


@login_required
def season_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = organiser_tournament(request.user, slug, "manage")
    ctx: dict[str, Any] = {"tournament": season, "season": season, "cnav": "season", "team_columns": TEAM_COLUMNS,
                           "result_columns": (*RESULT_COLUMNS, *RESULT_OPTIONAL), "errors": {}}
    status = 200
    if request.method == "POST":
        teams, results = _kept(request, "teams_file"), _kept(request, "results_file")
        commit = request.POST.get("commit") == "1"
        try:
            answer = season_import(tournament=season, user=request.user, teams=teams, results=results, commit=commit)
        except DomainError as exc:
            ctx["errors"], status = refusal_errors(exc), 400
        else:
            if answer.stored:
                messages.success(request, f"Imported {answer.counts['teams_new']} teams, {answer.counts['fixtures_new']} "
                                 f"fixtures and {answer.counts['results_entered']} results.")
                return HttpResponseRedirect(reverse("web:console_season", args=[slug]))
            ctx.update(answer=answer, kept={
                name: (base64.b64encode(src[0]).decode("ascii"), src[1]) for name, src in
                (("teams_file", teams), ("results_file", results)) if src is not None})
            status = 200 if answer.ok else 400
    return render(request, "console/leagues/import.html", ctx, status=status)


@login_required
def season_next_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = organiser_tournament(request.user, slug, "manage")
    plan = season_next_plan(season=season)
    errors: Errors = {}
    if request.method == "POST":
        moves: dict[int, int | str | None] = {}
        for planned in plan["teams"]:
            choice = request.POST.get(f"team_{planned.team.pk}", "")
            moves[planned.team.pk] = LEAVES if choice == LEAVES else (int(choice) if choice.isdigit() else None)
        name = request.POST.get("name", "").strip()
        try:
            new = season_next(season=season, user=request.user, name=name,
                              slug=slugify(request.POST.get("slug", "") or name)[:80], label=request.POST.get("season", ""),
                              moves=moves, rosters=request.POST.get("rosters") == "on")
        except DomainError as exc:
            errors = refusal_errors(exc)
        else:
            messages.success(request, f"Season {new.name} created from {season.name}.")
            return HttpResponseRedirect(reverse("web:console_season", args=[new.slug]))
    return render(request, "console/leagues/next.html", {
        "tournament": season, "season": season, "plan": plan, "errors": errors, "form": request.POST,
        "leaves": LEAVES, "cnav": "season"}, status=400 if errors else 200)
