"""Pairing rounds: the thin adapter between the stored tournament and the pure ``tournaments.pairing``.

Like Tabbycat's ``draw/manager.py``: rows become ``Entrant``/``History`` values, the pure core drafts the
round, and the draft is stored through ``rounds.round_seat_boards`` / ``round_seat_team_matches``.

* ``round_start(tournament=, number=None, user=)``: the organiser starts the next round. It is created
  ``pending`` with the standings snapshot it is paired from (confirmed games only, recomputed now) and a
  ``round_pair`` task goes through the outbox. When the broker cannot be reached (or inside a caller's
  transaction) the pairing runs here, in-process: it takes well under a second (docs/decisions.md).
* ``round_pair(round_id=)``: what the task calls. Swiss, round robin or knockout, of pairs or of club
  teams, from the round's snapshot and the boards of earlier rounds; stores the boards with their
  explanations and the rematch outlook and leaves the round ``drafted``. A round no longer pending is
  left alone, so the task may run twice.
* While drafted: ``round_draft_swap`` (two pairs, or two clubs in a club-team event),
  ``round_draft_swap_tables`` and ``team_lineup_set``; each change is recorded in ``round.changes``
  with warnings for rematches and same-club boards, and in the audit trail.

Every pairing of a tournament locks the tournament row first, so two pairings (or a pairing and a
standings recomputation) of one tournament never run at once. Lock order: tournament, round, boards.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.formats import ClubAvoidance, FormatError
from tournaments.models import (
    Board,
    BoardPair,
    Club,
    Entry,
    Game,
    OutboxMessage,
    Round,
    StandingsSnapshot,
    TeamMatch,
    Tournament,
)
from tournaments.pairing import (
    EXACT_LIMIT,
    DraftBoard,
    DraftBye,
    DraftRound,
    Entrant,
    History,
    LookAhead,
    LookAheadStatus,
    Outlook,
    PairingError,
    PairingWarning,
    PastBoard,
    PastBye,
    SwissConfig,
    check_lineup,
    pair_swiss,
    rematch_outlook,
    review_round,
    round_floats,
    round_robin_replan,
    round_robin_rounds,
    swiss_lookahead,
)
from tournaments.selectors.availability import requested_byes, round_field

from ._common import actor, require_organiser
from .audit import audit_record
from .boards import team_format
from .errors import Conflict, DomainError, NotFound, ValidationFailed
from .knockout import knockout_round, knockout_rounds, qualifier_order
from .outbox import outbox_enqueue
from .rounds import round_create, round_seat_boards, round_seat_team_matches, team_match_layout
from .standings import tournament_standings_recompute

logger = logging.getLogger(__name__)

PAIR_TASK = "tournaments.tasks.round_pair"
DRAFTED = Round.Status.DRAFTED
#: Warnings an organiser's change is checked for (docs/decisions.md: rematches and same-club boards).
CHANGE_WARNINGS = ("rematch", "same_club", "repeat_bye", "self_board")


# ---- the field as the pure core sees it --------------------------------------------------------------
@dataclass
class _Field:
    """A tournament's active entrants before a round: pairs (entry ids) or clubs (club ids)."""

    club_teams: bool
    ranked: list[Entrant]
    by_seed: list[int]
    history: History
    entries: dict[int, Entry] = field(default_factory=dict)
    clubs: dict[int, Club] = field(default_factory=dict)
    #: Entries with a requested bye this round (each gets a bye board; not in ``ranked``).
    byes: list[int] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [e.id for e in self.ranked]


def _active_entries(tournament: Tournament, number: int | None = None) -> list[Entry]:
    """The entries not withdrawn; with ``number``, only those playing from that round on (a late entry joins
    from ``Entry.joins_from``)."""
    qs = Entry.objects.filter(tournament=tournament, withdrawn=False)
    if number is not None:
        qs = qs.filter(Q(joins_from__isnull=True) | Q(joins_from__lte=number))
    return list(qs.select_related("pair", "pair__club").order_by(F("seed").asc(nulls_last=True), "id"))


def _follows_check_in(tournament: Tournament) -> bool:
    """The Swiss draft of pairs is drawn from check-in (docs/decisions.md, "Availability"). A round robin's
    schedule and a knockout's bracket are fixed, and a club fields a team: their absences are forfeits
    and substitutes (issue 13)."""
    return tournament.pairing_system == Tournament.PairingSystem.SWISS and not tournament.is_club_teams


