"""The league parts of an import (docs/archive.md, "Leagues"): the league (the importer's organisation's league
of the same name, or a new one), the season's divisions and teams, each fixture's and paper game's own
fields, deductions and line-up substitutions, and the season's tables computed again and compared.

A fixture whose result was typed (``match_totals``), given as a walkover (``forfeit``) or a bye keeps the
archive's figures (they are the record, checked as plausible by ``replay``); a fixture played on boards
(``hands``) is derived again from its boards by ``team_match_refresh`` and compared.
"""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_date, parse_datetime

from tournaments.models import (
    Division,
    League,
    LineupSubstitution,
    Organisation,
    PointDeduction,
    Team,
    TeamMatch,
    Tournament,
)

from ..leagues import league_tables
from .league_export import division_fields, table_rows
from .replay import mismatch

#: A fixture's result source whose figures are derived from its boards (the others are the record).
DERIVED_SOURCE = "hands"


def _when(value: Any) -> Any:
    return parse_datetime(value) if isinstance(value, str) else None


def _free_league_slug(slug: str) -> str:
    if not League.objects.filter(slug=slug).exists():
        return slug
    n = 2
    while League.objects.filter(slug=f"{slug[:72]}-{n}").exists():
        n += 1
    return f"{slug[:72]}-{n}"


def league_write(doc: dict[str, Any], t: Tournament, org: Organisation, ids: dict[str, dict[int, int]]) -> None:
    """The league (matched by name in ``org``, or made), the season's label, its divisions and teams."""
    league = doc.get("league")
    if league is not None:
        found = League.objects.filter(owner=org, name=league["name"]).first()
        if found is None:
            found = League.objects.create(owner=org, name=league["name"], slug=_free_league_slug(league["slug"]))
        Tournament.objects.filter(pk=t.pk).update(league=found, season=league.get("season", t.season))
        t.league, t.season = found, league.get("season", t.season)
    divisions = [Division(tournament=t, **{name: d[name] for name in division_fields() if name in d})
                 for d in doc.get("divisions", [])]
    Division.objects.bulk_create(divisions)
    ids["division"] = {d["id"]: row.pk for d, row in zip(doc.get("divisions", []), divisions, strict=True)}
    teams = [Team(tournament=t, club_id=ids["club"][team["club"]], name=team["name"],
                  division_id=ids["division"].get(team.get("division")), seed=team.get("seed"),
                  withdrawn=team.get("withdrawn", False)) for team in doc.get("teams", [])]
    Team.objects.bulk_create(teams)
    ids["team"] = {team["id"]: row.pk for team, row in zip(doc.get("teams", []), teams, strict=True)}


def fixture_values(m: dict[str, Any], ids: dict[str, dict[int, int]]) -> dict[str, Any]:
    """A team match's league fields as model values (``replay_of`` is set once every fixture exists)."""
    values: dict[str, Any] = {
        "team_a_id": ids["team"].get(m.get("team_a")), "team_b_id": ids["team"].get(m.get("team_b")),
        "status": m.get("status", "scheduled"), "played_on": parse_date(m["played_on"]) if m.get("played_on") else None,
        "walkover_by": m.get("walkover_by"), "result_source": m.get("result_source", DERIVED_SOURCE),
        "entered_as": m.get("entered_as", ""), "entered_at": _when(m.get("entered_at")),
        "confirmed": m.get("confirmed", False),
    }
    if values["result_source"] != DERIVED_SOURCE:  # typed, walked over or a bye: the figures are the record
        result = m["result"]
        values.update(bullseyes_a=result["bullseyes"][0], bullseyes_b=result["bullseyes"][1],
                      hang_jacks_a=(result.get("hang_jacks") or [0, 0])[0],
                      hang_jacks_b=(result.get("hang_jacks") or [0, 0])[1], decided=result["decided"],
                      winner=result["winner"], explanation=result.get("explanation", ""))
    return values


