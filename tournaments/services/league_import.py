"""Import a league season (issue 15): a CSV or XLSX of teams (``team,club,division``) and one of match results
(``round,date,division,home,away,home_games,away_games,home_hang_jacks,away_hang_jacks``, optional ``status``
and ``played_on``; a bye is a row with ``away`` empty and no figures), with a preview of every row.

``season_import(*, tournament, user, teams=None, results=None, commit=False) -> SeasonImport``

The preview is the import itself, run inside a transaction that is rolled back: every row goes through the
league services (``club_create``, ``division_create``, ``team_create``, ``match_day_create``,
``fixture_create``, ``fixture_postpone``, ``fixture_void``, ``fixture_walkover``, ``match_totals_enter``
marked as an import), each in its own savepoint, so the preview's per-row errors are exactly the refusals
the import would meet (a clash, an implausible score, a team not in the season...). ``commit=True`` keeps
the work only when no row has an error; otherwise nothing is stored and the answer says why, row by row.

Files are read as the registration import reads them (``import_preview``: CSV in UTF-8 or Windows text,
XLSX's first sheet, the same size limits, formula-like text refused per cell).

A fixture already in the season (the same teams on the same match day) is not made again: a results file
may fill in the figures of fixtures imported earlier. ``status``: empty (``played`` when figures are given,
else ``scheduled``), ``played``, ``scheduled``, ``postponed``, ``void``, ``walkover_home`` /
``walkover_away`` / ``walkover_both`` (the team absent).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import transaction

from tournaments.actors import Actor
from tournaments.models import Club, Division, Round, Team, TeamMatch, Tournament
from tournaments.selectors.availability import owned_records
from tournaments.selectors.identity import club_named

from .errors import DomainError, ValidationFailed
from .import_preview import MAX_BYTES, MAX_ROWS, _csv_rows, _heading, _is_xlsx, _text, _xlsx_rows
from .leagues import (
    division_create,
    fixture_create,
    fixture_postpone,
    fixture_void,
    fixture_walkover,
    match_day_create,
    match_day_update,
    match_totals_enter,
    team_create,
)
from .leagues._base import organiser, require_season
from .people import club_create

TEAM_COLUMNS = ("team", "club", "division")
RESULT_COLUMNS = ("round", "date", "division", "home", "away", "home_games", "away_games", "home_hang_jacks",
                  "away_hang_jacks")
RESULT_OPTIONAL = ("status", "played_on")
FIGURES = ("home_games", "away_games", "home_hang_jacks", "away_hang_jacks")
STATUSES = ("", "played", "scheduled", "postponed", "void", "walkover_home", "walkover_away", "walkover_both")
FORMULA_START = ("=", "+", "-", "@")
#: A service's field -> the column it names.
_FIELD_COLUMN = {"games": "home_games", "hang_jacks": "home_hang_jacks", "home": "home", "away": "away",
                 "round": "round", "name": "team", "club": "club", "division": "division", "date": "date"}


@dataclass
class ImportRow:
    """One row of a file, what importing it does (``outcome``) or why it cannot (``errors``: column -> why)."""

    kind: str  # "team" or "result"
    line: int
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    outcome: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self.line, "values": dict(self.values), "ok": self.ok,
                "errors": dict(self.errors), "outcome": self.outcome}


@dataclass
class SeasonImport:
    """Every row of both files and whether the import was stored."""

    teams: list[ImportRow] = field(default_factory=list)
    results: list[ImportRow] = field(default_factory=list)
    stored: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def rows(self) -> list[ImportRow]:
        return [*self.teams, *self.results]

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "stored": self.stored, "counts": dict(self.counts),
                "teams": [r.as_dict() for r in self.teams], "results": [r.as_dict() for r in self.results]}


class _DryRun(Exception):
    """Raised inside the import's transaction to roll it back (a preview, or a commit with errors)."""


def _unreadable(message: str, name: str, code: str = "import_unreadable") -> ValidationFailed:
    return ValidationFailed(code, message, fields={name: message})