def _drawn(tournament: Tournament, number: int, entries: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
    """The entries paired in round ``number`` (present; absent and not checked in are left out) and those
    with a requested bye; every entry, and no bye, where the draft does not follow check-in."""
    if not _follows_check_in(tournament):
        return list(entries), []
    field_ = round_field(tournament, number)
    present, byes = set(field_.present), set(field_.byes)
    return [e for e in entries if e.pk in present], [e for e in entries if e.pk in byes]


def _club_order(entries: Sequence[Entry]) -> list[int]:
    """Clubs in the order of their best-seeded pair."""
    order: list[int] = []
    for entry in entries:
        club = entry.pair.club_id
        if club is not None and club not in order:
            order.append(club)
    return order


def _ranked(ids_by_seed: Sequence[int], rows: Sequence[Any], key: str, club_of: dict[int, int | None]) -> list[Entrant]:
    """Entrants in the snapshot's order (best first), then any the snapshot does not know, by seed."""
    active = set(ids_by_seed)
    out: list[Entrant] = []
    seen: set[int] = set()
    for row in rows:
        who = row.get(key) if isinstance(row, dict) else None
        if who in active and who not in seen:
            seen.add(who)
            out.append(Entrant(id=who, club_id=club_of.get(who), points=int(row.get("match_points") or 0),
                               record=str(row.get("record") or "")))
    out.extend(Entrant(id=who, club_id=club_of.get(who)) for who in ids_by_seed if who not in seen)
    return out


def _history(tournament: Tournament, before: int, *, clubs: bool) -> History:
    """Who met whom before round ``before``. In a Swiss a forfeit is not a meeting (the pairs may still be
    drawn together), a late entry counts as having had the bye of the rounds it missed (no bye in its first
    round unless ``late_entry_bye``), and the floats of the latest round feed the float rule."""
    boards: list[PastBoard] = []
    byes: list[PastBye] = []
    swiss = tournament.pairing_system == Tournament.PairingSystem.SWISS
    if clubs:
        rows = TeamMatch.objects.filter(round__tournament=tournament, round__number__lt=before).values_list(
            "round__number", "club_a_id", "club_b_id")
    else:
        query = Board.objects.filter(round__tournament=tournament, round__number__lt=before)
        if swiss:
            query = query.filter(forfeited__isnull=True)
        rows = query.values_list("round__number", "pair_a_id", "pair_b_id")
    requested = set() if clubs else requested_byes(tournament, before=before)
    for rnd, a, b in rows:
        if b is None:
            if (rnd, a) not in requested:  # a requested bye is not the draft's bye: it leaves the bye count alone
                byes.append(PastBye(rnd, a))
        else:
            boards.append(PastBoard(rnd, a, b))
    if swiss and not clubs and not tournament.late_entry_bye:
        late = Entry.objects.filter(tournament=tournament, joins_from__gt=1, joins_from__lte=before)
        byes.extend(PastBye(joins - 1, entry) for entry, joins in late.values_list("pk", "joins_from"))
    floats = _latest_floats(tournament, before) if swiss and not clubs else ()
    return History(boards=tuple(boards), byes=tuple(byes), floats=floats)


def _latest_floats(tournament: Tournament, before: int) -> tuple[Any, ...]:
    """The floats of round ``before - 1`` (the float rule looks at the latest round only), from its boards and
    the standings it was paired on."""
    last = Round.objects.filter(tournament=tournament, number=before - 1).select_related("paired_from").first()
    if last is None or last.paired_from is None:
        return ()
    entrants = [Entrant(id=row["entry_id"], points=int(row.get("match_points") or 0))
                for row in last.paired_from.rows if isinstance(row, dict) and row.get("entry_id") is not None]
    played = Board.objects.filter(round=last, pair_b__isnull=False, forfeited__isnull=True).values_list(
        "pair_a_id", "pair_b_id")
    return round_floats([PastBoard(last.number, a, b) for a, b in played], entrants)


def _field(tournament: Tournament, round_: Round, snapshot: StandingsSnapshot | None) -> _Field:
    entries = _active_entries(tournament, round_.number)
    club_teams = tournament.is_club_teams
    history = _history(tournament, round_.number, clubs=club_teams)
    if club_teams:
        by_seed = _club_order(entries)
        ranked = _ranked(by_seed, snapshot.clubs if snapshot else [], "club_id", {})
        return _Field(True, ranked, by_seed, history, clubs=Club.objects.in_bulk(by_seed))
    playing, byes = _drawn(tournament, round_.number, entries)
    by_seed = [e.pk for e in playing]
    club_of = {e.pk: e.pair.club_id for e in playing}
    ranked = _ranked(by_seed, snapshot.rows if snapshot else [], "entry_id", club_of)
    # Every entry for the lookups: a knockout bracket still seats a winner that has withdrawn since (its board is
    # a walkover at publishing: field.round_absent_forfeits).
    known = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("pair", "pair__club")}
    return _Field(False, ranked, by_seed, history, entries=known, byes=[e.pk for e in byes])


def _cycles(tournament: Tournament, count: int) -> int:
    per_cycle = round_robin_rounds(list(range(count)))
    return max(1, math.ceil(max(tournament.rounds_planned, 1) / max(per_cycle, 1)))


# ---- drafting ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Plan:
    """What to seat, in order: (side 0, side 1 or None for a bye, explanation); the draft for review; a
    Swiss look-ahead's proposal (``Round.proposal``) when the draft leaves no rematch-free finish."""

    seats: list[tuple[int, int | None, str]]
    draft: DraftRound
    feasibility: str
    note: str
    proposal: dict[str, Any] | None = None


def _pairing_error(exc: PairingError) -> Conflict:
    return Conflict(f"pairing_{exc.code}", f"The round cannot be paired: {exc.message}.")


