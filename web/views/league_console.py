"""The organiser's league console (issue 15): leagues and their seasons, and a season's page (divisions,
teams, match days, fixtures entered one by one or generated, the tables). Thin views over
``tournaments.services.leagues`` and ``tournaments.selectors.league_console``: each POST calls one service and
comes back to the page, a refusal shown next to the field it names (``errors``) and above the form.
The fixture page (line-ups, paper results) is ``league_fixture``; import and the next season ``league_import``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import slugify

from tournaments.errors import DomainError
from tournaments.formats import TeamKind
from tournaments.models import Team
from tournaments.selectors import league_console as reads
from tournaments.services import leagues
from tournaments.services.league_people import (
    roster_add_by_names,
    team_add_by_club_name,
    team_captains_by_names,
)
from web.http import found
from web.permissions import organiser_tournament

Errors = dict[str, str]


def refusal_errors(exc: DomainError) -> Errors:
    """A refusal as the page shows it: the sentence above the form (``__all__``) and by each field it names."""
    errors: Errors = {"all": exc.message}
    for key, text in (exc.fields or {}).items():
        name = key.split(".")[0].split("[")[0]
        errors[name] = text if len(text) > 25 else exc.message
    return errors


def attempt(request: HttpRequest, work: Callable[[], Any], done: str) -> Errors | None:
    """Run one service call: a success message and None, or the refusal's errors for the page."""
    try:
        work()
    except DomainError as exc:
        messages.error(request, exc.message)
        return refusal_errors(exc)
    messages.success(request, done)
    return None


def number(data: Mapping[str, Any], name: str) -> int | None:
    """A whole number typed in a form (blank: None; anything else the service refuses by name)."""
    text = str(data.get(name, "")).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return -1  # out of every service's bounds: refused there, by name


def date(data: Mapping[str, Any], name: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(data.get(name, "")).strip())
    except ValueError:
        return None


# ---- leagues --------------------------------------------------------------------------------------------
@login_required
def leagues_index(request: HttpRequest) -> HttpResponse:
    errors: Errors | None = None
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        slug = slugify(request.POST.get("slug", "") or name)[:80]
        errors = attempt(request, lambda: leagues.league_create(user=request.user, name=name, slug=slug),
                         f"League {name} created.")
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_league", args=[slug]))
    return render(request, "console/leagues/index.html", {"leagues": reads.user_leagues(request.user),
                                                          "errors": errors or {}, "form": request.POST},
                  status=400 if errors else 200)


@login_required
def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = found(reads.league_by_slug, request.user, slug)
    errors: Errors | None = None
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        season_slug = slugify(request.POST.get("slug", "") or name)[:80]
        label = request.POST.get("season", "").strip()
        fmt = {"boards": number(request.POST, "boards") or 3, "kind": TeamKind.FIRST_TO_TOTAL.value,
               "n": number(request.POST, "race_to") or 17}
        made: list[Any] = []
        errors = attempt(request, lambda: made.append(leagues.season_create(
            league=league, user=request.user, name=name, slug=season_slug, season=label, team_format=fmt)),
            f"Season {name} created.")
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season", args=[made[0].slug]))
    return render(request, "console/leagues/league.html", {"league": league, "errors": errors or {},
                                                           "form": request.POST}, status=400 if errors else 200)