def read_table(data: bytes, filename: str, required: Sequence[str], optional: Sequence[str] = (),
               name: str = "file") -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV or XLSX as (line, {column: text}) with the ``required`` and ``optional`` columns
    (headings in any order and case). 400 ``import_unreadable`` / ``import_empty`` / ``import_too_large``."""
    if not data:
        raise _unreadable("The file is empty.", name, "import_empty")
    if len(data) > MAX_BYTES:
        raise _unreadable(f"The file is larger than {MAX_BYTES // 1_000_000} MB.", name, "import_too_large")
    source: Iterable[tuple[int, list[Any]]]
    if _is_xlsx(data, filename):
        source = _xlsx_rows(data)
    else:
        source, _ = _csv_rows(data)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for line, values in source:
            cells = [_text(v) for v in values]
            if header is None:
                if not any(cells):
                    continue
                header = [_heading(v) for v in values]
                missing = [c for c in required if c not in header]
                if missing:
                    raise _unreadable("The first row must name the columns " + ", ".join(required)
                                      + "; missing: " + ", ".join(missing) + ".", name)
                continue
            if not any(cells):
                continue
            if len(rows) >= MAX_ROWS:
                raise _unreadable(f"More than {MAX_ROWS} rows: split the file.", name, "import_too_large")
            row = {c: "" for c in (*required, *optional)}
            for heading, cell in zip(header, cells, strict=False):
                if heading in row and not row[heading]:
                    row[heading] = cell
            rows.append((line, row))
    except ValidationFailed as exc:
        if exc.fields and "file" in exc.fields and name != "file":
            raise _unreadable(exc.message, name, exc.code) from exc
        raise
    if header is None or not rows:
        raise _unreadable("The file lists no rows under its headings.", name, "import_empty")
    return rows


def _refusal(row: ImportRow, exc: DomainError, default: str) -> None:
    fields = exc.fields or {}
    placed = False
    for key in fields:
        column = key if key in row.values else _FIELD_COLUMN.get(key.split(".")[0].split("[")[0])
        if column and column in row.values:
            row.errors[column] = exc.message
            placed = True
            break
    if not placed:
        row.errors[default] = exc.message


def _formulas(row: ImportRow) -> None:
    for column, value in row.values.items():
        if value.startswith(FORMULA_START) and column not in FIGURES:
            row.errors[column] = "Text may not begin with =, +, - or @ (it would run as a formula)."


def _in_savepoint(row: ImportRow, default: str, work: Callable[[], str]) -> None:
    """Run one row's writes in a savepoint: its refusal becomes the row's error and undoes only that row."""
    try:
        with transaction.atomic():
            row.outcome = work()
    except DomainError as exc:
        _refusal(row, exc, default)


# ---- teams ------------------------------------------------------------------------------------------------
def _club(name: str, tournament: Tournament, user: Actor, made: dict[str, Club]) -> tuple[Club, bool]:
    key = name.casefold()
    if key in made:
        return made[key], False
    found = (owned_records(Club.objects.filter(name__iexact=name), user).order_by("id").first()
             or owned_records(Club.objects.filter(club_named(name)), user).order_by("id").first())
    if found is not None:
        made[key] = found
        return found, False
    owner = tournament.league.owner_id if tournament.league_id else None
    club = club_create(name=name, user=user, owner=owner)
    made[key] = club
    return club, True


def _division(name: str, tournament: Tournament, user: Actor) -> tuple[Division | None, bool]:
    if not name:
        return None, False
    found = Division.objects.filter(tournament=tournament, name__iexact=name).first()
    if found is not None:
        return found, False
    return division_create(tournament=tournament, user=user, name=name), True


def _team_row(row: ImportRow, tournament: Tournament, user: Actor, clubs: dict[str, Club]) -> str:
    name, club_name, division_name = (row.values[c].strip() for c in TEAM_COLUMNS)
    if not name:
        raise ValidationFailed("required", "Name the team.", fields={"name": "required"})
    existing = Team.objects.filter(tournament=tournament, name__iexact=name).select_related("club", "division").first()
    if existing is not None:
        if club_name and existing.club.name.casefold() != club_name.casefold():
            raise ValidationFailed("team_exists", f"The season has {existing.name} already, of {existing.club.name}.",
                                   fields={"club": existing.club.name})
        return f"Already in the season ({existing.club.name})."
    club, new_club = _club(club_name or name, tournament, user, clubs)
    division, new_division = _division(division_name, tournament, user)
    team_create(tournament=tournament, club=club, user=user, name=name, division=division)
    parts = ["New team", f"new club {club.name}" if new_club else f"club {club.name}"]
    if division is not None:
        parts.append(f"new division {division.name}" if new_division else f"division {division.name}")
    return ", ".join(parts) + "."


# ---- results ----------------------------------------------------------------------------------------------
def _whole(value: str, column: str, *, low: int = 0, high: int = 999) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ValidationFailed("invalid_figures", f"A whole number from {low} to {high}.",
                               fields={column: "a whole number"}) from None
    if not low <= number <= high:
        raise ValidationFailed("invalid_figures", f"A whole number from {low} to {high}.", fields={column: "out of range"})
    return number


def _date(value: str, column: str) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        raise ValidationFailed("invalid_date", "A date as YYYY-MM-DD.", fields={column: "YYYY-MM-DD"}) from None


def _team(tournament: Tournament, name: str, column: str) -> Team:
    found: Team | None = Team.objects.filter(tournament=tournament, name__iexact=name.strip()).select_related(
        "division").first()
    if found is None:
        raise ValidationFailed("team_not_in_season", f"No team called {name} in this season (add it in the teams "
                               "file or on the season's page).", fields={column: "a team of the season"})
    return found


def _match_day(tournament: Tournament, number: int, date: dt.date | None, user: Actor) -> Round:
    day: Round | None = Round.objects.filter(tournament=tournament, number=number).first()
    if day is None:
        made: Round = match_day_create(tournament=tournament, user=user, number=number, date=date)
        return made
    if date is not None and day.date is None:
        dated: Round = match_day_update(round=day, user=user, date=date)
        return dated
    return day


def _result_row(row: ImportRow, tournament: Tournament, user: Actor) -> str:
    v = {k: val.strip() for k, val in row.values.items()}
    number = _whole(v["round"], "round", low=1, high=999)
    date = _date(v["date"], "date")
    played_on = _date(v.get("played_on", ""), "played_on")
    status = v.get("status", "").lower().replace(" ", "_")
    if status not in STATUSES:
        raise ValidationFailed("invalid_status", "One of: " + ", ".join(s for s in STATUSES if s) + ".",
                               fields={"status": "unknown status"})
    home = _team(tournament, v["home"], "home")
    away = _team(tournament, v["away"], "away") if v["away"] else None
    if v["division"] and not Division.objects.filter(tournament=tournament, name__iexact=v["division"]).exists():
        raise ValidationFailed("division_not_in_season", f"No division called {v['division']} in this season.",
                               fields={"division": "a division of the season"})
    given = [v[c] for c in FIGURES]
    if away is None and (any(given) or status not in ("", "scheduled", "played")):
        raise ValidationFailed("bye_has_no_result", "A bye (no away team) carries no figures or status.",
                               fields={next((c for c in FIGURES if v[c]), "status"): "empty for a bye"})
    day = _match_day(tournament, number, date, user)
    match = (TeamMatch.objects.filter(round=day, team_a=home, team_b=away).exclude(status=TeamMatch.Status.VOID)
             .first())
    made = match is None
    if match is None:
        match = fixture_create(round=day, home=home, away=away, user=user)
    if away is None:
        return f"Bye for {home.name} on match day {number}." if made else "Bye already in the season."
    if status == "" and any(given):
        status = "played"
    prefix = "New fixture" if made else "Fixture already in the season"
    if status in ("", "scheduled"):
        if any(given):
            raise ValidationFailed("figures_without_result", "A scheduled fixture has no figures yet.",
                                   fields={next(c for c in FIGURES if v[c]): "empty until played"})
        return f"{prefix}, not played yet."
    if status == "postponed":
        fixture_postpone(team_match=match, user=user, reason="imported as postponed")
        return f"{prefix}, postponed."
    if status == "void":
        fixture_void(team_match=match, user=user, reason="imported as void")
        return f"{prefix}, void."
    if status.startswith("walkover_"):
        fixture_walkover(team_match=match, absent=status.removeprefix("walkover_"), user=user, reason="imported")
        return f"{prefix}, walkover ({status.removeprefix('walkover_')} absent)."
    missing = [c for c in FIGURES if not v[c]]
    if missing:
        raise ValidationFailed("figures_required", "A played fixture needs its games and hang jacks.",
                               fields={missing[0]: "required"})
    games = (_whole(v["home_games"], "home_games"), _whole(v["away_games"], "away_games"))
    hangs = (_whole(v["home_hang_jacks"], "home_hang_jacks"), _whole(v["away_hang_jacks"], "away_hang_jacks"))
    match_totals_enter(team_match=match, user=user, games=games, hang_jacks=hangs, played_on=played_on or date,
                       entered_as_import=True)
    return f"{prefix}: {home.name} {games[0]}-{games[1]} {away.name}, hang jacks {hangs[0]}-{hangs[1]}."


# ---- the import -------------------------------------------------------------------------------------------
def _rows(kind: str, source: tuple[bytes, str] | None, required: Sequence[str], optional: Sequence[str],
          name: str) -> list[ImportRow]:
    if source is None:
        return []
    data, filename = source
    return [ImportRow(kind, line, values) for line, values in read_table(data, filename, required, optional, name)]


def season_import(*, tournament: Tournament, user: Actor, teams: tuple[bytes, str] | None = None,
                  results: tuple[bytes, str] | None = None, commit: bool = False) -> SeasonImport:
    """Preview (``commit`` False) or store a season's teams and results; see the module's docstring. 400
    ``import_unreadable`` (``fields``: ``teams_file`` / ``results_file``) for a file that cannot be read; 403
    for someone who does not run the season; 400 ``not_a_team_event``."""
    organiser(user, tournament)
    require_season(tournament)
    if teams is None and results is None:
        raise ValidationFailed("import_empty", "Choose a teams file, a results file or both.",
                               fields={"teams_file": "a file", "results_file": "a file"})
    answer = SeasonImport(teams=_rows("team", teams, TEAM_COLUMNS, (), "teams_file"),
                          results=_rows("result", results, RESULT_COLUMNS, RESULT_OPTIONAL, "results_file"))
    try:
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
            clubs: dict[str, Club] = {}
            for row in answer.teams:
                _formulas(row)
                if row.ok:
                    _in_savepoint(row, "team", partial(_team_row, row, tournament, user, clubs))
            for row in answer.results:
                _formulas(row)
                if row.ok:
                    _in_savepoint(row, "round", partial(_result_row, row, tournament, user))
            answer.counts = _counts(answer)
            if not commit or not answer.ok:
                raise _DryRun
            answer.stored = True
    except _DryRun:
        pass
    return answer


def _counts(answer: SeasonImport) -> dict[str, int]:
    def n(rows: Iterable[ImportRow], word: str) -> int:
        return sum(1 for r in rows if r.ok and word in r.outcome)

    return {"teams": len(answer.teams), "results": len(answer.results),
            "rows_with_errors": sum(1 for r in answer.rows if not r.ok),
            "teams_new": n(answer.teams, "New team"), "fixtures_new": n(answer.results, "New fixture"),
            "byes": n(answer.results, "Bye"), "postponed": n(answer.results, "postponed"),
            "results_entered": sum(1 for r in answer.results if r.ok and "hang jacks" in r.outcome)}


def import_sources(files: Mapping[str, Any]) -> dict[str, tuple[bytes, str] | None]:
    """(data, filename) per uploaded file (``teams_file``, ``results_file``), for the views."""
    out: dict[str, tuple[bytes, str] | None] = {}
    for name in ("teams_file", "results_file"):
        upload = files.get(name)
        out[name] = (upload.read(MAX_BYTES + 1), upload.name or "") if upload else None
    return out