def _plan(tournament: Tournament, round_: Round, f: _Field) -> _Plan:
    system = tournament.pairing_system
    n = round_.number
    try:
        if system == Tournament.PairingSystem.KNOCKOUT:
            seeded = f.ids
            if n == 1 and tournament.qualifies_from_id:
                qualified = qualifier_order(tournament, clubs=f.club_teams)
                seeded = [i for i in qualified if i in set(f.ids)] + [i for i in f.ids if i not in set(qualified)]
            ko = knockout_round(tournament, round_, seeded, clubs=f.club_teams)
            boards = tuple(DraftBoard(t, a, b, text) for t, (a, b, text) in enumerate(ko.matches, start=1))
            draft = DraftRound(n, boards)
            return _Plan(list(ko.order), draft, Outlook.GUARANTEED.value,
                         "A knockout never pairs two entrants twice.")
        if system == Tournament.PairingSystem.ROUND_ROBIN:
            # Planned from the field present now and the rounds played (docs/pairing.md, "Round robin when the
            # field changes"): the Berger tables while they still hold, else a re-plan of the remaining rounds
            # in which nobody meets twice while a complete schedule exists; its verdict is the outlook.
            cycles = _cycles(tournament, len(f.by_seed))
            last = round_robin_rounds(f.by_seed, cycles=cycles)
            if not 1 <= n <= last:
                raise PairingError("bad_round", f"this round robin has rounds 1 to {last}")
            remaining = max(tournament.rounds_planned - n + 1, 1)
            replan = round_robin_replan(f.by_seed, f.history, remaining, cycles=cycles, next_round=n)
            draft = replan.rounds[0]
            outlook = replan.outlook
            return _Plan(_seats(draft), draft, outlook.status.value, outlook.reason)
        config = SwissConfig(club_avoidance=ClubAvoidance.OFF if f.club_teams else ClubAvoidance.of_level(tournament.club_avoidance))
        remaining = max(tournament.rounds_planned - n, 0)
        if f.club_teams or len(f.ranked) > EXACT_LIMIT or remaining == 0:
            draft = pair_swiss(f.ranked, f.history, round_number=n, config=config)
            look = None
        else:
            look = swiss_lookahead(f.ranked, f.history, n, remaining, config)
            draft = look.best
    except PairingError as exc:
        raise _pairing_error(exc) from exc
    if look is not None and look.outlook is not None:
        status, note = look.outlook.status.value, look.outlook.reason
    else:
        status, note = _outlook(tournament, round_, f, draft)
    return _Plan(_seats(draft, f.byes), draft, status, note, _proposal(look, f.entries))


def _proposal(look: LookAhead | None, entries: dict[int, Entry]) -> dict[str, Any] | None:
    """The look-ahead's proposal as ``Round.proposal`` stores it (None when there is nothing to propose);
    a message alone when no draft keeps a rematch-free finish. Pairs are named, not numbered."""
    if look is None or look.status is LookAheadStatus.NOT_NEEDED or not look.message:
        return None
    message = look.message
    if look.proposal is not None and look.proposal.bye and look.best.bye:
        ids = (look.proposal.bye.entrant, look.best.bye.entrant)
        names = [str(entries[i].pair) if i in entries else str(i) for i in ids]
        message = message.replace(f"gives the bye to {ids[0]} instead of {ids[1]}",
                                  f"gives the bye to {names[0]} instead of {names[1]}")
    out: dict[str, Any] = {"status": look.status.value, "message": message}
    if look.proposal is not None:
        draft = look.proposal
        out["boards"] = [[b.side0, b.side1, b.explanation] for b in sorted(draft.boards, key=lambda b: b.table)]
        out["bye"] = [draft.bye.entrant, draft.bye.explanation] if draft.bye else None
        extra = look.extra
        out["extra"] = {name: getattr(extra, name) for name in extra.__dataclass_fields__} if extra else {}
        if look.proposal_outlook is not None:
            out["outlook"] = [look.proposal_outlook.status.value, look.proposal_outlook.reason]
    return out


def _seats(draft: DraftRound, requested: Sequence[int] = ()) -> list[tuple[int, int | None, str]]:
    """The boards in table order, then the draft's bye, then one bye board per requested bye."""
    seats: list[tuple[int, int | None, str]] = [(b.side0, b.side1, b.explanation) for b in sorted(draft.boards, key=lambda b: b.table)]
    if draft.bye is not None:
        seats.append((draft.bye.entrant, None, draft.bye.explanation))
    seats.extend((entry, None, "requested a bye") for entry in requested)
    return seats


def _outlook(tournament: Tournament, round_: Round, f: _Field, draft: DraftRound) -> tuple[str, str]:
    """The rematch outlook of the rounds after this draft (Swiss): status and reason."""
    remaining = max(tournament.rounds_planned - round_.number, 0)
    boards, byes = draft.as_past()
    outlook = rematch_outlook(f.ids, f.history.extended(boards, byes), remaining)
    return outlook.status.value, outlook.reason


def _seat_plan(round_: Round, f: _Field, plan: _Plan) -> None:
    explanations = [text for _, _, text in plan.seats]
    if f.club_teams:
        matches = [(f.clubs[a], f.clubs[b] if b is not None else None) for a, b, _ in plan.seats]
        round_seat_team_matches(round=round_, matches=matches, explanations=explanations)
    else:
        pairings = [(f.entries[a], f.entries[b] if b is not None else None) for a, b, _ in plan.seats]
        round_seat_boards(round=round_, pairings=pairings, explanations=explanations)


def _lock_round(round_id: int) -> tuple[Tournament, Round]:
    """Lock the round's tournament, then the round (the pairing lock order)."""
    tournament_id = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise NotFound("round_not_found", "No such round.")
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    return tournament, round_


