"""Import a tournament's pairs from CSV or XLSX with a preview: nothing is stored until the organiser confirms.

* ``pairs_import_preview(data=, filename=, tournament=, user=) -> Preview`` reads the file (CSV in UTF-8,
  or Windows text; XLSX: the first sheet, values only) and returns **every** row with what confirming it
  will do: a club, players and a pair created or matched to existing ones by name (within the caller's
  organisations), the entry made or updated, its tags and requested byes; or the error per field. It
  writes nothing.
* ``pairs_import_check(rows=, tournament=, user=) -> Preview``: the same answer for rows the organiser
  corrected in the preview (no file), still writing nothing.
* ``pairs_import_commit(rows=, tournament=, user=) -> CommitResult`` stores every row in one transaction
  through the registry services (``club_create``, ``player_create``, ``pair_create``, ``entry_create`` /
  ``entry_update``, ``entry_tags_set``, ``entry_bye_request``), or nothing: ``ImportRowsInvalid`` (with the
  analysed rows) while any row still has an error.

The columns are those of the CSV import (``imports.REQUIRED_COLUMNS``: ``player_1, player_2, club, seed``),
plus two optional ones: ``tags`` ("ladies; juniors") and ``byes`` (requested bye rounds, "2; 4"). Each row
is checked by the CSV import's own row parser (``imports.parse_pairs_csv``, fed that one row), so both
imports refuse the same cells (empty names, lengths, seeds, formula-like text); the rows are then checked
together (a pair or a player twice) and against the registry and the tournament.

Refusals (docs/services.md): 400 ``import_unreadable`` (the file as a whole: type, encoding, header,
workbook), ``import_too_large`` (more than ``MAX_BYTES`` or ``MAX_ROWS``), ``import_empty``,
``rows_invalid`` (the shape of the rows sent back), ``import_rows_invalid`` (``ImportRowsInvalid``:
``fields`` ``rows[i].<column>``, and ``preview``); 403 ``not_organiser`` / ``role_not_allowed``; 409
``tournament_finished``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet

from tournaments.actors import Actor
from tournaments.models import Club, Entry, Pair, Player, Round, Tournament
from tournaments.selectors.availability import owned_records, personal_record
from tournaments.selectors.identity import club_named, player_named

from .audit import audit_record
from .checkin import bye_offered, byes_clean, entry_bye_request, entry_tags_set, require_manager, tags_clean
from .errors import Conflict, DomainError, ValidationFailed
from .events import entry_create, entry_update
from .field import entry_enter_late, next_undrawn_round
from .imports import REQUIRED_COLUMNS, ImportResult, parse_pairs_csv
from .people import club_create, pair_create, player_create

#: The largest file read (CSV or XLSX), its rows, and what an XLSX may unpack to (a zip bomb is refused).
MAX_BYTES = 2_000_000
MAX_ROWS = 500
MAX_UNPACKED = 40_000_000
MAX_COLUMNS = 40
#: The longest text of one cell, as sent back by the preview's form or the API.
MAX_CELL = 500
OPTIONAL_COLUMNS = ("tags", "byes")
COLUMNS = (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
#: Other headings read as the optional columns.
_ALIASES = {"tag": "tags", "categories": "tags", "category": "tags", "requested_byes": "byes", "bye": "byes",
            "bye_rounds": "byes", "byes_requested": "byes"}
#: What an action in ``PreviewRow.actions`` means.
NEW, EXISTING, NONE, UPDATE, SAME = "new", "existing", "none", "update", "same"


class ImportRowsInvalid(ValidationFailed):
    """Nothing was stored: ``preview`` has every row, the bad ones with their errors (``fields`` names them
    ``rows[i].<column>``)."""

    def __init__(self, preview: Preview) -> None:
        self.preview = preview
        bad = [row for row in preview.rows if row.errors]
        fields = {f"rows[{row.index}].{name}": text for row in bad for name, text in row.errors.items()}
        if len(bad) == 1:
            message = f"Nothing stored: line {bad[0].line} has an error to fix."
        else:
            message = f"Nothing stored: {len(bad)} rows have errors to fix."
        super().__init__("import_rows_invalid", message, fields=fields)


@dataclass
class PreviewRow:
    """One row and what confirming it will do (``actions``), or its errors (``errors``: column -> why;
    ``row`` for the row as a whole)."""

    index: int
    line: int
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    #: club, player_1, player_2, pair: ``new`` / ``existing`` (``none``: no club); entry: ``new`` / ``update`` / ``same``.
    actions: dict[str, str] = field(default_factory=dict)
    #: The ids of the records matched (``None`` where one will be created).
    matched: dict[str, int | None] = field(default_factory=dict)
    seed: int | None = None
    tags: list[str] | None = None
    byes: list[int] | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    def outcome(self) -> str:
        """What confirming will do, in a sentence for the organiser."""
        if self.errors:
            return "Fix the errors to import this row."
        a = self.actions
        news = sum(1 for k in ("player_1", "player_2") if a.get(k) == NEW)
        parts = []
        if a.get("pair") == NEW:
            players = {0: "two known players", 1: "one new player", 2: "two new players"}[news]
            parts.append(f"new pair of {players}")
        else:
            parts.append("known pair")
        if a.get("club") == NEW:
            parts.append(f"new club {self.values['club']}")
        elif a.get("club") == EXISTING:
            parts.append(f"club {self.values['club']}")
        entry = a.get("entry")
        parts.append({NEW: "entered", UPDATE: "already entered: updated", SAME: "already entered"}.get(entry or "", ""))
        if self.byes:
            parts.append("bye requested in round " + ", ".join(map(str, self.byes)))
        text = "; ".join(p for p in parts if p)
        return text[:1].upper() + text[1:] + "."

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "line": self.line, **{name: self.values.get(name, "") for name in COLUMNS},
            "ok": self.ok, "errors": dict(self.errors), "actions": dict(self.actions), "matched": dict(self.matched),
            "outcome": self.outcome(),
        }

    def input(self) -> dict[str, Any]:
        """The row as the preview's form and the API send it back."""
        return {"line": self.line, **self.values}