def paper_values(g: dict[str, Any]) -> dict[str, Any]:
    """A game's source and a paper game's typed figures as model values."""
    paper = g.get("paper") or {}

    def pair(name: str) -> tuple[Any, Any]:
        value = paper.get(name)
        return (value[0], value[1]) if value else (None, None)

    (ha, hb), (ka, kb), (ca, cb) = pair("hang_jacks"), pair("kicks"), pair("game_counts")
    return {"result_source": g.get("result_source", "hands"), "hang_jacks_a": ha, "hang_jacks_b": hb,
            "kicks_a": ka, "kicks_b": kb, "game_counts_a": ca, "game_counts_b": cb,
            "entered_as": g.get("entered_as", "")}


def league_after(doc: dict[str, Any], t: Tournament, ids: dict[str, dict[int, int]]) -> None:
    """Replays between fixtures, point deductions and line-up substitutions (with their archived times)."""
    for m in doc["team_matches"]:
        if m.get("replay_of") is not None:
            TeamMatch.objects.filter(pk=ids["team_match"][m["id"]]).update(
                replay_of_id=ids["team_match"][m["replay_of"]])
    for d in doc.get("deductions", []):
        row = PointDeduction.objects.create(
            tournament=t, team_id=ids["team"][d["team"]], team_match_id=ids["team_match"].get(d.get("team_match")),
            match_points=d.get("match_points", 0), bullseyes=d.get("bullseyes", 0), reason=d["reason"],
            voided=d.get("voided", False))
        if _when(d.get("at")):
            PointDeduction.objects.filter(pk=row.pk).update(created_at=_when(d["at"]))
    for s in doc.get("lineup_substitutions", []):
        sub = LineupSubstitution.objects.create(
            team_match_id=ids["team_match"][s["team_match"]], team_id=ids["team"][s["team"]], slot=s["slot"],
            out_entry_id=ids["entry"].get(s.get("out_entry")), in_entry_id=ids["entry"][s["in_entry"]],
            reason=s.get("reason", ""))
        if _when(s.get("at")):
            LineupSubstitution.objects.filter(pk=sub.pk).update(created_at=_when(s["at"]))


def league_tables_compare(doc: dict[str, Any], t: Tournament, ids: dict[str, dict[int, int]]) -> None:
    """The season's tables computed again equal the archive's (``archive_mismatch`` naming the first row)."""
    expected = doc["standings"].get("league_tables")
    if expected is None:
        return
    local = {kind: {pk: lid for lid, pk in table.items()} for kind, table in ids.items()}
    tables = league_tables(tournament=t)

    def back(kind: str, pk: Any) -> Any:
        return local.get(kind, {}).get(pk) if pk is not None else None

    derived = {"overall": table_rows(tables["overall"]["rows"], back),
               "divisions": [{"division": back("division", (d["division"] or {}).get("id")),
                              "rows": table_rows(d["rows"], back)} for d in tables["divisions"]]}
    pairs = [("the overall table", "standings.league_tables.overall", expected["overall"], derived["overall"])]
    for i, (want, got) in enumerate(zip(expected["divisions"], derived["divisions"], strict=False)):
        pairs.append((f"division table {i + 1}", f"standings.league_tables.divisions[{i}].rows", want["rows"], got["rows"]))
    if len(expected["divisions"]) != len(derived["divisions"]):
        raise mismatch("the league tables", "standings.league_tables.divisions",
                       f"the archive has {len(expected['divisions'])} division tables, the season {len(derived['divisions'])}")
    for where, path, want_rows, got_rows in pairs:
        if len(want_rows) != len(got_rows):
            raise mismatch(where, path, f"the archive has {len(want_rows)} rows, its results give {len(got_rows)}")
        for i, (want, got) in enumerate(zip(want_rows, got_rows, strict=True)):
            if want != got:
                key = next((k for k in want if want.get(k) != got.get(k)), next(iter(got), ""))
                raise mismatch(f"{where}, row {i + 1}", f"{path}[{i}].{key}",
                               f"the archive says {key} {want.get(key)}, its results give {got.get(key)}")


__all__ = ["DERIVED_SOURCE", "fixture_values", "league_after", "league_tables_compare", "league_write", "paper_values"]