@transaction.atomic
def round_pair(*, round_id: int | None = None, round: Round | None = None, user: Actor = None) -> Round:  # noqa: A002
    """Pair a pending round and leave it drafted (what the ``round_pair`` task calls).

    Reads only the round's standings snapshot (confirmed games) and the boards of earlier rounds.
    Idempotent: a round that is no longer pending is returned as it is. ``round`` may be given instead of
    ``round_id``; ``user`` (when given) must be an organiser. Refusals: 404 ``round_not_found``; 409
    ``pairing_<code>`` (the pure core's refusal), ``match_undecided``, ``knockout_complete``; 400
    ``lineup_invalid`` (a club short of pairs).
    """
    if round_id is None:
        if round is None:
            raise ValidationFailed("round_required", "Name the round to pair.", fields={"round_id": "required"})
        round_id = round.pk
    tournament, round_ = _lock_round(round_id)
    if user is not None:
        require_organiser(user, tournament.pk)
    if round_.status != Round.Status.PENDING:
        return round_
    snapshot = round_.paired_from
    if snapshot is None:
        tournament_standings_recompute(tournament_id=tournament.pk)
        snapshot = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
        round_.paired_from = snapshot
    f = _field(tournament, round_, snapshot)
    if len(f.ranked) < 2:
        raise Conflict("field_too_small", "A round needs at least two entrants.")
    plan = _plan(tournament, round_, f)
    _seat_plan(round_, f, plan)
    round_.status = DRAFTED
    round_.feasibility, round_.feasibility_note = plan.feasibility[:20], plan.note
    round_.proposal = plan.proposal
    round_.save(update_fields=["status", "paired_from", "feasibility", "feasibility_note", "proposal"])
    audit_record(action="round.pair", obj=round_, tournament_id=tournament.pk, user=actor(user), after={
        "system": tournament.pairing_system, "entrant_type": tournament.entrant_type,
        "paired_from": snapshot.pk if snapshot else None, "feasibility": plan.feasibility,
        "warnings": [_warning(w) for w in plan.draft.warnings], "notes": list(plan.draft.notes),
    })
    return round_


def _warning(w: PairingWarning) -> dict[str, Any]:
    return {"code": w.code, "message": w.message, "entrants": list(w.entrants)}


# ---- starting a round ------------------------------------------------------------------------------
def _check_startable(tournament: Tournament, number: int, f_size: int, entries: Sequence[Entry]) -> None:
    """Refusals known before anything is created (so a failed start leaves nothing behind)."""
    if f_size < 2:
        raise Conflict("field_too_small", "A round needs at least two entrants.")
    system = tournament.pairing_system
    if system == Tournament.PairingSystem.ROUND_ROBIN:
        cycles = _cycles(tournament, f_size)
        last = round_robin_rounds(list(range(f_size)), cycles=cycles)
        if number > last:
            raise Conflict("round_robin_complete", f"The round robin has {last} rounds: every fixture is played.")
    if system == Tournament.PairingSystem.KNOCKOUT:
        first_size = f_size
        if number > 1:
            first_size = 2 * Board.objects.filter(round__tournament=tournament, round__number=1).count()
            if tournament.is_club_teams:
                first_size = 2 * TeamMatch.objects.filter(round__tournament=tournament, round__number=1).count()
        if number > knockout_rounds(first_size):
            raise Conflict("knockout_complete", "The knockout is over: its final has been played.")
    if tournament.is_club_teams:
        k = _team_boards(tournament)
        counts: dict[int | None, int] = {}
        for e in entries:
            counts[e.pair.club_id] = counts.get(e.pair.club_id, 0) + 1
        short = [name for club, name in ((e.pair.club_id, e.club_label)
                                         for e in entries) if club is not None and counts[club] < k]
        if short:
            raise ValidationFailed("lineup_invalid", f"{short[0]} has fewer than the {k} pairs a team match needs.",
                                   fields={"team_format.boards": f"every club needs {k} pairs"})


def _team_boards(tournament: Tournament) -> int:
    """K, the boards of a team match (400 ``team_format_invalid`` when the stored format is not one)."""
    try:
        fmt = tournament.team_format_value()
    except FormatError as exc:
        raise ValidationFailed("team_format_invalid", exc.message, fields={exc.path: exc.message}) from exc
    return fmt.boards if fmt is not None else 1


@transaction.atomic
def _round_start_locked(*, tournament: Tournament, number: int | None, user: Actor) -> tuple[Round, int]:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "The event is finished: reopen it to play another round.")
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    pending = [r for r in rounds if r.status == Round.Status.PENDING]
    drafted = [r for r in rounds if r.status == DRAFTED]
    open_ = [r for r in rounds if r.status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY)]
    if drafted:
        raise Conflict("round_drafted", f"Round {drafted[0].number} is drafted: publish it before starting another.")
    if open_:
        raise Conflict("previous_round_open", f"Round {open_[0].number} is still open: close it first.")
    entries = _active_entries(tournament)
    club_teams = tournament.is_club_teams

    def size(number: int) -> int:
        if club_teams:
            return len(_club_order(entries))
        joined = [e for e in entries if not e.joins_from or e.joins_from <= number]
        drawn, _ = _drawn(tournament, number, joined)
        if len(drawn) < 2 <= len(entries):
            raise Conflict("field_too_small", f"Round {number} has {len(drawn)} of {len(entries)} pairs present: "
                           "a round needs at least two (check pairs in first).")
        return len(drawn)

    tournament_standings_recompute(tournament_id=tournament.pk)
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
    if pending:  # an earlier start whose pairing failed or has not run: pair that round again
        round_ = pending[0]
        if number is not None and number != round_.number:
            raise Conflict("round_pending", f"Round {round_.number} is waiting to be paired.")
        _check_startable(tournament, round_.number, size(round_.number), entries)
        round_.paired_from, round_.feasibility_note = snapshot, ""
        round_.save(update_fields=["paired_from", "feasibility_note"])
    else:
        expected = rounds[-1].number + 1 if rounds else 1
        next_number = number if number is not None else expected
        if next_number > expected:
            raise Conflict("round_skips", f"Round {next_number} cannot start yet: round {expected} comes next.")
        if (next_number >= expected and tournament.pairing_system == Tournament.PairingSystem.SWISS
                and next_number > tournament.rounds_planned):
            raise Conflict("rounds_planned_reached",
                           f"{_planned_words(tournament.rounds_planned)} To play another, raise the rounds "
                           "planned in the event's settings first.")
        _check_startable(tournament, next_number, size(next_number), entries)
        round_ = round_create(tournament=tournament, number=next_number)
        round_.paired_from = snapshot
        round_.save(update_fields=["paired_from"])
    message = outbox_enqueue(PAIR_TASK, [round_.pk], coalesce_key=f"pair:{round_.pk}")
    audit_record(action="round.start", obj=round_, tournament_id=tournament.pk, user=actor(user),
                 after={"number": round_.number, "paired_from": snapshot.pk if snapshot else None})
    return round_, message.pk


