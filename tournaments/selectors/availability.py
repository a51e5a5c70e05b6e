"""Who plays a round: the field as check-in left it; the entry lists (console and public); the registry
records a caller registers pairs with.

docs/decisions.md, "Availability": an ``Availability`` row per entry and round says present, absent or a
requested bye; no row is present, unless the tournament requires check-in, where it is "not checked in"
and the pair is not drawn. Withdrawn entries are not in a round's field; a late entry is ``late`` before
the round it joins from (``Entry.joins_from``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Model, Q, QuerySet

from tournaments.actors import Actor, is_system
from tournaments.errors import NotFound
from tournaments.models import Availability, Club, Entry, Round, Tournament

PRESENT = "present"
ABSENT = "absent"
BYE = "bye"
NOT_CHECKED_IN = "not_checked_in"
#: A late entry before the round it joins from (``Entry.joins_from``): not drawn, scores nothing.
LATE = "late"
#: How the pages name each state.
STATE_LABELS = {PRESENT: "Present", ABSENT: "Absent", BYE: "Requested a bye", NOT_CHECKED_IN: "Not checked in",
                LATE: "Joins later"}


@dataclass(frozen=True)
class FieldEntry:
    """One active entry in a round's field: its state, and whether someone recorded it."""

    entry: Entry
    state: str
    recorded: bool

    @property
    def label(self) -> str:
        return STATE_LABELS[self.state]


@dataclass(frozen=True)
class RoundField:
    """The active entries of a tournament for one round, in seed order, each with its state."""

    round_number: int
    requires_check_in: bool
    entries: list[FieldEntry] = field(default_factory=list)

    def ids(self, state: str) -> list[int]:
        return [e.entry.pk for e in self.entries if e.state == state]

    @property
    def present(self) -> list[int]:
        """Who is drawn against an opponent."""
        return self.ids(PRESENT)

    @property
    def absent(self) -> list[int]:
        return self.ids(ABSENT)

    @property
    def byes(self) -> list[int]:
        """Who requested a bye (each gets a bye board)."""
        return self.ids(BYE)

    @property
    def not_checked_in(self) -> list[int]:
        return self.ids(NOT_CHECKED_IN)

    def counts(self) -> dict[str, int]:
        out = {PRESENT: 0, ABSENT: 0, BYE: 0, NOT_CHECKED_IN: 0, LATE: 0}
        for e in self.entries:
            out[e.state] += 1
        return out


def _entries(tournament: Tournament, *, withdrawn: bool | None = False) -> list[Entry]:
    qs = Entry.objects.filter(tournament=tournament).select_related(
        "pair", "pair__player_1", "pair__player_2", "pair__club")
    if withdrawn is not None:
        qs = qs.filter(withdrawn=withdrawn)
    return list(qs.order_by(F("seed").asc(nulls_last=True), "id"))


def round_field(tournament: Tournament, round_number: int) -> RoundField:
    """Each active (not withdrawn) entry's state for round ``round_number``: present, absent, bye (a
    requested bye) or not checked in (only where the tournament requires check-in)."""
    entries = _entries(tournament)
    stored = dict(Availability.objects.filter(entry__tournament=tournament, round_number=round_number)
                  .values_list("entry_id", "state"))
    default = NOT_CHECKED_IN if tournament.requires_check_in else PRESENT
    rows = [FieldEntry(e, LATE if e.joins_from and round_number < e.joins_from else stored.get(e.pk, default),
                       e.pk in stored) for e in entries]
    return RoundField(round_number, tournament.requires_check_in, rows)


def requested_byes(tournament: Tournament, *, before: int | None = None) -> set[tuple[int, int]]:
    """``(round number, entry id)`` of every requested bye of the tournament (of rounds before ``before``)."""
    qs = Availability.objects.filter(entry__tournament=tournament, state=Availability.State.BYE)
    if before is not None:
        qs = qs.filter(round_number__lt=before)
    return set(qs.values_list("round_number", "entry_id"))


def entry_byes(tournament: Tournament) -> dict[int, list[int]]:
    """Each entry's requested bye rounds, in order."""
    out: dict[int, list[int]] = {}
    for number, entry_id in sorted(requested_byes(tournament)):
        out.setdefault(entry_id, []).append(number)
    return out


def check_in_round(tournament: Tournament) -> int:
    """The round check-in is for: the first round not paired yet (a pending round, else the next one)."""
    rounds = list(Round.objects.filter(tournament=tournament).values_list("number", "status").order_by("number"))
    pending = [n for n, status in rounds if status == Round.Status.PENDING]
    if pending:
        return pending[0]
    return (rounds[-1][0] + 1) if rounds else 1


def registered_entries(tournament: Tournament, *, query: str = "") -> list[Entry]:
    """Every entry of the tournament, withdrawn ones too, in seed order, with pair, players and club;
    ``query`` keeps those whose pair, player or club name contains it (any case)."""
    entries = _entries(tournament, withdrawn=None)
    return _search(entries, query)


def public_entry_list(tournament: Tournament) -> list[Entry]:
    """The starting list: the entries not withdrawn, in seed order."""
    return _entries(tournament)


def _search(entries: list[Entry], query: str) -> list[Entry]:
    words = query.casefold().split()
    if not words:
        return entries

    def text(e: Entry) -> str:
        pair = e.pair
        return " ".join([pair.display_name, pair.player_1.name, pair.player_2.name,
                         pair.club.name if pair.club else "", " ".join(e.tags or [])]).casefold()

    return [e for e in entries if all(w in text(e) for w in words)]


def search_field(field_: RoundField, query: str) -> list[FieldEntry]:
    """The field's rows whose pair, player, club or tag names contain every word of ``query``."""
    keep = {e.pk for e in _search([row.entry for row in field_.entries], query)}
    return [row for row in field_.entries if row.entry.pk in keep]


def tournament_entry(tournament: Tournament, entry_id: int) -> Entry:
    """One entry of the tournament (withdrawn or not), with its pair, players and club."""
    entry = (Entry.objects.select_related("pair", "pair__player_1", "pair__player_2", "pair__club", "tournament")
             .filter(Q(pk=entry_id) & Q(tournament=tournament)).first())
    if entry is None:
        raise NotFound(message="No such entry")
    return entry


# ---- the registry records a caller registers with ----------------------------------------------------


def _has_owner(model: type[Model]) -> bool:
    return any(f.name == "owner" for f in model._meta.get_fields())


def owned_records(queryset: QuerySet[Any], user: Actor) -> QuerySet[Any]:
    """Clubs, players or pairs of the caller's organisations (docs/decisions.md, "Owners"; what an import
    matches by name); every record for the system (``user`` None or ``SYSTEM``)."""
    if user is None or is_system(user) or not _has_owner(queryset.model):
        return queryset
    from tournaments.models.organisations import Organisation

    return queryset.filter(owner__in=Organisation.objects.of_user(user).values("pk"))


def personal_record(queryset: QuerySet[Any], user: Actor) -> Any:
    """The first record of ``queryset`` that the caller's personal organisation owns, or None."""
    if user is None or is_system(user) or not _has_owner(queryset.model):
        return None
    return queryset.filter(owner__personal_user_id=getattr(user, "pk", None)).order_by("id").first()


def club_names(user: Actor) -> list[str]:
    """The names of the caller's clubs (for a form's suggestions), in order."""
    return sorted(set(owned_records(Club.objects.all(), user).values_list("name", flat=True)), key=str.casefold)
