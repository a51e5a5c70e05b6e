"""Prizes as they stand: who wins each prize of an event, and the payout sheet (a read; nothing is written).

``prizes_award(tournament)`` reads the latest standings snapshot (confirmed games only) and, for the
hand-level prizes, the statistics (``statistics.tournament_stats``), and gives one ``Award`` per prize in
the prizes' display order (a tie split over several prizes gives one award for all of them):

* **place** k: the k-th entrant of the standings (the pairs; in a club-team event, the club table);
* **best club**: the first of the club table (a pairs event's clubs are ranked from their pairs' rows);
* **most hang jacks**, **highest count** (the highest count for game in one hand): the pair with the
  largest figure over the confirmed hands, level figures being a tie;
* **tag** k: the k-th pair of the standings among the entries that carry the tag (``Entry.tags``).

**One prize per pair** (``tournament.one_prize_per_pair``): prizes are settled from the largest amount
down (then in their order); a pair that already won is passed over and the next eligible pair takes the
prize, which the award's note says. Clubs are not pairs: the rule leaves them alone.

**Ties** (entrants still level after every tie-break: one shared rank in the snapshot; a shared figure for
the hand-level prizes): with ``prize_ties == "tie_breaks"`` the standings order decides (inside a shared
rank, the seed order) and the note says so; with ``"split"`` the tied entrants share equally the prizes of
the places they occupy (two level for 2nd share the 2nd and 3rd prizes), rounded to the cent, a remainder
cent going to the higher placed in the standings order. A prize nobody can take is "not awarded".

``payout_sheet(tournament)``: each winner's amount, the total paid out, the entry fees collected (entries
whose fee is recorded paid times the entry fee) and the balance, in the event's currency.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from tournaments.models import Club, Entry, Prize, StandingsSnapshot, Tournament

from .public import tournament_entries
from .snapshots import latest_snapshot
from .statistics import tournament_stats

TIE_BREAKS_DECIDE = "tie_breaks"
SPLIT = "split"
CENT = Decimal("0.01")


def ordinal(n: int) -> str:
    """1 -> 1st, 2 -> 2nd, 11 -> 11th, 23 -> 23rd."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def money(amount: Decimal | None, currency: str) -> str:
    """``TTD 1,250.00`` (an empty amount: an empty string)."""
    if amount is None:
        return ""
    return f"{currency} {amount.quantize(CENT, rounding=ROUND_HALF_UP):,.2f}"


def prize_title(prize: Prize) -> str:
    """The prize's label, or what its category says: "1st place", "Best club", "Ladies: 2nd"."""
    if prize.label:
        return prize.label
    if prize.category == Prize.Category.PLACE:
        return f"{ordinal(prize.place or 1)} place"
    if prize.category == Prize.Category.TAG:
        return f"{(prize.tag or 'tag').capitalize()}: {ordinal(prize.place or 1)}"
    return str(Prize.Category(prize.category).label)


def event_prizes(tournament: Tournament) -> list[Prize]:
    """The tournament's prizes in their display order."""
    return list(Prize.objects.filter(tournament=tournament).order_by("order", "id"))


# ---- what an award is --------------------------------------------------------------------------------


@dataclass
class Winner:
    """One winner of an award: a pair (``kind`` ``entry``) or a club, and what they receive."""

    kind: str
    id: int
    name: str
    amount: Decimal | None
    #: Why: "1st, 5-0, 10 match points", "6 hang jacks".
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "name": self.name,
                "amount": None if self.amount is None else f"{self.amount:.2f}", "detail": self.detail}


@dataclass
class Award:
    """One prize (or the prizes a tie split) and who takes it; no winner: not awarded (``note`` says why)."""

    prizes: list[int]
    category: str
    title: str
    place: int | None
    tag: str
    amount: Decimal | None
    winners: list[Winner] = field(default_factory=list)
    note: str = ""
    #: Display position (the first prize's order), for sorting.
    position: tuple[int, int] = (0, 0)

    @property
    def awarded(self) -> bool:
        return bool(self.winners)

    @property
    def split(self) -> bool:
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "prizes": self.prizes, "category": self.category, "title": self.title, "place": self.place,
            "tag": self.tag, "amount": None if self.amount is None else f"{self.amount:.2f}",
            "awarded": self.awarded, "winners": [w.to_dict() for w in self.winners], "note": self.note,
        }


