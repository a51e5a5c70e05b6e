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


def refusal_errors(exc: DomainError, names: Mapping[str, str] | None = None, prefix: str = "") -> Errors:
    """A refusal as a page shows it: each field the service names at the form's field (``names`` maps a
    service path, or its head, to the form's field; default the head itself), under the form field's name.
    ``at`` is the id of the first field shown (``prefix`` + its name: the summary above links to it); ``all``
    the sentence when no field of the form takes it (the summary is then the refusal itself)."""
    errors: Errors = {}
    placed_all = True
    for key, text in (exc.fields or {}).items():
        head = key.split(".")[0].split("[")[0]
        name = (names or {}).get(key) or (names or {}).get(head) or (head if names is None else "")
        if not name:
            placed_all = False
            continue
        errors.setdefault(name, text if len(text) > 25 else exc.message)
        errors.setdefault("at", prefix + name)
    errors["summary"] = exc.message
    if not exc.fields or not placed_all or "at" not in errors:
        errors["all"] = exc.message
    return errors


def refused(message: str, name: str = "", prefix: str = "") -> Errors:
    """A refusal the page makes itself (a date that is not one, a row not of this season), at ``name``."""
    return refusal_errors(DomainError("invalid", message, fields={name: message} if name else None), None, prefix)


def attempt(request: HttpRequest, work: Callable[[], Any], done: str, names: Mapping[str, str] | None = None,
            prefix: str = "") -> Errors | None:
    """Run one service call: a success message and None, or the refusal's errors for the page (shown on the
    page itself, by its fields and in the summary above: not as a flash message too)."""
    try:
        work()
    except DomainError as exc:
        return refusal_errors(exc, names, prefix)
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


SEASON_FIELDS = {"name": "name", "slug": "slug", "season": "season", "team_format.boards": "boards",
                 "team_format.n": "race_to", "team_format": "boards"}


# ---- leagues --------------------------------------------------------------------------------------------
@login_required
def leagues_index(request: HttpRequest) -> HttpResponse:
    errors: Errors | None = None
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        slug = slugify(request.POST.get("slug", "") or name)[:80]
        errors = attempt(request, lambda: leagues.league_create(user=request.user, name=name, slug=slug),
                         f"League {name} created.", {"name": "name", "slug": "slug"})
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
        boards, race_to = number(request.POST, "boards"), number(request.POST, "race_to")
        fmt = {"boards": 3 if boards is None else boards, "kind": TeamKind.FIRST_TO_TOTAL.value,
               "n": 17 if race_to is None else race_to}
        made: list[Any] = []
        errors = attempt(request, lambda: made.append(leagues.season_create(
            league=league, user=request.user, name=name, slug=season_slug, season=label, team_format=fmt)),
            f"Season {name} created.", SEASON_FIELDS)
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season", args=[made[0].slug]))
    return render(request, "console/leagues/league.html", {"league": league, "errors": errors or {},
                                                           "form": request.POST}, status=400 if errors else 200)


# ---- a season ---------------------------------------------------------------------------------------------
DIVISION_FIELDS = {"name": "name", "order": "order", "boards": "boards", "race_target": "race_to"}
DAY_FIELDS = {"date": "date", "venue": "venue"}


def _typed_date(post: Mapping[str, Any], prefix: str) -> Errors | None:
    """A date typed that is not one is refused at its field (blank is no date)."""
    if str(post.get("date", "")).strip() and date(post, "date") is None:
        return refused("A date as YYYY-MM-DD.", "date", prefix)
    return None