@dataclass
class Preview:
    """Every row of an import and what confirming it will do."""

    rows: list[PreviewRow]
    filename: str = ""
    kind: str = ""
    #: Headings of the file that are not read (shown, so a misspelt column is noticed).
    ignored_columns: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    @property
    def errors(self) -> list[PreviewRow]:
        return [row for row in self.rows if row.errors]

    def counts(self) -> dict[str, int]:
        good = [row for row in self.rows if row.ok]
        new_clubs = {row.values["club"].casefold() for row in good if row.actions.get("club") == NEW}
        return {
            "rows": len(self.rows), "rows_with_errors": len(self.errors),
            "clubs_new": len(new_clubs),
            "players_new": sum(1 for row in good for k in ("player_1", "player_2") if row.actions.get(k) == NEW),
            "pairs_new": sum(1 for row in good if row.actions.get("pair") == NEW),
            "pairs_existing": sum(1 for row in good if row.actions.get("pair") == EXISTING),
            "entries_new": sum(1 for row in good if row.actions.get("entry") == NEW),
            "entries_updated": sum(1 for row in good if row.actions.get("entry") == UPDATE),
        }

    def as_dict(self) -> dict[str, Any]:
        return {"filename": self.filename, "kind": self.kind, "ok": self.ok, "counts": self.counts(),
                "ignored_columns": list(self.ignored_columns), "notes": list(self.notes),
                "rows": [row.as_dict() for row in self.rows]}


@dataclass
class CommitResult(ImportResult):
    """What a confirmed import stored."""

    entries_updated: int = 0
    byes_requested: int = 0

    def summary(self) -> str:
        return (f"{self.entries_created} pairs entered, {self.entries_updated} updated; "
                f"{self.pairs_created} new pairs, {self.players_created} new players, {self.clubs_created} new clubs"
                + (f"; {self.byes_requested} byes requested" if self.byes_requested else ""))

    def as_dict(self) -> dict[str, int]:
        return {**super().as_dict(), "entries_updated": self.entries_updated, "byes_requested": self.byes_requested}


def _unreadable(message: str, code: str = "import_unreadable") -> ValidationFailed:
    return ValidationFailed(code, message, fields={"file": message})


