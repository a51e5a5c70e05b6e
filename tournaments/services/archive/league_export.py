"""The league parts of an archive (docs/leagues-model.md; docs/archive.md, "Leagues"): the league a season
belongs to, its divisions and teams (the clubs' sides: club-team events have them too), point deductions,
line-up substitutions, each fixture's and paper game's own fields, and the season's tables.

Captains are accounts: the archive names them (never an address) but an import gives no one a captaincy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.models import Division, Game, LineupSubstitution, PointDeduction, Team, TeamMatch, Tournament

from ..leagues import league_tables

Local = Callable[[str, Any], Any]


def division_fields() -> tuple[str, ...]:
    """A division's own settings (every field but its id and season), read from the model so that the archive
    keeps no list of its own."""
    return tuple(f.name for f in Division._meta.concrete_fields if f.name not in ("id", "tournament"))


def _pair(a: Any, b: Any) -> list[Any] | None:
    return None if a is None and b is None else [a, b]


def league_part(t: Tournament, local: Local, plain: Callable[[Any], Any], who: Callable[..., Any]) -> dict[str, Any]:
    """``league``, ``divisions``, ``teams``, ``deductions`` and ``lineup_substitutions`` of the document."""
    divisions = list(Division.objects.filter(tournament=t).order_by("order", "id"))
    teams = list(Team.objects.filter(tournament=t).select_related("club").prefetch_related("captains")
                 .order_by("division__order", "seed", "id"))
    out: dict[str, Any] = {
        "league": ({"name": t.league.name, "slug": t.league.slug, "season": t.season} if t.league_id else None),
        "divisions": [{"id": local("division", d.pk), **{name: getattr(d, name) for name in division_fields()}}
                      for d in divisions],
        "teams": [{"id": local("team", team.pk), "name": team.name, "club": local("club", team.club_id),
                   "division": local("division", team.division_id), "seed": team.seed, "withdrawn": team.withdrawn,
                   "captains": [(who(None, u) or {}).get("name", "") for u in team.captains.all()]} for team in teams],
        "deductions": [{"team": local("team", d.team_id), "team_match": local("team_match", d.team_match_id),
                        "match_points": d.match_points, "bullseyes": d.bullseyes, "reason": d.reason,
                        "voided": d.voided, "at": plain(d.created_at), "by": who(None, d.user)}
                       for d in PointDeduction.objects.filter(tournament=t).select_related("user").order_by("id")],
        "lineup_substitutions": [
            {"team_match": local("team_match", s.team_match_id), "team": local("team", s.team_id), "slot": s.slot,
             "out_entry": local("entry", s.out_entry_id), "in_entry": local("entry", s.in_entry_id),
             "reason": s.reason, "at": plain(s.created_at), "by": who(None, s.user)}
            for s in LineupSubstitution.objects.filter(team_match__round__tournament=t).select_related("user")
            .order_by("id")],
    }
    return out


def register_teams(t: Tournament, add: Callable[[str, int], int]) -> set[int]:
    """Give the season's divisions and teams their local ids (before the rows that refer to them); the clubs
    of its teams (which the people part must carry)."""
    for d in Division.objects.filter(tournament=t).order_by("order", "id"):
        add("division", d.pk)
    clubs: set[int] = set()
    for team in Team.objects.filter(tournament=t).order_by("division__order", "seed", "id"):
        add("team", team.pk)
        clubs.add(team.club_id)
    return clubs


def fixture_fields(m: TeamMatch, local: Local, plain: Callable[[Any], Any], who: Callable[..., Any]) -> dict[str, Any]:
    """A team match's league fields (a fixture between teams)."""
    return {"team_a": local("team", m.team_a_id), "team_b": local("team", m.team_b_id), "status": m.status,
            "played_on": plain(m.played_on), "replay_of": local("team_match", m.replay_of_id),
            "walkover_by": m.walkover_by, "result_source": m.result_source, "entered_as": m.entered_as,
            "entered_at": plain(m.entered_at), "entered_by": who(None, m.entered_by),
            "confirmed": m.confirmed, "confirmed_by": who(None, m.confirmed_by)}


def paper_fields(g: Game, who: Callable[..., Any]) -> dict[str, Any]:
    """A game's source and, for a game from a chalk sheet, its typed figures (null: not on the sheet)."""
    paper = None
    if g.result_source == Game.Source.PAPER_GAME:
        paper = {"hang_jacks": _pair(g.hang_jacks_a, g.hang_jacks_b), "kicks": _pair(g.kicks_a, g.kicks_b),
                 "game_counts": _pair(g.game_counts_a, g.game_counts_b)}
    return {"result_source": g.result_source, "paper": paper, "entered_as": g.entered_as,
            "entered_by": who(None, g.entered_by), "confirmed_by": who(None, g.confirmed_by)}


_TABLE_IDS = ("team_id", "club_id", "division_id")


def table_rows(rows: list[Mapping[str, Any]], local: Local) -> list[dict[str, Any]]:
    """A league table's rows with local ids (``team``, ``club``, ``division``; a deduction's ``team_match``)."""
    out = []
    for row in rows:
        data = {k: v for k, v in row.items() if k not in _TABLE_IDS and k not in ("team", "club")}
        data["team"], data["club"] = local("team", row.get("team_id")), local("club", row.get("club_id"))
        data["division"] = local("division", row.get("division_id"))
        data["deductions"] = [{**d, "team_match": local("team_match", d.get("team_match"))}
                              for d in row.get("deductions", [])]
        out.append(data)
    return out


def season_tables(t: Tournament, local: Local) -> dict[str, Any] | None:
    """The season's tables (overall and each division's) with local ids; None for an event of no league."""
    if not t.league_id:
        return None
    tables = league_tables(tournament=t)
    return {
        "overall": table_rows(tables["overall"]["rows"], local),
        "divisions": [{"division": local("division", (d["division"] or {}).get("id")),
                       "rows": table_rows(d["rows"], local)} for d in tables["divisions"]],
    }


__all__ = ["division_fields", "fixture_fields", "league_part", "paper_fields", "register_teams", "season_tables", "table_rows"]
