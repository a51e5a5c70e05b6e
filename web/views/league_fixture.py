"""One fixture of a league season on the console (issue 15): the line-ups, a chalk-sheet form per board
(final score per side, hang jacks, kicks and Game counts when the sheet has them), the match-totals form,
the other captain's confirmation, and the organiser's actions (move, postpone, replay, walkover, void, a
deduction with its reason). The engine's plausibility refusals come back next to the field they name.

The organiser sees every form; a captain of one of the two teams sees the page too and may enter the result
(it then waits for the other captain or the organiser) and confirm the other captain's. The services decide
who may do what; the page only hides what would be refused.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Game, TeamMatch, Tournament
from tournaments.selectors import league_console as reads
from tournaments.services import leagues
from web.http import found
from web.permissions import organiser_tournament

from .league_console import Errors, attempt, date, number, refused


def _access(request: HttpRequest, slug: str, fixture_id: int) -> tuple[Tournament, TeamMatch, bool]:
    """The season, the fixture, and whether the user runs the season (else: a captain of one of its teams)."""
    try:
        season = organiser_tournament(request.user, slug)
        manager = "manage" in getattr(season, "allowed_actions", ())
    except PermissionDenied:
        season = found(selectors.tournament_by_slug, slug)
        manager = False
    match = found(reads.season_fixture, season, fixture_id)
    if not manager and not reads.captain_of(request.user, match) and not hasattr(season, "allowed_actions"):
        raise PermissionDenied("Only the season's organisers and the two teams' captains see this fixture.")
    return season, match, manager


def _pair(post: Any, a: str, b: str, blank: int = -1) -> list[int] | None:
    """Two figures typed (A, B); both blank: None. One blank: ``blank`` (-1, refused by the service as out of
    range, for a figure every sheet has; 0 for an optional one, such as kicks, where only one side scored)."""
    one, two = number(post, a), number(post, b)
    if one is None and two is None:
        return None
    return [blank if one is None else one, blank if two is None else two]


#: The service's field names a chalk sheet's form shows (its inputs are per side: the error sits by side A's).
FIGURES = {"score": "score", "hang_jacks": "hang_jacks", "kicks": "kicks", "game_counts": "game_counts",
           "figures": "figures"}
#: The organiser's actions' fields (a form each; ``action-field`` is an input's id).
ORGANISER_FIELDS = {"reason": "reason", "round": "round", "absent": "absent", "match_points": "match_points",
                    "bullseyes": "bullseyes", "team": "team"}

#: The section of the page each action's form sits in (the summary above links there).
_SECTION = {"paper_game": "board-{board}", "totals": "totals", "lineup": "lineups", "substitute": "substitute"}


def _post(request: HttpRequest, season: Tournament, match: TeamMatch) -> Errors | None:
    post, user, action = request.POST, request.user, request.POST.get("action", "")
    if action == "paper_game":
        board = number(post, "board") or 0
        if not match.boards.filter(pk=board).exists():
            return refused("That board is not of this fixture.")
        return attempt(request, lambda: leagues.paper_game_enter(
            board=board, user=user, score=_pair(post, "score_a", "score_b") or [-1, -1],
            hang_jacks=_pair(post, "hang_jacks_a", "hang_jacks_b") or [-1, -1],
            kicks=_pair(post, "kicks_a", "kicks_b", 0), game_counts=_pair(post, "game_counts_a", "game_counts_b", 0)),
            "Game entered from the chalk sheet.", FIGURES)
    if action == "totals":
        return attempt(request, lambda: leagues.match_totals_enter(
            team_match=match, user=user, games=_pair(post, "games_a", "games_b") or [-1, -1],
            hang_jacks=_pair(post, "hang_jacks_a", "hang_jacks_b") or [-1, -1], played_on=date(post, "played_on"),
            time_called=post.get("time_called") == "on"), "Match totals entered.",
            {"games": "games", "hang_jacks": "hang_jacks", "played_on": "played_on"})
    if action == "confirm":
        return attempt(request, lambda: leagues.match_result_confirm(team_match=match, user=user), "Result confirmed.")
    if action == "lineup":
        team = number(post, "team") or 0
        k = match.format_value().boards
        entries = [number(post, f"slot_{i}") or 0 for i in range(k)]
        return attempt(request, lambda: leagues.lineup_set(team_match=match, team=team, entries=entries, user=user),
                       "Line-up saved.", {"entries": "entries", "lineup": "entries", "team": "entries"})
    if action == "substitute":
        return attempt(request, lambda: leagues.lineup_substitute(
            team_match=match, team=number(post, "team") or 0, slot=(number(post, "slot") or 0) - 1,
            entry=number(post, "entry") or 0, user=user, reason=post.get("reason", "")), "Substitution recorded.",
            {"team": "team", "slot": "slot", "entry": "entry", "reason": "reason"})
    if action == "void_deduction":
        row = match.deductions.filter(pk=number(post, "deduction") or 0, voided=False).first()
        if row is None:
            return refused("No such deduction on this fixture.")
        return attempt(request, lambda: leagues.deduction_void(deduction=row, user=user), "Deduction cancelled.")
    reason = post.get("reason", "")
    simple = {
        "postpone": (lambda: leagues.fixture_postpone(team_match=match, user=user, reason=reason), "Fixture postponed."),
        "move": (lambda: leagues.fixture_move(team_match=match, round=number(post, "round") or 0, user=user),
                 "Fixture moved."),
        "replay": (lambda: leagues.fixture_replay(team_match=match, round=number(post, "round") or 0, user=user,
                                                  reason=reason), "Replay ordered; this fixture is void."),
        "walkover": (lambda: leagues.fixture_walkover(team_match=match, absent=post.get("absent", ""), user=user,
                                                      reason=reason), "Walkover recorded."),
        "void": (lambda: leagues.fixture_void(team_match=match, user=user, reason=reason), "Fixture void."),
        "deduction": (lambda: leagues.deduction_add(
            team=number(post, "team") or 0, user=user, reason=reason, match_points=number(post, "match_points") or 0,
            bullseyes=number(post, "bullseyes") or 0, team_match=match), "Deduction recorded."),
        "void_game": (lambda: leagues.paper_game_void(game=number(post, "game") or 0, user=user, reason=reason),
                      "Game set aside."),
    }
    if action not in simple:
        return refused("Unknown action.")
    work, done = simple[action]
    return attempt(request, work, done, ORGANISER_FIELDS)


@login_required
def fixture_page(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    season, match, manager = _access(request, slug, fixture_id)
    errors: Errors | None = None
    if request.method == "POST":
        errors = _post(request, season, match)
        if errors is None:
            return HttpResponseRedirect(reverse("web:console_season_fixture", args=[slug, fixture_id]))
        if "at" in errors:  # the summary links to the form that was refused (its inputs carry the messages)
            errors["at"] = _SECTION.get(request.POST.get("action", ""), "organiser").format(
                board=number(request.POST, "board"))
        match = reads.season_fixture(season, fixture_id)
    ctx = {
        "tournament": season, "season": season, "match": match, "manager": manager, "cnav": "season",
        "boards": reads.fixture_boards(match), "k": match.format_value().boards,
        "fmt": match.format_value(), "slots": range(match.format_value().boards),
        "lineup_forms": [(team, reads.team_roster(team), lineup) for team, lineup in
                         ((match.team_a, match.lineup_a), (match.team_b, match.lineup_b)) if team is not None],
        "days": list(season.rounds.order_by("number")), "errors": errors or {}, "form": request.POST,
        "action": request.POST.get("action", ""), "board_posted": number(request.POST, "board"),
        "deductions": list(match.deductions.filter(voided=False).select_related("team")),
        "waiting": (match.result_source == TeamMatch.Source.MATCH_TOTALS and not match.confirmed) or any(
            g.result_source == Game.Source.PAPER_GAME and not g.confirmed for fb in reads.fixture_boards(match) for g in fb.games),
    }
    return render(request, "console/leagues/fixture.html", ctx, status=400 if errors else 200)