# ---- a season ---------------------------------------------------------------------------------------------
def _season_post(request: HttpRequest, season: Any) -> Errors | None:
    post, user, action = request.POST, request.user, request.POST.get("action", "")
    if action == "division":
        return attempt(request, lambda: leagues.division_create(
            tournament=season, user=user, name=post.get("name", ""), boards=number(post, "boards"),
            race_target=number(post, "race_to")), "Division added.")
    if action == "team":
        return attempt(request, lambda: team_add_by_club_name(
            tournament=season, user=user, club=post.get("club", ""), name=post.get("name", ""),
            division=number(post, "division")), "Team added.")
    if action == "match_day":
        return attempt(request, lambda: leagues.match_day_create(
            tournament=season, user=user, date=date(post, "date"), venue=post.get("venue", "")), "Match day added.")
    if action == "fixture":
        return attempt(request, lambda: leagues.fixture_create(
            round=_day(season, post), home=number(post, "home") or 0, away=number(post, "away"), user=user),
            "Fixture entered.")
    if action == "match_day_update":
        day = _day(season, post)
        if day is None:
            return {"all": "No such match day in this season.", "round": "a match day"}
        typed = str(post.get("date", "")).strip()
        if typed and date(post, "date") is None:
            return {"all": "A date as YYYY-MM-DD.", "date": "a date"}
        return attempt(request, lambda: leagues.match_day_update(
            round=day, user=user, date=date(post, "date"), venue=post.get("venue", "")),
            f"Match day {day.number} changed.")
    if action == "division_update":
        division = season.divisions.filter(pk=number(post, "division") or 0).first()
        if division is None:
            return {"all": "No such division in this season.", "division": "a division"}
        return attempt(request, lambda: leagues.division_update(
            division=division, user=user, name=post.get("name", ""), order=number(post, "order") or division.order,
            boards=number(post, "boards"), race_target=number(post, "race_to")), "Division changed.")
    if action == "generate":
        return attempt(request, lambda: leagues.fixtures_generate(
            tournament=season, user=user, division=number(post, "division"), double=post.get("double") == "on",
            first_round=number(post, "first_round") or 1), "Fixtures generated.")
    return {"all": "Unknown action."}


def _day(season: Any, post: Mapping[str, Any]) -> Any:
    return season.rounds.filter(pk=number(post, "round") or 0).first() or season.rounds.none().first()


@login_required
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = organiser_tournament(request.user, slug)
    errors: Errors | None = None
    if request.method == "POST":
        season = organiser_tournament(request.user, slug, "manage")
        errors = _season_post(request, season)
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season", args=[slug]) + "#" + request.POST.get("action", ""))
    try:
        tables: dict[str, Any] | None = leagues.league_tables(tournament=season)
        table_error = ""
    except DomainError as exc:
        tables, table_error = None, exc.message
    ctx = {"tournament": season, "season": season, **reads.season_overview(season), "tables": tables,
           "table_error": table_error, "errors": errors or {}, "form": request.POST,
           "action": request.POST.get("action", ""), "cnav": "season"}
    return render(request, "console/leagues/season.html", ctx, status=400 if errors else 200)


@login_required
def team_page(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team: its roster (any number of pairs; K play a fixture) and its captains."""
    season = organiser_tournament(request.user, slug)
    team = Team.objects.filter(pk=team_id, tournament=season).select_related("club", "division").first()
    if team is None:
        raise Http404("No such team")
    errors: Errors | None = None
    if request.method == "POST":
        organiser_tournament(request.user, slug, "manage")

        def add_pair() -> None:
            roster_add_by_names(team=team, user=request.user, player_1=request.POST.get("player_1", ""),
                                player_2=request.POST.get("player_2", ""))

        if request.POST.get("action") == "team_update":
            errors = attempt(request, lambda: leagues.team_update(
                team=team, user=request.user, name=request.POST.get("name", ""),
                division=number(request.POST, "division"), withdrawn=request.POST.get("withdrawn") == "on"),
                "Team changed.")
            if errors is None:
                return HttpResponseRedirect(reverse("web:console_season_team", args=[slug, team.pk]))
            return render(request, "console/leagues/team.html", {
                "tournament": season, "team": team, "roster": reads.team_roster(team), "errors": errors,
                "form": request.POST, "cnav": "season", "divisions": list(season.divisions.order_by("order", "id")),
                "captain_names": ", ".join(u.get_username() for u in team.captains.all())}, status=400)
        if request.POST.get("action") == "captains":
            errors = attempt(request, lambda: team_captains_by_names(
                team=team, user=request.user, usernames=request.POST.get("captains", "")), "Captains saved.")
            if errors is None:
                return HttpResponseRedirect(reverse("web:console_season_team", args=[slug, team.pk]))
            return render(request, "console/leagues/team.html", {
                "tournament": season, "team": team, "roster": reads.team_roster(team), "errors": errors,
                "form": request.POST, "cnav": "season", "captain_names": ""}, status=400)
        errors = attempt(request, add_pair, "Pair added to the roster.")
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season_team", args=[slug, team.pk]))
    return render(request, "console/leagues/team.html", {
        "tournament": season, "team": team, "roster": reads.team_roster(team), "errors": errors or {},
        "form": request.POST, "cnav": "season", "divisions": list(season.divisions.order_by("order", "id")),
        "captain_names": ", ".join(u.get_username() for u in team.captains.all())}, status=400 if errors else 200)
