"""Import pairs from a CSV file (the API's ``POST /pairs/import/`` and the admin's "Import pairs from CSV").

Columns: ``player_1, player_2, club, seed`` (a header row; ``club`` and ``seed`` may be blank). Missing
players and clubs are created; a player is found by name within the row's club. Clubs, players and pairs
are matched among the caller's organisations' records only, and new ones go to the caller's personal
organisation (docs/adr/0010-owners-and-organisations.md). Every row is checked
first: if any row is bad, nothing is written and every bad row is reported with its line number (all or
nothing). With a tournament, each pair is also entered in it with the row's seed.

Refusals (docs/services.md): 400 ``csv_unreadable`` (the file as a whole: encoding, header, size) and
``csv_rows_invalid`` (``fields``: ``{"line N": why}``, and ``errors``: every ``RowError`` with its code); 403
``not_organiser`` when the user does not organise the tournament. A text cell that begins like a
spreadsheet formula (``= + - @``, a tab or a carriage return; ``tournaments/csvsafe.py``) is an error of its
row with the code ``formula_cell`` (issue 11 item 5): nothing that would run in a spreadsheet is stored.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet

from tournaments.actors import Actor
from tournaments.csvsafe import FORMULA_CELL, is_formula
from tournaments.models import AuditEvent, Club, Entry, Pair, Player, Tournament
from tournaments.selectors.identity import club_named, player_named

from ._common import actor, require_organiser
from ._rules import clean_name
from .errors import ValidationFailed
from .events import players_in_event
from .organisations import default_owner_id, member_organisation_ids

REQUIRED_COLUMNS = ("player_1", "player_2", "club", "seed")
MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
NAME_MAX = 120  # Player.name and Club.name


@dataclass(frozen=True)
class RowError:
    line: int
    message: str
    #: ``invalid_row``, or ``formula_cell`` for a cell that begins like a spreadsheet formula.
    code: str = "invalid_row"

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class PairRow:
    line: int
    player_1: str
    player_2: str
    club: str
    seed: int | None


@dataclass
class ImportResult:
    """What an import did."""

    pairs_created: int = 0
    pairs_existing: int = 0
    players_created: int = 0
    clubs_created: int = 0
    entries_created: int = 0

    def summary(self) -> str:
        return (
            f"{self.pairs_created} pairs created, {self.pairs_existing} already there, "
            f"{self.players_created} players and {self.clubs_created} clubs created, "
            f"{self.entries_created} entries made"
        )

    def as_dict(self) -> dict[str, int]:
        return {"pairs_created": self.pairs_created, "pairs_existing": self.pairs_existing,
                "players_created": self.players_created, "clubs_created": self.clubs_created,
                "entries_created": self.entries_created}


class PairsImportRefused(ValidationFailed):
    """Nothing was imported: ``errors`` lists every bad row (``fields`` has them as ``line N``)."""

    def __init__(self, code: str, errors: list[RowError]) -> None:
        self.errors = errors
        fields: dict[str, str] = {}
        for error in errors:
            key = f"line {error.line}"
            fields[key] = f"{fields[key]}; {error.message}" if key in fields else error.message
        if len(errors) == 1:
            message = f"Nothing imported: {errors[0]}."
        else:
            message = f"Nothing imported: {len(errors)} rows to fix."
        super().__init__(code, message, fields=fields)


class CsvFormatError(ValueError):
    """The file as a whole cannot be read (encoding, header, size)."""


def _clean(value: str | None) -> str:
    return " ".join((value or "").split())


#: A plain number is not a formula, even with a sign (a seed of -3 is refused as a seed, not as a formula).
_NUMBER = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*$")


def _formula_columns(raw: dict[str, str | None]) -> list[str]:
    """The columns of a row whose cell, as read, begins like a spreadsheet formula."""
    return [
        column for column in REQUIRED_COLUMNS
        if is_formula(raw.get(column) or "") and not _NUMBER.match(raw.get(column) or "")
    ]


def parse_pairs_csv(data: bytes | str) -> tuple[list[PairRow], list[RowError]]:
    """Read and check every row; no database access. Raises CsvFormatError for a file-level problem."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise CsvFormatError(f"the file is larger than {MAX_BYTES // 1000} kB")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CsvFormatError("the file is not UTF-8 text (save it as CSV UTF-8)") from exc
    else:
        text = data.removeprefix("\ufeff")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [(_clean(name)).lower() for name in (reader.fieldnames or [])]
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if not reader.fieldnames:
        raise CsvFormatError("the file is empty: the first line must name the columns " + ", ".join(REQUIRED_COLUMNS))
    if missing:
        raise CsvFormatError("missing column(s): " + ", ".join(missing))
    reader.fieldnames = header

    rows: list[PairRow] = []
    errors: list[RowError] = []
    seen_pairs: dict[frozenset[tuple[str, str]], int] = {}
    for raw in reader:
        line = reader.line_num
        if len(rows) + len(errors) >= MAX_ROWS:
            raise CsvFormatError(f"more than {MAX_ROWS} rows")
        if None in raw:
            errors.append(RowError(line, "more fields than columns"))
            continue
        values = {key: _clean(raw.get(key)) for key in REQUIRED_COLUMNS}
        if not any(values.values()):
            continue  # a blank line
        formulas = _formula_columns(raw)
        if formulas:
            errors.append(RowError(line, "; ".join(
                f"{column} begins like a spreadsheet formula (=, +, -, @, a tab or a carriage return): "
                "write it without that sign" for column in formulas
            ), code=FORMULA_CELL))
            continue
        problems: list[str] = []
        for column in ("player_1", "player_2", "club"):  # names as the services store them (_rules.clean_name)
            try:
                values[column] = clean_name(values[column], column)
            except ValidationFailed as exc:
                problems.append(f"{column}: {exc.message}")
        for column in ("player_1", "player_2"):
            if not values[column]:
                problems.append(f"{column} is empty")
            elif len(values[column]) > NAME_MAX:
                problems.append(f"{column} is longer than {NAME_MAX} characters")
        if len(values["club"]) > NAME_MAX:
            problems.append(f"club is longer than {NAME_MAX} characters")
        if values["player_1"] and values["player_1"].casefold() == values["player_2"].casefold():
            problems.append("player_1 and player_2 are the same player")
        seed: int | None = None
        if values["seed"]:
            if values["seed"].isdigit() and int(values["seed"]) > 0:
                seed = int(values["seed"])
            else:
                problems.append(f"seed {values['seed']!r} is not a whole number above 0")
        key = frozenset(
            {(values["club"].casefold(), values["player_1"].casefold()), (values["club"].casefold(), values["player_2"].casefold())}
        )
        if not problems and key in seen_pairs:
            problems.append(f"the same pair is already on line {seen_pairs[key]}")
        if problems:
            errors.append(RowError(line, "; ".join(problems)))
            continue
        seen_pairs[key] = line
        rows.append(PairRow(line, values["player_1"], values["player_2"], values["club"], seed))
    if not rows and not errors:
        errors.append(RowError(1, "no pairs in the file"))
    return rows, errors


def _check_against_database(rows: list[PairRow], tournament: Tournament | None,
                            owners: _Owners | None = None) -> list[RowError]:
    owners = owners or _Owners.of(None)
    errors: list[RowError] = []
    for row in rows:
        club = owners.club(row.club) if row.club else None
        for name in (row.player_1, row.player_2):
            if owners.players(name, club).count() > 1:
                errors.append(RowError(row.line, f"{name!r} matches more than one player of that club"))
    if tournament is not None:
        if tournament.status == Tournament.Status.FINISHED:
            errors.append(RowError(1, f"{tournament} is finished: no new entries"))
        # In one tournament a player plays in one pair only.
        first_line: dict[tuple[str, str], int] = {}
        for row in rows:
            for name in (row.player_1, row.player_2):
                who = (row.club.casefold(), name.casefold())
                if who in first_line:
                    errors.append(RowError(row.line, f"{name} already plays on line {first_line[who]} of this tournament"))
                first_line.setdefault(who, row.line)
        errors.extend(_already_entered(rows, tournament, owners))
    return errors


def _already_entered(rows: list[PairRow], tournament: Tournament, owners: _Owners) -> list[RowError]:
    """A row whose player already plays for another entry of the tournament (one player, one entry per
    event; a row of a pair entered already is that entry, and fine)."""
    taken = players_in_event(tournament)
    errors: list[RowError] = []
    for row in rows:
        club = owners.club(row.club) if row.club else None
        found = [(name, owners.players(name, club).first()) for name in (row.player_1, row.player_2)]
        ids = {player.pk for _, player in found if player is not None}
        for name, player in found:
            entry = taken.get(player.pk) if player is not None else None
            if entry is not None and {entry.pair.player_1_id, entry.pair.player_2_id} != ids:
                errors.append(RowError(row.line, f"{name} already plays in this tournament, for "
                                                 f"{entry.pair.display_name}"))
    return errors


@dataclass(frozen=True)
class _Owners:
    """Whose records an import matches (the caller's organisations: a club of another organiser with the same
    name is not theirs) and where it puts new ones (their personal organisation; the house's for the system).
    docs/adr/0010-owners-and-organisations.md."""

    ids: frozenset[int]
    target: int

    @classmethod
    def of(cls, user: Actor) -> _Owners:
        target = default_owner_id(user)
        return cls(frozenset(member_organisation_ids(user)) | {target}, target)

    def club(self, name: str) -> Club | None:
        """The caller's club of this name: their personal organisation's first, else a shared one's."""
        found = Club.objects.filter(owner_id__in=self.ids, name__iexact=name)
        if not found.exists():  # a spelling variant merged into a club is its alias (services.identity)
            found = Club.objects.filter(club_named(name), owner_id__in=self.ids)
        return found.filter(owner_id=self.target).first() or found.order_by("id").first()

    def players(self, name: str, club: Club | None) -> QuerySet[Player]:
        found = Player.objects.filter(owner_id__in=self.ids, name__iexact=name, club=club).order_by("id")
        if not found.exists():  # or by an alias (services.identity)
            found = Player.objects.filter(player_named(name), owner_id__in=self.ids, club=club).order_by("id")
        return found


def pairs_import(*, data: bytes | str, user: Actor, tournament: Tournament | None = None) -> ImportResult:
    """Check every row, then create clubs, players, pairs (and entries in ``tournament``) in one
    transaction; ``PairsImportRefused`` (nothing written) when any row or the file is wrong."""
    if tournament is not None and user is not None:
        require_organiser(user, tournament.pk)
    try:
        rows, errors = parse_pairs_csv(data)
    except CsvFormatError as exc:
        raise PairsImportRefused("csv_unreadable", [RowError(1, str(exc))]) from exc
    if errors:
        raise PairsImportRefused("csv_rows_invalid", errors)

    result = ImportResult()
    with transaction.atomic():
        if tournament is not None:
            tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        owners = _Owners.of(user)
        errors = _check_against_database(rows, tournament, owners)
        if errors:
            raise PairsImportRefused("csv_rows_invalid", errors)
        clubs: dict[str, Club] = {}
        for row in rows:
            _import_row(row, tournament, clubs, result, owners)
        AuditEvent.objects.create(
            tournament=tournament, user=actor(user), action="pairs_imported", object_type="pair",
            object_id="csv", after={"rows": len(rows), **result.as_dict()},
        )
    return result


def _import_row(row: PairRow, tournament: Tournament | None, clubs: dict[str, Club], result: ImportResult,
                owners: _Owners) -> None:
    club: Club | None = None
    if row.club:
        folded = row.club.casefold()
        if folded not in clubs:
            found = owners.club(row.club)
            if found is None:
                found = Club.objects.create(name=row.club, owner_id=owners.target)
                result.clubs_created += 1
            clubs[folded] = found
        club = clubs[folded]
    owner = club.owner_id if club is not None else owners.target
    players = []
    for name in (row.player_1, row.player_2):
        player = owners.players(name, club).first()
        if player is None:
            player = Player.objects.create(name=name, club=club, owner_id=owner)
            result.players_created += 1
        players.append(player)
    p1, p2 = players
    mine = Pair.objects.filter(owner_id__in=owners.ids)
    pair = (
        mine.filter(club=club, player_1=p1, player_2=p2).first()
        or mine.filter(club=club, player_1=p2, player_2=p1).first()
    )
    if pair is None:
        pair = Pair.objects.create(player_1=p1, player_2=p2, club=club, seed=row.seed, owner_id=owner)
        result.pairs_created += 1
    else:
        result.pairs_existing += 1
        if row.seed is not None and pair.seed != row.seed:
            pair.seed = row.seed
            pair.save(update_fields=["seed"])
    if tournament is not None:
        entry, created = Entry.objects.get_or_create(tournament=tournament, pair=pair, defaults={"seed": row.seed})
        if created:
            result.entries_created += 1
        elif row.seed is not None and entry.seed != row.seed:
            entry.seed = row.seed
            entry.save(update_fields=["seed"])