def _season_post(request: HttpRequest, season: Any) -> Errors | None:
    post, user, action = request.POST, request.user, request.POST.get("action", "")
    if action == "division":
        return attempt(request, lambda: leagues.division_create(
            tournament=season, user=user, name=post.get("name", ""), boards=number(post, "boards"),
            race_target=number(post, "race_to")), "Division added.", DIVISION_FIELDS, "division-")
    if action == "team":
        return attempt(request, lambda: team_add_by_club_name(
            tournament=season, user=user, club=post.get("club", ""), name=post.get("name", ""),
            division=number(post, "division")), "Team added.",
            {"name": "name", "club": "club", "division": "division"}, "team-")
    if action == "match_day":
        return _typed_date(post, "match_day-") or attempt(request, lambda: leagues.match_day_create(
            tournament=season, user=user, date=date(post, "date"), venue=post.get("venue", "")), "Match day added.",
            DAY_FIELDS, "match_day-")
    if action == "fixture":
        fixture_day = _day(season, post)
        if fixture_day is None:  # a stale or forged choice: refused at the field, never a 500
            return refused("No such match day in this season: choose one of the list.", "round", "fixture-")
        return attempt(request, lambda: leagues.fixture_create(
            round=fixture_day, home=number(post, "home") or 0, away=number(post, "away"), user=user),
            "Fixture entered.", {"round": "round", "home": "home", "away": "away"}, "fixture-")
    if action == "match_day_update":
        day = _day(season, post)
        if day is None:
            return refused("No such match day in this season.")
        prefix = f"mdu-{day.pk}-"
        return _typed_date(post, prefix) or attempt(request, lambda: leagues.match_day_update(
            round=day, user=user, date=date(post, "date"), venue=post.get("venue", "")),
            f"Match day {day.number} changed.", DAY_FIELDS, prefix)
    if action == "division_update":
        division = season.divisions.filter(pk=number(post, "division") or 0).first()
        if division is None:
            return refused("No such division in this season.")
        order = number(post, "order")
        return attempt(request, lambda: leagues.division_update(
            division=division, user=user, name=post.get("name", ""), order=division.order if order is None else order,
            boards=number(post, "boards"), race_target=number(post, "race_to")), "Division changed.",
            DIVISION_FIELDS, f"du-{division.pk}-")
    if action == "generate":
        return attempt(request, lambda: leagues.fixtures_generate(
            tournament=season, user=user, division=number(post, "division"), double=post.get("double") == "on",
            first_round=number(post, "first_round") or 1), "Fixtures generated.",
            {"division": "division", "first_round": "first_round"}, "generate-")
    return refused("Unknown action.")


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
    overview = reads.season_overview(season)
    action = request.POST.get("action", "") if errors else ""
    ctx = {"tournament": season, "season": season, **overview, "tables": tables,
           "table_error": table_error, "errors": errors or {}, "form": request.POST, "action": action,
           # the refused form's errors and typing, under its action: the page's other forms stay as they were
           "posted": {action: {"e": errors, "v": request.POST}} if errors else {},
           "row": f"{action}-{request.POST.get('round') or request.POST.get('division') or ''}",  # a row's form refused
           "day_options": [(d.round.pk, f"{d.round.number}" + (f" · {d.round.date:%-d %b}" if d.round.date else ""))
                           for d in overview["days"]],
           "team_options": [(t.pk, t.name) for t in overview["teams"]],
           "division_options": [(d.pk, d.name) for d in overview["divisions"]], "cnav": "season"}
    return render(request, "console/leagues/season.html", ctx, status=400 if errors else 200)


def _team_post(request: HttpRequest, team: Team) -> Errors | None:
    post, user, action = request.POST, request.user, request.POST.get("action", "")
    if action == "team_update":
        return attempt(request, lambda: leagues.team_update(
            team=team, user=user, name=post.get("name", ""), division=number(post, "division"),
            withdrawn=post.get("withdrawn") == "on"), "Team changed.", {"name": "name", "division": "division"}, "te-")
    if action == "captains":
        return attempt(request, lambda: team_captains_by_names(team=team, user=user, usernames=post.get("captains", "")),
                       "Captains saved.", {"captains": "captains"})
    for blank in ("player_1", "player_2"):
        if not str(post.get(blank, "")).strip():
            return refused("A pair is two players: type both names.", blank)
    return attempt(request, lambda: roster_add_by_names(
        team=team, user=user, player_1=post.get("player_1", ""), player_2=post.get("player_2", "")),
        "Pair added to the roster.", {"player_1": "player_1", "player_2": "player_2", "pair": "player_1"})


@login_required
def team_page(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team: its roster (any number of pairs; K play a fixture), its name and division, its captains."""
    season = organiser_tournament(request.user, slug)
    team = Team.objects.filter(pk=team_id, tournament=season).select_related("club", "division").first()
    if team is None:
        raise Http404("No such team")
    errors: Errors | None = None
    if request.method == "POST":
        organiser_tournament(request.user, slug, "manage")
        errors = _team_post(request, team)
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season_team", args=[slug, team.pk]))
        team.refresh_from_db()
    return render(request, "console/leagues/team.html", {
        "tournament": season, "team": team, "roster": reads.team_roster(team), "errors": errors or {},
        "form": request.POST, "posted": {request.POST.get("action") or "roster": {"e": errors, "v": request.POST}}
        if errors else {}, "cnav": "season", "team_division": str(team.division_id or ""),
        "division_options": [(d.pk, d.name) for d in season.divisions.order_by("order", "id")],
        "captain_names": ", ".join(u.get_username() for u in team.captains.all())}, status=400 if errors else 200)