def _text(value: Any) -> str:
    """A cell as text, blanks collapsed: whole numbers without ``.0``, dates as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (float, Decimal)) and _whole(value):
        value = int(value)
    elif isinstance(value, dt.datetime):
        value = value.date() if value.time() == dt.time() else value
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        value = value.isoformat()
    return " ".join(str(value).split())


def _whole(value: float | Decimal) -> bool:
    try:
        return value == int(value)
    except (OverflowError, ValueError, ArithmeticError):
        return False


def _heading(value: Any) -> str:
    name = _text(value).lower().replace(" ", "_").replace("-", "_")
    return _ALIASES.get(name, name)


# ---- reading a file ------------------------------------------------------------------------------------


def _is_xlsx(data: bytes, filename: str) -> bool:
    return filename.lower().endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04"


def _xlsx_rows(data: bytes) -> Iterable[tuple[int, list[Any]]]:
    """The first sheet's rows as (row number, values); formula cells as their formula text (which the row
    parser refuses), never evaluated."""
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED:
                raise _unreadable("The workbook unpacks to too much data: save the list on its own sheet.",
                                  "import_too_large")
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except ValidationFailed:
        raise
    except Exception as exc:  # openpyxl raises many kinds for a damaged or foreign file
        raise _unreadable("This is not an XLSX workbook Hang Jack can read: save it as .xlsx or as CSV UTF-8.") from exc
    try:
        if not workbook.worksheets:
            raise _unreadable("The workbook has no sheet.")
        sheet = workbook.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True), start=1):
            yield number, list(values)
    except ValidationFailed:
        raise
    except Exception as exc:
        raise _unreadable("The workbook's first sheet cannot be read: save it as .xlsx or as CSV UTF-8.") from exc
    finally:
        workbook.close()


def _csv_rows(data: bytes) -> tuple[Iterable[tuple[int, list[Any]]], list[str]]:
    notes: list[str] = []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
        notes.append("The file is not UTF-8: it was read as Windows text; check accented names.")
    if "\x00" in text:
        raise _unreadable("This is not a text file: save the list as CSV UTF-8 or as .xlsx.")
    first = text.split("\n", 1)[0]
    delimiter = ","
    if "," not in first:
        delimiter = ";" if ";" in first else ("\t" if "\t" in first else ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)

    def rows() -> Iterable[tuple[int, list[Any]]]:
        try:
            for values in reader:
                yield reader.line_num, values[:MAX_COLUMNS]
        except csv.Error as exc:
            raise _unreadable(f"The CSV cannot be read near line {reader.line_num}: {exc}.") from exc

    return rows(), notes


def read_rows(data: bytes, filename: str) -> tuple[list[tuple[int, dict[str, str]]], str, list[str], list[str]]:
    """The file's rows as (line, {column: text}), its kind, ignored headings and notes. 400 for a file
    that cannot be read, lacks a column, or is too large."""
    if not data:
        raise _unreadable("The file is empty.", "import_empty")
    if len(data) > MAX_BYTES:
        raise _unreadable(f"The file is larger than {MAX_BYTES // 1_000_000} MB: split the list.", "import_too_large")
    if filename.lower().endswith((".xls", ".ods", ".numbers")):
        raise _unreadable("Save the list as .xlsx (Excel workbook) or as CSV UTF-8.")
    kind = "xlsx" if _is_xlsx(data, filename) else "csv"
    notes: list[str] = []
    if kind == "xlsx":
        source: Iterable[tuple[int, list[Any]]] = _xlsx_rows(data)
    else:
        source, notes = _csv_rows(data)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    ignored: list[str] = []
    for line, values in source:
        cells = [_text(v) for v in values]
        if header is None:
            if not any(cells):
                continue  # blank lines above the headings
            header = [_heading(v) for v in values]
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise _unreadable("The first row must name the columns " + ", ".join(REQUIRED_COLUMNS)
                                  + " (tags and byes may follow); missing: " + ", ".join(missing) + ".")
            ignored = [h for h in header if h and h not in COLUMNS]
            continue
        if not any(cells):
            continue
        if len(rows) >= MAX_ROWS:
            raise _unreadable(f"More than {MAX_ROWS} pairs: split the list.", "import_too_large")
        row = {name: "" for name in (*REQUIRED_COLUMNS, *(h for h in OPTIONAL_COLUMNS if h in header))}
        for name, cell in zip(header, cells, strict=False):
            if name in row and not row[name]:  # a column named twice: its first filled cell
                row[name] = cell
        if len(cells) > len(header) and any(cells[len(header):]):
            row["_extra"] = "more cells than columns"
        rows.append((line, row))
    if header is None:
        raise _unreadable("The file is empty: the first row must name the columns " + ", ".join(REQUIRED_COLUMNS)
                          + ".", "import_empty")
    if not rows:
        raise _unreadable("The file names the columns but lists no pairs.", "import_empty")
    return rows, kind, ignored, notes


# ---- checking rows -------------------------------------------------------------------------------------


def _club(name: str, row: PreviewRow, user: Actor) -> Club | None:
    """The caller's club of this name: their personal organisation's first, else a shared one's."""
    found = owned_records(Club.objects.filter(name__iexact=name), user)
    if not found.exists():  # a spelling variant merged into a club is its alias (services.identity)
        found = owned_records(Club.objects.filter(club_named(name)), user)
    return personal_record(found, user) or _one(found.order_by("id"), f"The club {name}", row, "club")