def award_from_dict(data: Mapping[str, Any]) -> Award:
    """An award as ``Award.to_dict`` froze it (the final results)."""
    def dec(value: Any) -> Decimal | None:
        return None if value in (None, "") else Decimal(str(value))

    return Award(
        prizes=list(data.get("prizes") or []), category=str(data.get("category", "")), title=str(data.get("title", "")),
        place=data.get("place"), tag=str(data.get("tag") or ""), amount=dec(data.get("amount")),
        winners=[Winner(kind=str(w.get("kind", "entry")), id=int(w.get("id", 0)), name=str(w.get("name", "")),
                        amount=dec(w.get("amount")), detail=str(w.get("detail", ""))) for w in data.get("winners") or []],
        note=str(data.get("note", "")),
    )


# ---- candidates: who could take a prize, best first ---------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    kind: str  # "entry" or "club"
    id: int
    name: str
    #: Entrants with the same group are level (a shared rank; a shared figure).
    group: Any
    detail: str


def _pair_name(entry: Entry | None, row: Mapping[str, Any]) -> str:
    if entry is not None:
        return entry.pair.display_name
    return str(row.get("name") or f"Pair {row.get('entry_id') or row.get('entrant_id')}")


def _row_entry_id(row: Mapping[str, Any]) -> int | None:
    value = row.get("entry_id", row.get("entrant_id"))
    return value if isinstance(value, int) else None


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _row_detail(row: Mapping[str, Any]) -> str:
    rank = row.get("rank")
    bits = [f"{'=' if row.get('tied') else ''}{ordinal(int(rank))}" if isinstance(rank, int) else ""]
    if row.get("record"):
        bits.append(str(row["record"]))
    if row.get("match_points") is not None:
        bits.append(f"{_plain(row['match_points'])} pts")
    return ", ".join(b for b in bits if b)


def _pair_candidates(rows: Sequence[Mapping[str, Any]], entries: Mapping[int, Entry],
                     tag: str | None = None) -> list[Candidate]:
    out = []
    for row in rows:
        entry_id = _row_entry_id(row)
        if entry_id is None:
            continue
        entry = entries.get(entry_id)
        if tag is not None and (entry is None or tag not in (entry.tags or [])):
            continue
        out.append(Candidate("entry", entry_id, _pair_name(entry, row), ("rank", row.get("rank")), _row_detail(row)))
    return out


def _played_as(entries: Mapping[int, Entry]) -> dict[int, str]:
    """Each club's name in this event: the name recorded on its first entry (``Entry.club_label``), so a
    club renamed since takes its prize under the name it played under."""
    names: dict[int, str] = {}
    for entry in sorted(entries.values(), key=lambda e: e.pk):
        club_id = entry.club_id if entry.club_id is not None else entry.pair.club_id
        if club_id is not None and entry.club_label:
            names.setdefault(club_id, entry.club_label)
    return names


def _club_candidates(rows: Sequence[Mapping[str, Any]], entries: Mapping[int, Entry]) -> list[Candidate]:
    ids = [r.get("club_id", r.get("entrant_id")) for r in rows]
    played_as = _played_as(entries)
    missing = [i for i in ids if isinstance(i, int) and i not in played_as]
    clubs = Club.objects.in_bulk(missing) if missing else {}
    out = []
    for row, club_id in zip(rows, ids, strict=True):
        if not isinstance(club_id, int):
            continue
        club = clubs.get(club_id)
        name = played_as.get(club_id) or (club.name if club else str(row.get("name") or f"Club {club_id}"))
        out.append(Candidate("club", club_id, name,
                             ("rank", row.get("rank")), _row_detail(row)))
    return out