def _planned_words(planned: int) -> str:
    return "The one planned round is played." if planned == 1 else f"All {planned} planned rounds are played."


def round_start(*, tournament: Tournament, number: int | None = None, user: Actor) -> Round:
    """Start the next round: create it pending from the current standings and have it paired.

    The round records the snapshot it is paired from (recomputed now, confirmed games only); a
    ``round_pair`` task goes through the outbox. When the broker cannot be reached the pairing runs here
    instead (well under a second), and inside a caller's transaction it runs here at once (a worker
    could not see the uncommitted round); either way the task finds the round drafted and does nothing.
    Returns the round as it stands: drafted when paired here, pending while a worker pairs it.

    Refusals: 403 ``not_organiser`` (``user`` None is the system itself); 409 ``round_drafted``,
    ``previous_round_open``, ``round_pending``, ``round_exists``, ``field_too_small``,
    ``round_robin_complete``, ``knockout_complete`` and the pairing's own (``round_pair``); 400
    ``lineup_invalid``.
    """
    if user is not None:
        require_organiser(user, tournament.pk)
    round_, message_id = _round_start_locked(tournament=tournament, number=number, user=user)
    if connection.in_atomic_block:
        round_pair(round_id=round_.pk)  # the caller's transaction: the task would not see the round yet
        return Round.objects.get(pk=round_.pk)
    sent = OutboxMessage.objects.filter(pk=message_id, sent_at__isnull=False).exists()
    fresh = Round.objects.get(pk=round_.pk)
    if not sent:  # the broker cannot be reached: pair here and now
        try:
            fresh = round_pair(round_id=round_.pk)
        except DomainError as exc:
            round_pair_failed(round_id=round_.pk, error=exc)
            raise
        OutboxMessage.objects.filter(pk=message_id, sent_at__isnull=True).update(
            sent_at=timezone.now(), last_error="paired in-process: the broker could not be reached")
    elif fresh.status == Round.Status.PENDING and _eager():
        failure = fresh.feasibility_note
        if failure.startswith(FAILED_PREFIX):  # the eager task refused: tell the organiser now
            raise Conflict("pairing_failed", failure)
    return fresh


FAILED_PREFIX = "Pairing failed: "


def _eager() -> bool:
    from config.celery import app

    return bool(app.conf.task_always_eager)


def round_pair_failed(*, round_id: int, error: DomainError) -> None:
    """Record on a pending round why its pairing was refused (shown to the organiser; retried by
    starting the round again)."""
    Round.objects.filter(pk=round_id, status=Round.Status.PENDING).update(
        feasibility="", feasibility_note=f"{FAILED_PREFIX}{error.message}"[:2000])


# ---- organiser adjustments while drafted ---------------------------------------------------------
def _lock_drafted(round_: Round, user: Actor, *, statuses: Sequence[str] = (DRAFTED,)) -> tuple[Tournament, Round]:
    tournament, locked = _lock_round(round_.pk)
    require_organiser(user, tournament.pk)
    if locked.status not in statuses:
        raise Conflict("round_not_draft", f"Round {locked.number} is {locked.status}: only a drafted round is adjusted.")
    return tournament, locked


def _draft_of_boards(round_: Round, boards: Sequence[Board]) -> DraftRound:
    tables = [b for b in boards if b.pair_b_id is not None]
    byes = [b for b in boards if b.pair_b_id is None]
    return DraftRound(
        round_.number,
        tuple(DraftBoard(b.table or 0, b.pair_a_id, b.pair_b_id or 0, b.explanation) for b in sorted(tables, key=lambda b: b.table or 0)),
        DraftBye(byes[0].pair_a_id, byes[0].explanation) if len(byes) == 1 else None,
    )


def _draft_of_matches(round_: Round, matches: Sequence[TeamMatch]) -> DraftRound:
    real = [m for m in matches if m.club_b_id is not None]
    byes = [m for m in matches if m.club_b_id is None]
    return DraftRound(
        round_.number,
        tuple(DraftBoard(i, m.club_a_id, m.club_b_id or 0, m.explanation) for i, m in enumerate(real, start=1)),
        DraftBye(byes[0].club_a_id, byes[0].explanation) if len(byes) == 1 else None,
    )


def _touching(warnings: Sequence[PairingWarning], who: set[int]) -> list[dict[str, Any]]:
    return [_warning(w) for w in warnings if w.code in CHANGE_WARNINGS and (not who or set(w.entrants) & who)]


def _record_change(round_: Round, tournament: Tournament, user: Actor, change: dict[str, Any]) -> dict[str, Any]:
    entry = {"n": len(round_.changes or []) + 1, "at": timezone.now().isoformat(), "user": getattr(actor(user), "pk", None),
             **change}
    round_.changes = [*(round_.changes or []), entry]
    round_.save(update_fields=["changes", "feasibility", "feasibility_note"])
    audit_record(action=f"round.{change['kind']}", obj=round_, tournament_id=tournament.pk, user=actor(user),
                 after=entry)
    return entry