def _field_of(message: str) -> str:
    """The column a row parser's message is about (the first column it names), ``row`` if none."""
    if "player_1 and player_2" in message:
        return "player_2"
    found = [(message.find(name), name) for name in REQUIRED_COLUMNS if name in message]
    return min(found)[1] if found else "row"


def _add(errors: dict[str, str], name: str, text: str) -> None:
    errors[name] = f"{errors[name]}; {text}" if name in errors else text


def _check_cells(row: PreviewRow) -> None:
    """The CSV import's own row checks, on this row alone; then the optional columns."""
    if not any(row.values.get(name) for name in REQUIRED_COLUMNS):
        _add(row.errors, "row", "this row is empty: fill it in or leave it out")
        return
    # The cells as one CSV line, every cell quoted, as the parser reads them (not through the export's
    # formula-neutralising writer: the parser is to see, and refuse, a formula as it was typed).
    line = ",".join('"' + row.values.get(name, "").replace('"', '""') + '"' for name in REQUIRED_COLUMNS)
    parsed, problems = parse_pairs_csv(",".join(REQUIRED_COLUMNS) + "\n" + line + "\n")
    for problem in problems:
        for part in problem.message.split("; "):
            _add(row.errors, _field_of(part), part)
    if parsed:
        row.values.update(player_1=parsed[0].player_1, player_2=parsed[0].player_2, club=parsed[0].club)
        row.seed = parsed[0].seed
    if "tags" in row.values:
        try:
            row.tags = tags_clean(row.values["tags"])
        except ValidationFailed as exc:
            _add(row.errors, "tags", exc.message)
    if "_extra" in row.values:
        _add(row.errors, "row", row.values.pop("_extra"))


def _check_byes(row: PreviewRow, tournament: Tournament, paired: set[int]) -> None:
    if "byes" not in row.values:
        return
    try:
        rounds = byes_clean(row.values["byes"])
    except ValidationFailed as exc:
        _add(row.errors, "byes", (exc.fields or {}).get("byes", exc.message))
        return
    if rounds and not bye_offered(tournament):
        _add(row.errors, "byes", "this event takes no requested byes (Swiss events of pairs only)")
    elif planned := [n for n in rounds if n > max(tournament.rounds_planned, 1)]:
        _add(row.errors, "byes", f"round {planned[0]} is after the {tournament.rounds_planned} rounds planned")
    elif taken := [n for n in rounds if n in paired]:
        _add(row.errors, "byes", f"round {taken[0]} is already paired")
    row.byes = rounds


def _check_together(rows: list[PreviewRow]) -> None:
    """A pair, or a player, on two rows (a player plays in one pair of an event)."""
    pairs: dict[frozenset[tuple[str, str]], int] = {}
    players: dict[tuple[str, str], int] = {}
    for row in rows:
        club = row.values.get("club", "").casefold()
        names = [row.values.get(k, "") for k in ("player_1", "player_2")]
        if not all(names) or row.errors.get("player_1") or row.errors.get("player_2"):
            continue
        key = frozenset((club, name.casefold()) for name in names)
        if key in pairs:
            _add(row.errors, "row", f"the same pair is already on line {pairs[key]}")
            continue
        pairs[key] = row.line
        for column, name in zip(("player_1", "player_2"), names, strict=True):
            who = (club, name.casefold())
            if who in players:
                _add(row.errors, column, f"{name} already plays on line {players[who]}")
            players.setdefault(who, row.line)


def _one(queryset: QuerySet[Any], what: str, row: PreviewRow, column: str) -> Any:
    found = list(queryset[:2])
    if len(found) > 1:
        _add(row.errors, column, f"{what} matches more than one record: rename one in the registry first")
        return None
    return found[0] if found else None