def _figure_candidates(figures: Mapping[int, int], order: Sequence[int], entries: Mapping[int, Entry],
                       unit: str) -> list[Candidate]:
    """Pairs with a figure above nil, largest first, level figures in the standings order."""
    position = {entry_id: i for i, entry_id in enumerate(order)}
    ranked = sorted((eid for eid, value in figures.items() if value > 0),
                    key=lambda eid: (-figures[eid], position.get(eid, len(position)), eid))
    return [Candidate("entry", eid, _pair_name(entries.get(eid), {"entry_id": eid}), ("figure", figures[eid]),
                      f"{figures[eid]} {unit}") for eid in ranked]


# ---- settling the prizes ----------------------------------------------------------------------------


def _names(candidates: Iterable[Candidate]) -> str:
    names = [c.name for c in candidates]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _shares(total: Decimal, n: int) -> list[Decimal]:
    """``total`` in ``n`` equal shares to the cent; the remainder cents to the first (the higher placed)."""
    cents = int((total / CENT).to_integral_value(rounding=ROUND_HALF_UP))
    base, rest = divmod(cents, n)
    return [(Decimal(base + (1 if i < rest else 0)) * CENT).quantize(CENT) for i in range(n)]


def _sum(amounts: Iterable[Decimal | None]) -> Decimal | None:
    values = [a for a in amounts if a is not None]
    return sum(values, Decimal("0.00")) if values else None