def _explain(a: Entrant | None, b: Entrant | None, ids: tuple[int, int], history: History, what: str) -> str:
    la = a.label if a else str(ids[0])
    lb = b.label if b else str(ids[1])
    rounds = history.rounds_met(*ids)
    met = f"rematch (met in round {', '.join(map(str, rounds))})" if rounds else "not met before"
    text = f"{la} v {lb}, {what}; {met}"
    if a and b and a.club_id is not None and a.club_id == b.club_id:
        text += "; same club"
    return text[:300]


def _refresh_outlook(tournament: Tournament, round_: Round, f: _Field, draft: DraftRound) -> None:
    if tournament.pairing_system == Tournament.PairingSystem.SWISS:
        round_.feasibility, round_.feasibility_note = _outlook(tournament, round_, f, draft)


def _entry_id(value: Any) -> int:
    return int(value.pk if hasattr(value, "pk") else value)


@transaction.atomic
def round_draft_swap(*, round: Round, entry_a: Entry | Club | int, entry_b: Entry | Club | int,  # noqa: A002
                     user: Actor) -> Round:
    """Exchange two pairs wherever they sit in a drafted round (a board, a side or the bye); in a
    club-team event exchange two clubs between team matches (``Club`` instances), or two pairs of one
    club in its line-up. Recorded in ``round.changes`` with the warnings it leads to (rematches,
    same-club boards, a repeated bye); the rematch outlook is computed again.

    Refusals: 403 ``not_organiser``; 409 ``round_not_draft``; 400 ``not_in_round``,
    ``swap_across_clubs``.
    """
    tournament, round_ = _lock_drafted(round, user)
    club_teams = tournament.is_club_teams
    f = _field(tournament, round_, round_.paired_from)
    if club_teams and isinstance(entry_a, Club) and isinstance(entry_b, Club):
        return _swap_clubs(tournament, round_, f, entry_a.pk, entry_b.pk, user)
    a, b = _entry_id(entry_a), _entry_id(entry_b)
    if club_teams:
        return _swap_in_lineup(tournament, round_, a, b, user)
    boards = list(Board.objects.select_for_update().filter(round=round_).order_by("id"))
    placed = {e for board in boards for e in (board.pair_a_id, board.pair_b_id) if e is not None}
    for who in (a, b):
        if who not in placed:
            raise ValidationFailed("not_in_round", f"Entry {who} is not in round {round_.number}.",
                                   fields={"entries": "two entries of this round"})
    if a == b:
        return round_
    known = {e.id: e for e in f.ranked}
    what = f"set by the organiser (swapped {a} and {b})"

    def other(x: int | None) -> int | None:
        return b if x == a else a if x == b else x

    changed: list[Board] = []
    for board in boards:
        new_a, new_b = other(board.pair_a_id), other(board.pair_b_id)
        if (new_a, new_b) == (board.pair_a_id, board.pair_b_id):
            continue
        board.pair_a_id, board.pair_b_id = new_a, new_b  # type: ignore[assignment]
        if new_b is None:
            board.explanation = what
        else:
            assert new_a is not None
            board.explanation = _explain(known.get(new_a), known.get(new_b), (new_a, new_b), f.history, what)
        changed.append(board)
    _reseat(round_, changed)
    draft = _draft_of_boards(round_, boards)
    warnings = review_round(draft, f.ranked, f.history)
    _refresh_outlook(tournament, round_, f, draft)
    _record_change(round_, tournament, user, {
        "kind": "swap_entries", "entries": [a, b], "what": f"swapped {a} and {b}",
        "warnings": _touching(warnings, {e for board in changed for e in (board.pair_a_id, board.pair_b_id) if e}),
    })
    return round_


def _reseat(round_: Round, boards: Sequence[Board]) -> None:
    """Store new pairs on ``boards`` and their ``BoardPair`` rows (deleted first: one board per pair)."""
    if not boards:
        return
    BoardPair.objects.filter(board__in=boards).delete()
    for board in boards:
        board.save(update_fields=["pair_a", "pair_b", "explanation", "updated_at"])
    rows = [BoardPair(board=board, round=round_, entry_id=board.pair_a_id, side=0) for board in boards]
    rows += [BoardPair(board=board, round=round_, entry_id=board.pair_b_id, side=1) for board in boards
             if board.pair_b_id is not None]
    BoardPair.objects.bulk_create(rows)


def _swap_clubs(tournament: Tournament, round_: Round, f: _Field, a: int, b: int, user: Actor) -> Round:
    matches = list(TeamMatch.objects.select_for_update().filter(round=round_).order_by("id"))
    placed = {c for m in matches for c in (m.club_a_id, m.club_b_id) if c is not None}
    for who in (a, b):
        if who not in placed:
            raise ValidationFailed("not_in_round", f"Club {who} is not in round {round_.number}.",
                                   fields={"clubs": "two clubs of this round"})
    if a == b:
        return round_
    if Game.objects.filter(board__round=round_).exists():
        raise Conflict("round_started", "Play has started on this round's boards.")
    lineups: dict[int, list[int]] = {}
    for m in matches:
        lineups[m.club_a_id] = list(m.lineup_a)
        if m.club_b_id is not None:
            lineups[m.club_b_id] = list(m.lineup_b)
    known = {e.id: e for e in f.ranked}
    what = f"set by the organiser (swapped clubs {a} and {b})"

    def other(x: int | None) -> int | None:
        return b if x == a else a if x == b else x

    plan: list[tuple[int, int | None, str]] = []
    for m in matches:
        ca, cb = other(m.club_a_id), other(m.club_b_id)
        text = m.explanation
        if (ca, cb) != (m.club_a_id, m.club_b_id):
            assert ca is not None
            text = what if cb is None else _explain(known.get(ca), known.get(cb), (ca, cb), f.history, what)
        plan.append((ca, cb, text))  # type: ignore[arg-type]
    TeamMatch.objects.filter(round=round_).delete()  # drafted, no games: seat the matches again
    entries = Entry.objects.in_bulk([e for ids in lineups.values() for e in ids])
    round_seat_team_matches(
        round=round_, matches=[(f.clubs[ca], f.clubs[cb] if cb is not None else None) for ca, cb, _ in plan],
        lineups={club: [entries[e] for e in ids] for club, ids in lineups.items() if ids},
        explanations=[text for _, _, text in plan],
    )
    draft = _draft_of_matches(round_, list(TeamMatch.objects.filter(round=round_).order_by("id")))
    warnings = review_round(draft, f.ranked, f.history)
    _refresh_outlook(tournament, round_, f, draft)
    _record_change(round_, tournament, user, {
        "kind": "swap_clubs", "clubs": [a, b], "what": f"swapped clubs {a} and {b}",
        "warnings": _touching(warnings, {a, b} | {c for ca, cb, _ in plan if a in (ca, cb) or b in (ca, cb)
                                                   for c in (ca, cb) if c is not None}),
    })
    return round_