def _match(row: PreviewRow, tournament: Tournament, user: Actor) -> None:
    """Which club, players, pair and entry the row is, by name (none: each will be created)."""
    club_name = row.values.get("club", "")
    club = None
    if club_name:
        club = _club(club_name, row, user)
        row.actions["club"] = EXISTING if club else NEW
    else:
        row.actions["club"] = NONE
    row.matched["club"] = club.pk if club else None
    players: list[Player | None] = []
    for column in ("player_1", "player_2"):
        name = row.values[column]
        player = None
        if club_name == "" or club is not None:
            named = owned_records(Player.objects.filter(name__iexact=name, club=club), user)
            if not named.exists():  # or by an alias (services.identity)
                named = owned_records(Player.objects.filter(player_named(name), club=club), user)
            player = _one(named, name, row, column)
        players.append(player)
        row.actions[column] = EXISTING if player else NEW
        row.matched[column] = player.pk if player else None
    p1, p2 = players
    pair = None
    if p1 is not None and p2 is not None:
        pair = owned_records(Pair.objects.filter(Q(player_1=p1, player_2=p2) | Q(player_1=p2, player_2=p1), club=club),
                       user).order_by("id").first()
    row.actions["pair"] = EXISTING if pair else NEW
    row.matched["pair"] = pair.pk if pair else None
    entry = Entry.objects.filter(tournament=tournament, pair=pair).first() if pair else None
    row.matched["entry"] = entry.pk if entry else None
    if entry is None:
        row.actions["entry"] = NEW
        known = [p.pk for p in players if p is not None]
        clash = (Entry.objects.filter(tournament=tournament)
                 .filter(Q(pair__player_1__in=known) | Q(pair__player_2__in=known)).select_related("pair").first()
                 if known else None)
        if clash is not None:
            for column, player in zip(("player_1", "player_2"), players, strict=True):
                if player is not None and player.pk in (clash.pair.player_1_id, clash.pair.player_2_id):
                    _add(row.errors, column, f"{player.name} already plays in this event (pair {clash.pair})")
        return
    changed = row.seed is not None and entry.seed != row.seed
    changed |= row.tags is not None and list(entry.tags or []) != row.tags
    changed |= bool(row.byes)
    row.actions["entry"] = UPDATE if changed else SAME


def _analyse(inputs: Sequence[tuple[int, dict[str, str]]], tournament: Tournament, user: Actor) -> list[PreviewRow]:
    paired = set(Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
                 .values_list("number", flat=True))
    rows = [PreviewRow(index=i, line=line, values=dict(values)) for i, (line, values) in enumerate(inputs)]
    for row in rows:
        _check_cells(row)
        _check_byes(row, tournament, paired)
    _check_together(rows)
    for row in rows:
        if not any(row.errors.get(k) for k in ("player_1", "player_2", "club")):
            _match(row, tournament, user)
    return rows