class _Settler:
    def __init__(self, tournament: Tournament, snapshot: StandingsSnapshot | None) -> None:
        self.tournament = tournament
        self.snapshot = snapshot
        self.entries = tournament_entries(tournament)
        self.rows: list[Mapping[str, Any]] = [r for r in (snapshot.rows if snapshot else []) if isinstance(r, Mapping)]
        self.club_rows: list[Mapping[str, Any]] = [r for r in ((snapshot.clubs if snapshot else None) or [])
                                                   if isinstance(r, Mapping)]
        self.split = tournament.prize_ties == SPLIT
        self.one_per_pair = bool(tournament.one_prize_per_pair)
        self._stats: tuple[dict[int, int], dict[int, int]] | None = None
        self._lists: dict[tuple[str, str], list[Candidate]] = {}

    def figures(self) -> tuple[dict[int, int], dict[int, int]]:
        """(hang jacks for, highest count for game) per entry id, over the confirmed hands."""
        if self._stats is None:
            rows, _ = tournament_stats(self.tournament)
            self._stats = ({s.entry.id: s.hang_jacks_for for s in rows},
                           {s.entry.id: s.highest_game_count for s in rows})
        return self._stats

    def candidates(self, prize: Prize) -> list[Candidate]:
        key = (prize.category, prize.tag if prize.category == Prize.Category.TAG else "")
        if key in self._lists:
            return self._lists[key]
        category = prize.category
        order = [eid for eid in (_row_entry_id(r) for r in self.rows) if eid is not None]
        if category == Prize.Category.PLACE:
            found = (_club_candidates(self.club_rows, self.entries) if self.tournament.is_club_teams
                     else _pair_candidates(self.rows, self.entries))
        elif category == Prize.Category.BEST_CLUB:
            found = _club_candidates(self.club_rows, self.entries)
        elif category == Prize.Category.TAG:
            found = _pair_candidates(self.rows, self.entries, tag=prize.tag)
        elif category == Prize.Category.MOST_HANG_JACKS:
            found = _figure_candidates(self.figures()[0], order, self.entries, "hang jacks")
        elif category == Prize.Category.HIGHEST_COUNT:
            found = _figure_candidates(self.figures()[1], order, self.entries, "for game in one hand")
        else:
            found = []
        self._lists[key] = found
        return found

    @staticmethod
    def start(prize: Prize) -> int:
        if prize.category in (Prize.Category.PLACE, Prize.Category.TAG):
            return max(1, prize.place or 1) - 1
        return 0

    def missing(self, prize: Prize, candidates: list[Candidate]) -> str:
        if self.snapshot is None or not self.rows:
            return "Not awarded: no confirmed result yet."
        if prize.category == Prize.Category.TAG:
            tagged = len(candidates)
            return (f"Not awarded: {tagged} pair{'s' if tagged != 1 else ''} carry the tag “{prize.tag}”, "
                    f"none placed {ordinal(prize.place or 1)} among them.")
        if prize.category == Prize.Category.PLACE:
            return f"Not awarded: fewer than {prize.place or 1} entrants are ranked."
        if prize.category == Prize.Category.BEST_CLUB:
            return "Not awarded: no club is ranked."
        if prize.category == Prize.Category.MOST_HANG_JACKS:
            return "Not awarded: no hang jack in a confirmed game."
        return "Not awarded: no count for game in a confirmed hand."

    def settle(self, prizes: list[Prize]) -> list[Award]:
        taken: dict[int, str] = {}  # entry id -> the title of the prize it won
        done: set[int] = set()
        awards: list[Award] = []
        by_amount = sorted(prizes, key=lambda p: (-(p.amount if p.amount is not None else Decimal(-1)), p.order, p.id))
        for prize in by_amount:
            if prize.pk in done:
                continue
            awards.append(self._one(prize, prizes, taken, done))
        return sorted(awards, key=lambda a: a.position)

    def _one(self, prize: Prize, prizes: list[Prize], taken: dict[int, str], done: set[int]) -> Award:
        currency = self.tournament.currency
        done.add(prize.pk)
        award = Award(prizes=[prize.pk], category=prize.category, title=prize_title(prize), place=prize.place,
                      tag=prize.tag, amount=prize.amount, position=(prize.order, prize.pk))
        candidates = self.candidates(prize)

        def is_taken(c: Candidate) -> bool:
            return self.one_per_pair and c.kind == "entry" and c.id in taken

        index = self.start(prize)
        if index >= len(candidates):
            award.note = self.missing(prize, candidates)
            return award
        skipped: list[Candidate] = []
        while index < len(candidates) and is_taken(candidates[index]):
            skipped.append(candidates[index])
            index += 1
        notes: list[str] = []
        if skipped:
            won = "; ".join(f"{c.name} already won {taken[c.id]}" for c in skipped)
            notes.append(f"One prize per pair: {won}, so the next eligible pair takes it.")
        if index >= len(candidates):
            award.note = " ".join([*notes, "Not awarded: every eligible pair has already won a prize."])
            return award
        winner = candidates[index]
        group = [c for c in candidates if c.group == winner.group]
        level = [c for c in group if not is_taken(c)]
        others = [c for c in level if c is not winner]
        level_words = "level after every tie-break" if winner.group[0] == "rank" else \
            f"level on {winner.detail}"
        if not others:
            award.winners = [Winner(winner.kind, winner.id, winner.name, prize.amount, winner.detail)]
        elif not self.split:
            award.winners = [Winner(winner.kind, winner.id, winner.name, prize.amount, winner.detail)]
            decides = "the seed order decides" if winner.group[0] == "rank" else "the standings order decides"
            notes.append(f"{winner.name} and {_names(others)} are {level_words}: {decides}.")
        else:
            pool = [prize]
            if prize.category in (Prize.Category.PLACE, Prize.Category.TAG):
                places = {candidates.index(c) + 1 for c in group}
                same = [p for p in prizes if p.pk not in done and p.category == prize.category
                        and (p.tag == prize.tag or prize.category == Prize.Category.PLACE)
                        and (p.place or 1) in places]
                pool += sorted(same, key=lambda p: (p.place or 1, p.order, p.pk))[: len(level) - 1]
            pool.sort(key=lambda p: (p.place or 0, p.order, p.pk))
            done.update(p.pk for p in pool)
            total = _sum(p.amount for p in pool)
            shares = _shares(total, len(level)) if total is not None else [None] * len(level)
            award.prizes = [p.pk for p in pool]
            award.title = " + ".join(prize_title(p) for p in pool)
            award.amount = total
            award.position = min((p.order, p.pk) for p in pool)
            award.winners = [Winner(c.kind, c.id, c.name, share, c.detail) for c, share in zip(level, shares, strict=True)]
            shared = " and ".join(prize_title(p) for p in pool)
            each = f" ({money(total, currency)}), {money(shares[-1], currency)} each" if total is not None else ""
            if total is not None and shares[0] != shares[-1]:
                each = f" ({money(total, currency)}), the odd cent to the higher placed"
            notes.append(f"{_names(level)} are {level_words}: they share {shared} equally{each}.")
        for w in award.winners:
            if w.kind == "entry":
                taken.setdefault(w.id, award.title)
        award.note = " ".join(notes)
        return award