def _swap_in_lineup(tournament: Tournament, round_: Round, a: int, b: int, user: Actor) -> Round:
    pairs = dict(Entry.objects.filter(pk__in=[a, b], tournament=tournament).values_list("pk", "pair__club_id"))
    if len(pairs) != 2 or pairs[a] != pairs[b] or pairs[a] is None:
        raise ValidationFailed("swap_across_clubs",
                               "In a club-team event swap two clubs, or two pairs of one club in its line-up.",
                               fields={"entries": "two pairs of one club"})
    club = Club.objects.get(pk=pairs[a])
    match = TeamMatch.objects.filter(Q(club_a_id=club.pk) | Q(club_b_id=club.pk), round=round_).first()
    if match is None:
        raise ValidationFailed("not_in_round", f"{club.name} has no team match in round {round_.number}.",
                               fields={"entries": "pairs of a club in this round"})
    lineup = list(match.lineup_a if match.club_a_id == club.pk else match.lineup_b)
    if a not in lineup and b not in lineup:
        raise ValidationFailed("not_in_round", "Neither pair is in the club's line-up.", fields={"entries": "a pair of the line-up"})
    swapped = [b if e == a else a if e == b else e for e in lineup]
    _lineup_apply(tournament, round_, match, club, swapped, user)
    return Round.objects.get(pk=round_.pk)


@transaction.atomic
def round_draft_swap_tables(*, round: Round, table_a: int, table_b: int, user: Actor) -> Round:  # noqa: A002
    """Exchange the table numbers of two boards of a drafted round (tablets stay on their tables, so the
    boards move). Recorded in ``round.changes`` with the warnings standing at those two tables.

    Refusals: 403 ``not_organiser``; 409 ``round_not_draft``; 400 ``no_such_table``.
    """
    tournament, round_ = _lock_drafted(round, user)
    boards = {b.table: b for b in Board.objects.select_for_update().filter(round=round_, table__in=[table_a, table_b])}
    for t in (table_a, table_b):
        if t not in boards:
            raise ValidationFailed("no_such_table", f"Round {round_.number} has no table {t}.",
                                   fields={"tables": "two tables of this round"})
    if table_a != table_b:
        first, second = boards[table_a], boards[table_b]
        Board.objects.filter(pk=first.pk).update(table=None)
        Board.objects.filter(pk=second.pk).update(table=table_a, updated_at=timezone.now())
        Board.objects.filter(pk=first.pk).update(table=table_b, updated_at=timezone.now())
    f = _field(tournament, round_, round_.paired_from)
    moved = {e for board in boards.values() for e in (board.pair_a_id, board.pair_b_id) if e is not None}
    if f.club_teams:
        known = {e.pk: e for e in Entry.objects.filter(pk__in=moved).select_related("pair")}
        entrants = [Entrant(e, known[e].pair.club_id) for e in moved]
        pair_history = _history(tournament, round_.number, clubs=False)
        now_at = {table_a: table_b, table_b: table_a}
        draft = DraftRound(round_.number, tuple(DraftBoard(now_at[t], b.pair_a_id, b.pair_b_id or 0, "")
                                                 for t, b in boards.items() if b.pair_b_id is not None))
        warnings = [w for w in review_round(draft, entrants, pair_history) if w.code in ("rematch", "same_club")]
    else:
        all_boards = list(Board.objects.filter(round=round_))
        draft = _draft_of_boards(round_, all_boards)
        warnings = list(review_round(draft, f.ranked, f.history))
    _record_change(round_, tournament, user, {
        "kind": "swap_tables", "tables": [table_a, table_b], "what": f"swapped tables {table_a} and {table_b}",
        "warnings": _touching(warnings, moved),
    })
    return round_


