"""Reads for the organiser's league console and API (issue 15): a user's leagues, a season at a glance
(divisions, teams and rosters, match days with their fixtures), one fixture with its boards and games (where
each result comes from and who entered it), and whether a user captains a fixture's team."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Prefetch, Q, Subquery

from tournaments.errors import NotFound
from tournaments.models import Board, Entry, Game, League, Organisation, Round, Team, TeamMatch, Tournament


def user_leagues(user: Any) -> list[League]:
    """The leagues of the user's organisations (every league for staff), with their seasons."""
    qs = League.objects.all() if getattr(user, "is_staff", False) else League.objects.filter(
        owner__in=Organisation.objects.of_user(user).values("pk"))
    return list(qs.select_related("owner").prefetch_related(
        Prefetch("seasons", queryset=Tournament.objects.order_by("-created_at", "-id"))).order_by("name", "id"))


def league_by_slug(user: Any, slug: str) -> League:
    """A league of the user's organisations, else ``NotFound``."""
    for league in user_leagues(user):
        if league.slug == slug:
            return league
    raise NotFound("league_not_found", "No such league among yours.")


@dataclass
class MatchDay:
    round: Round
    fixtures: list[TeamMatch] = field(default_factory=list)


def season_overview(season: Tournament) -> dict[str, Any]:
    """Divisions, teams (with roster sizes), match days with their fixtures, and the postponed fixtures."""
    # club_played_as: the club's name on the team's first entry (the name of the day; issue 15)
    played_as = Entry.objects.filter(team=OuterRef("pk")).exclude(club_name="").order_by("id").values("club_name")[:1]
    teams = list(Team.objects.filter(tournament=season).select_related("club", "division")
                 .annotate(roster_size=Count("roster", filter=Q(roster__withdrawn=False)),
                           club_played_as=Subquery(played_as)))
    fixtures = list(TeamMatch.objects.filter(round__tournament=season)
                    .select_related("round", "team_a", "team_b", "entered_by").order_by("round__number", "id"))
    days = {r.pk: MatchDay(r) for r in season.rounds.order_by("number")}
    for match in fixtures:
        days[match.round_id].fixtures.append(match)
    return {
        "divisions": list(season.divisions.order_by("order", "id")),
        "teams": teams,
        "days": list(days.values()),
        "postponed": [m for m in fixtures if m.status == TeamMatch.Status.POSTPONED],
        "fixture_count": len(fixtures),
    }


def season_fixture(season: Tournament, fixture_id: int) -> TeamMatch:
    match = (TeamMatch.objects.filter(pk=fixture_id, round__tournament=season)
             .select_related("round", "team_a__club", "team_b__club", "entered_by", "confirmed_by").first())
    if match is None:
        raise NotFound("fixture_not_found", "No such fixture in this season.")
    return match


@dataclass
class FixtureBoard:
    board: Board
    games: list[Game]
    #: The next game to enter from paper (its number), None when the board needs no more.
    next_game: int | None


def fixture_boards(match: TeamMatch) -> list[FixtureBoard]:
    """The fixture's boards in slot order with their games (voided ones left out) and who entered them."""
    boards = list(Board.objects.filter(team_match=match).select_related("pair_a__pair", "pair_b__pair")
                  .prefetch_related(Prefetch("games", queryset=Game.objects.exclude(status=Game.Status.VOIDED)
                                             .select_related("entered_by", "confirmed_by").order_by("number")))
                  .order_by("slot"))
    out = []
    for board in boards:
        games = list(board.games.all())
        finished = [g for g in games if g.status == Game.Status.FINISHED]
        out.append(FixtureBoard(board, games, None if board.decided else len(finished) + 1))
    return out


def team_roster(team: Team | None) -> list[Entry]:
    if team is None:
        return []
    return list(Entry.objects.filter(team=team, withdrawn=False).select_related("pair__player_1", "pair__player_2")
                .order_by("seed", "id"))


def captain_of(user: Any, match: TeamMatch) -> bool:
    """Whether ``user`` captains one of the fixture's teams."""
    ids = [t for t in (match.team_a_id, match.team_b_id) if t is not None]
    return bool(getattr(user, "pk", None)) and Team.captains.through.objects.filter(
        team_id__in=ids, user_id=user.pk).exists()


def captained_fixtures(user: Any, season: Tournament) -> list[TeamMatch]:
    """The season's fixtures of the teams ``user`` captains."""
    teams = Team.objects.filter(tournament=season, captains=user) if getattr(user, "pk", None) else Team.objects.none()
    return list(TeamMatch.objects.filter(Q(team_a__in=teams) | Q(team_b__in=teams))
                .select_related("round", "team_a", "team_b").order_by("round__number", "id"))