def prizes_award(tournament: Tournament, snapshot: StandingsSnapshot | None | Any = None) -> list[Award]:
    """Who wins each prize now (the latest standings; ``snapshot`` to settle from another), in the prizes'
    display order. A pure read."""
    prizes = event_prizes(tournament)
    if not prizes:
        return []
    return _Settler(tournament, snapshot if snapshot is not None else latest_snapshot(tournament)).settle(prizes)


# ---- the payout sheet --------------------------------------------------------------------------------


@dataclass
class PayoutLine:
    title: str
    name: str
    amount: Decimal | None
    note: str = ""


@dataclass
class Payout:
    currency: str
    lines: list[PayoutLine]
    total_paid: Decimal
    entry_fee: Decimal | None
    entries: int
    fees_paid: int
    fees_collected: Decimal
    balance: Decimal
    #: Pairs whose entry fee is not recorded as paid (names), when there is a fee.
    unpaid: list[str] = field(default_factory=list)

    def fmt(self, amount: Decimal | None) -> str:
        return money(amount, self.currency)

    @property
    def total_paid_text(self) -> str:
        return self.fmt(self.total_paid)

    @property
    def fees_collected_text(self) -> str:
        return self.fmt(self.fees_collected)

    @property
    def balance_text(self) -> str:
        return self.fmt(self.balance)

    @property
    def entry_fee_text(self) -> str:
        return self.fmt(self.entry_fee) if self.entry_fee is not None else "free"

    def to_dict(self) -> dict[str, Any]:
        def s(value: Decimal | None) -> str | None:
            return None if value is None else f"{value:.2f}"

        return {
            "currency": self.currency,
            "lines": [{"title": ln.title, "name": ln.name, "amount": s(ln.amount), "note": ln.note} for ln in self.lines],
            "total_paid": s(self.total_paid), "entry_fee": s(self.entry_fee), "entries": self.entries,
            "fees_paid": self.fees_paid, "fees_collected": s(self.fees_collected), "balance": s(self.balance),
            "unpaid": self.unpaid,
            "text": {"total_paid": self.total_paid_text, "fees_collected": self.fees_collected_text,
                     "balance": self.balance_text},
        }


def payout_from_awards(tournament: Tournament, awards: Sequence[Award]) -> Payout:
    """The payout sheet of ``awards`` with the entry fees recorded now."""
    lines: list[PayoutLine] = []
    for award in awards:
        if not award.winners:
            lines.append(PayoutLine(award.title, "not awarded", None, award.note))
        for w in award.winners:
            lines.append(PayoutLine(award.title, w.name, w.amount, award.note if award.split else ""))
    total = sum((ln.amount for ln in lines if ln.amount is not None), Decimal("0.00"))
    entries = list(Entry.objects.filter(tournament=tournament).select_related("pair__player_1", "pair__player_2")
                   .order_by("seed", "id"))
    fee = tournament.entry_fee
    paid = [e for e in entries if e.fee_paid]
    collected = (fee * len(paid)).quantize(CENT) if fee is not None else Decimal("0.00")
    unpaid = [e.pair.display_name for e in entries if not e.fee_paid and not e.withdrawn] if fee else []
    return Payout(currency=tournament.currency, lines=lines, total_paid=total.quantize(CENT), entry_fee=fee,
                  entries=len(entries), fees_paid=len(paid), fees_collected=collected,
                  balance=(collected - total).quantize(CENT), unpaid=unpaid)


def payout_sheet(tournament: Tournament, awards: Sequence[Award] | None = None) -> Payout:
    """The payout sheet: every winner's amount, the total paid out, the fees collected and the balance."""
    return payout_from_awards(tournament, prizes_award(tournament) if awards is None else awards)


__all__ = [
    "Award", "Payout", "PayoutLine", "Winner", "award_from_dict", "event_prizes", "money", "ordinal",
    "payout_from_awards", "payout_sheet", "prize_title", "prizes_award",
]