@transaction.atomic
def round_draft_adopt_proposal(*, round: Round, user: Actor) -> Round:  # noqa: A002
    """Seat the Swiss look-ahead's proposal (``Round.proposal``) in place of the drafted boards: the draft
    that keeps a rematch-free finish, at the cost the console showed. Requested byes stay. Recorded in
    ``round.changes``. 409 ``round_not_draft``, ``no_proposal``."""
    tournament, round_ = _lock_drafted(round, user)
    proposal = round_.proposal or {}
    if not proposal.get("boards"):
        raise Conflict("no_proposal", f"Round {round_.number} has no proposed draft.")
    f = _field(tournament, round_, round_.paired_from)
    requested = set(f.byes)
    seats: list[tuple[int, int | None, str]] = [(a, b, text) for a, b, text in proposal["boards"]]
    if proposal.get("bye"):
        seats.append((proposal["bye"][0], None, proposal["bye"][1]))
    placed = [e for a, b, _ in seats for e in (a, b) if e is not None]
    if set(placed) != set(f.ids) or len(placed) != len(set(placed)):
        raise Conflict("proposal_stale", "The field changed since the proposal was drafted: start the round's "
                       "draft again or adjust it by hand.")
    Board.objects.filter(round=round_).exclude(pair_b__isnull=True, pair_a_id__in=requested).delete()
    pairings = [(f.entries[a], f.entries[b] if b is not None else None) for a, b, _ in seats]
    round_seat_boards(round=round_, pairings=pairings, explanations=[text for _, _, text in seats])
    outlook = proposal.get("outlook") or [round_.feasibility, round_.feasibility_note]
    round_.feasibility, round_.feasibility_note = str(outlook[0])[:20], str(outlook[1])
    round_.proposal = None
    round_.save(update_fields=["proposal"])
    _record_change(round_, tournament, user, {
        "kind": "adopt_proposal", "what": "the look-ahead's proposed draft was seated", "extra": proposal.get("extra", {}),
        "warnings": [],
    })
    return round_


# ---- club team line-ups ------------------------------------------------------------------------------
@transaction.atomic
def team_lineup_set(*, team_match: TeamMatch, club: Club | int, entries: Sequence[Entry | int], user: Actor) -> TeamMatch:
    """Set a club's line-up for a team match: K of its pairs in board order (slot i meets the other
    club's slot i). Allowed while the round is drafted or published and no game has started on the
    match's boards. Without a line-up a club plays its first K pairs by seed.

    Refusals: 403 ``not_organiser``; 409 ``round_not_draft``, ``lineup_fixed``; 400 ``not_in_match``,
    ``lineup_invalid`` (with the pure check's reason).
    """
    round_id = TeamMatch.objects.filter(pk=team_match.pk).values_list("round_id", flat=True).first()
    if round_id is None:
        raise NotFound("team_match_not_found", "No such team match.")
    tournament, round_ = _lock_drafted(Round(pk=round_id), user, statuses=(DRAFTED, Round.Status.PUBLISHED))
    match = TeamMatch.objects.select_for_update().get(pk=team_match.pk)
    club_id = _entry_id(club)
    club_row = Club.objects.filter(pk=club_id).first()
    if club_row is None or club_id not in (match.club_a_id, match.club_b_id):
        raise ValidationFailed("not_in_match", "That club does not play this team match.", fields={"club": "a club of the match"})
    _lineup_apply(tournament, round_, match, club_row, [_entry_id(e) for e in entries], user)
    return TeamMatch.objects.get(pk=match.pk)


def _lineup_apply(tournament: Tournament, round_: Round, match: TeamMatch, club: Club, lineup: list[int], user: Actor) -> None:
    if Game.objects.filter(board__team_match=match).exists():
        raise Conflict("lineup_fixed", "Play has started on this team match: its line-ups are fixed.")
    k = team_format(match).boards
    roster = list(Entry.objects.filter(tournament=tournament, withdrawn=False, pair__club=club)
                  .order_by(F("pair__seed").asc(nulls_last=True), F("seed").asc(nulls_last=True), "id")
                  .values_list("pk", flat=True))
    try:
        checked = list(check_lineup(lineup, roster, k))
    except PairingError as exc:
        raise ValidationFailed("lineup_invalid", f"{club.name}: {exc.message}.", fields={"entries": exc.message}) from exc
    boards = list(Board.objects.select_for_update().filter(team_match=match).order_by("slot", "id"))
    if match.club_a_id == club.pk:
        match.lineup_a = checked
    else:
        match.lineup_b = checked
    match.save(update_fields=["lineup_a", "lineup_b"])
    # Seat the boards again from both line-ups, sides alternating as the pure core lays them out (a bye's
    # pairs sit alone on side 0).
    if match.club_b_id is None:
        layout: list[tuple[int, int | None]] = [(entry, None) for entry in match.lineup_a]
    else:
        layout = [(b.side0, b.side1) for b in team_match_layout(match)]
    BoardPair.objects.filter(board__in=boards).delete()
    rows = []
    for board, (side0, side1) in zip(boards, layout, strict=True):
        board.pair_a_id, board.pair_b_id = side0, side1
        board.save(update_fields=["pair_a", "pair_b", "updated_at"])
        rows.append(BoardPair(board=board, round=round_, entry_id=side0, side=0))
        if side1 is not None:
            rows.append(BoardPair(board=board, round=round_, entry_id=side1, side=1))
    BoardPair.objects.bulk_create(rows)
    history = _history(tournament, round_.number, clubs=False)
    known = {e.pk: e for e in Entry.objects.filter(pk__in=[x for b in boards for x in (b.pair_a_id, b.pair_b_id) if x])
             .select_related("pair")}
    entrants = [Entrant(pk, e.pair.club_id) for pk, e in known.items()]
    real = [b for b in boards if b.pair_b_id is not None]
    draft = DraftRound(round_.number, tuple(DraftBoard(b.table or 0, b.pair_a_id, b.pair_b_id or 0, "") for b in real))
    warnings = [w for w in review_round(draft, entrants, history) if w.code == "rematch"]
    _record_change(round_, tournament, user, {
        "kind": "lineup", "team_match": match.pk, "club": club.pk, "entries": checked,
        "what": f"line-up of {club.name} set", "warnings": _touching(warnings, set(checked)),
    })


__all__ = [
    "PAIR_TASK", "round_draft_adopt_proposal", "round_draft_swap", "round_draft_swap_tables", "round_pair", "round_pair_failed", "round_start",
    "team_lineup_set",
]