def _check_tournament(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended: no new entries.")


# ---- the services ---------------------------------------------------------------------------------------


def pairs_import_preview(*, data: bytes, filename: str, tournament: Tournament, user: Actor) -> Preview:
    """Every row of the file and what confirming it will do; nothing is written."""
    require_manager(user, tournament.pk)
    _check_tournament(tournament)
    if not isinstance(data, (bytes, bytearray)):
        raise _unreadable("Send the file itself.")
    inputs, kind, ignored, notes = read_rows(bytes(data), filename or "")
    return Preview(_analyse(inputs, tournament, user), filename=(filename or "")[:200], kind=kind,
                   ignored_columns=ignored, notes=notes)


def rows_from_data(rows: Any) -> list[tuple[int, dict[str, str]]]:
    """Rows sent back by the preview's form or the API (``line`` and the columns: text, numbers, or
    lists for ``tags`` and ``byes``) as the analysis reads them. A column left out of a row is not
    changed on an entry already made (``tags``, ``byes``). 400 ``rows_invalid`` for another shape."""

    def refuse(path: str, text: str) -> ValidationFailed:
        return ValidationFailed("rows_invalid", f"{path}: {text}", fields={path: text})

    if not isinstance(rows, (list, tuple)):
        raise refuse("rows", "a list of rows")
    if not rows:
        raise ValidationFailed("import_empty", "There are no rows to import.", fields={"rows": "at least one row"})
    if len(rows) > MAX_ROWS:
        raise ValidationFailed("import_too_large", f"More than {MAX_ROWS} rows: split the list.",
                               fields={"rows": f"at most {MAX_ROWS} rows"})
    out: list[tuple[int, dict[str, str]]] = []
    for i, raw in enumerate(rows):
        if not isinstance(raw, Mapping):
            raise refuse(f"rows[{i}]", "a row is an object of columns")
        unknown = sorted(set(raw) - {*COLUMNS, "line"})
        if unknown:
            raise refuse(f"rows[{i}].{unknown[0]}", "not a column of the import")
        line = raw.get("line", i + 2)
        if isinstance(line, bool) or not isinstance(line, int) or not 0 < line < 10_000_000:
            raise refuse(f"rows[{i}].line", "a line number")
        values: dict[str, str] = {}
        for name in COLUMNS:
            if name not in raw:
                if name in REQUIRED_COLUMNS:
                    values[name] = ""
                continue
            value = raw[name]
            if isinstance(value, (list, tuple)) and name in OPTIONAL_COLUMNS:
                if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
                    raise refuse(f"rows[{i}].{name}", "a list of names or round numbers")
                value = "; ".join(str(v) for v in value)
            elif value is None:
                value = ""
            elif isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            elif not isinstance(value, str):
                raise refuse(f"rows[{i}].{name}", "text")
            if len(value) > MAX_CELL or "\x00" in value:
                raise refuse(f"rows[{i}].{name}", f"at most {MAX_CELL} characters of text")
            values[name] = _text(value)
        out.append((line, values))
    return out


def pairs_import_check(*, rows: Any, tournament: Tournament, user: Actor) -> Preview:
    """The preview of rows sent back (corrected in the preview's form); nothing is written."""
    require_manager(user, tournament.pk)
    _check_tournament(tournament)
    return Preview(_analyse(rows_from_data(rows), tournament, user))


def pairs_import_commit(*, rows: Any, tournament: Tournament, user: Actor) -> CommitResult:
    """Store every row (clubs, players, pairs, entries, tags, requested byes) through the registry services
    in one transaction; ``ImportRowsInvalid`` (nothing stored) while any row has an error."""
    require_manager(user, tournament.pk)
    inputs = rows_from_data(rows)
    result = CommitResult()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _check_tournament(locked)
        preview = Preview(_analyse(inputs, locked, user))
        if not preview.ok:
            raise ImportRowsInvalid(preview)
        clubs: dict[str, Club] = {}
        for row in preview.rows:
            try:
                _store(row, locked, user, clubs, result)
            except DomainError as exc:  # a registry service's own check (a name it refuses ...)
                detail = "; ".join(f"{k}: {v}" for k, v in (exc.fields or {}).items() if v != exc.message)
                _add(row.errors, "row", exc.message + (f" ({detail})" if detail else ""))
                raise ImportRowsInvalid(preview) from exc
        audit_record(action="pairs.import", obj=locked, tournament_id=locked.pk, user=user,
                     after={"rows": len(preview.rows), **result.as_dict()})
    return result


def _store(row: PreviewRow, tournament: Tournament, user: Actor, clubs: dict[str, Club], result: CommitResult) -> None:
    club: Club | None = None
    name = row.values["club"]
    if name:
        folded = name.casefold()
        if folded not in clubs:
            found = Club.objects.get(pk=row.matched["club"]) if row.matched.get("club") else None
            if found is None:
                found = club_create(name=name, user=user)
                result.clubs_created += 1
            clubs[folded] = found
        club = clubs[folded]
    players: list[Player] = []
    for column in ("player_1", "player_2"):
        pk = row.matched.get(column)
        if pk:
            players.append(Player.objects.get(pk=pk))
        else:
            players.append(player_create(name=row.values[column], club=club, user=user))
            result.players_created += 1
    if row.matched.get("pair"):
        pair = Pair.objects.get(pk=row.matched["pair"])
        result.pairs_existing += 1
    else:
        pair = pair_create(player_1=players[0], player_2=players[1], club=club, seed=row.seed, user=user)
        result.pairs_created += 1
    entry_id = row.matched.get("entry")
    if entry_id:
        entry = Entry.objects.get(pk=entry_id)
        if row.seed is not None and entry.seed != row.seed:
            entry = entry_update(entry=entry, seed=row.seed, user=user)
        if row.actions.get("entry") == UPDATE:
            result.entries_updated += 1
    elif next_undrawn_round(tournament) > 1:  # play has begun: a late entry joins the next round not drawn
        entry = entry_enter_late(tournament=tournament, pair=pair, seed=row.seed, user=user)
        result.entries_created += 1
    else:
        entry = entry_create(tournament=tournament, pair=pair, seed=row.seed, user=user)
        result.entries_created += 1
    if row.tags is not None and list(entry.tags or []) != row.tags:
        entry_tags_set(entry=entry, tags=row.tags, user=user)
    for number in row.byes or []:
        entry_bye_request(entry=entry, round_number=number, user=user)
        result.byes_requested += 1
