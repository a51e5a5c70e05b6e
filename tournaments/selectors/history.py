"""A club's, a team's and a player's events and results across seasons, for the console (issue 15; the public
pages have ``public_history``, whose lines this reuses). Every event is listed, published or not: the console
shows them to the record's organisation only.

- ``club_history``: the events its pairs were entered in (with the name each was played under and the
  places) and its teams' seasons (``TeamSeason``: the team's name that season, division, matches, record).
- ``team_history``: the seasons of teams of the same club and name (a club's side season after season).
- ``player_history``: the events the player played in (as entered, in a pair, or as a substitute).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Club, Entry, Player, Team, TeamMatch
from tournaments.models.events import entry_of_club

from .public_history import HistoryLine, _lines


@dataclass(frozen=True)
class TeamSeason:
    """One season of a team: its name then, its division, and its record from the fixtures with a result."""

    team: Team
    played: int
    won: int
    drawn: int
    lost: int
    bullseyes_for: int
    bullseyes_against: int

    @property
    def season(self) -> str:
        return str(self.team.tournament.season or self.team.tournament.name)


@dataclass(frozen=True)
class ClubHistory:
    club: Club
    events: list[HistoryLine]
    teams: list[TeamSeason]
    #: Per tournament id, the names the club's entries were played under there.
    played_as: dict[int, list[str]]


def _entries(query: Q) -> list[Entry]:
    return list(Entry.objects.filter(query).distinct().select_related(
        "tournament", "tournament__league", "pair__player_1", "pair__player_2", "pair__club").order_by("id"))


def _team_season(team: Team) -> TeamSeason:
    counted = TeamMatch.objects.filter(Q(team_a=team) | Q(team_b=team), decided=True).exclude(
        status__in=[TeamMatch.Status.VOID, TeamMatch.Status.POSTPONED]).exclude(team_b__isnull=True)
    played = won = drawn = lost = for_ = against = 0
    for m in counted:
        home = m.team_a_id == team.pk
        played += 1
        mine, theirs = (m.bullseyes_a, m.bullseyes_b) if home else (m.bullseyes_b, m.bullseyes_a)
        for_, against = for_ + mine, against + theirs
        if m.winner is None:
            drawn += 1
        elif (m.winner == 0) == home:
            won += 1
        else:
            lost += 1
    return TeamSeason(team, played, won, drawn, lost, for_, against)


def _by_date(seasons: list[TeamSeason]) -> list[TeamSeason]:
    def key(s: TeamSeason) -> tuple[bool, int, int]:
        starts = s.team.tournament.starts_on
        return (starts is None, -(starts.toordinal() if starts else 0), -s.team.tournament.pk)
    return sorted(seasons, key=key)


def club_history(club: Club) -> ClubHistory:
    """Every event of ``club``'s entries (recorded at entry) and every season of its teams, latest first."""
    entries = _entries(entry_of_club(club))
    played_as: dict[int, list[str]] = {}
    for e in entries:
        names = played_as.setdefault(e.tournament_id, [])
        if e.club_label and e.club_label not in names:
            names.append(e.club_label)
    teams = Team.objects.filter(club=club).select_related("tournament", "tournament__league", "division")
    return ClubHistory(club, _lines(entries), _by_date([_team_season(t) for t in teams]), played_as)


def team_history(team: Team) -> list[TeamSeason]:
    """The seasons of ``team``'s club's teams of the same name (any case), in any league, latest first."""
    teams = Team.objects.filter(club_id=team.club_id, name__iexact=team.name).select_related(
        "tournament", "tournament__league", "division")
    return _by_date([_team_season(t) for t in teams])


def player_history(player: Player) -> list[HistoryLine]:
    """Every event ``player`` played in: recorded on an entry, in an entry's pair, or as a substitute."""
    pid = player.pk
    return _lines(_entries(Q(player_1_id=pid) | Q(player_2_id=pid) | Q(pair__player_1_id=pid)
                           | Q(pair__player_2_id=pid) | Q(substitutions__in_player_id=pid)))
