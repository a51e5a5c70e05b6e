"""When the field changes during play: withdrawals, forfeits and no-shows, late entries.

docs/organiser-guide.md, "When the field changes", says it for organisers; docs/decisions.md
("Availability", "Where a result comes from") and docs/adr/0012-result-source.md give the rules.

* ``entry_withdraw(entry=, user=, from_round=None)``: the pair plays no more from ``from_round`` (the round
  in progress, or the next). In each round already drawn from then on, its board is
  - **re-paired** where no hand has been played on it (a drafted round, or a published one before play):
    its opponent takes over a drafted bye if they have not met, else takes the bye; the pair's own bye
    board goes. Only those boards change; the organiser's recorded swaps stand.
  - **forfeited** where play has started: the games played stay, the rest go to the opponent;
  - a **walkover** in a knockout, whatever the state of play;
  - in a club-team event, taken by a **substitute** from the club's roster (a pair not in a line-up this
    round) while no hand is played, else forfeited.
  Every change is written to the round's ``changes`` and the audit trail and the standings recompute.
* ``board_forfeit(board=, absent=, user=)``: a pair that has not come (``"a"``, ``"b"``) or neither
  (``"both"``: two losses), once the event's grace time after publishing has run out (409 ``grace_time``
  before). The games played stay; the forfeit policy scores the rest (``ranking``).
* ``board_forfeit_cancel(board=, user=)``: a forfeit recorded by mistake, while its round is open: the
  games it stopped go back in play.
* ``team_match_forfeit(team_match=, club=, user=)``: a club that cannot field its team: every board of the
  match is forfeited by its side.
* ``entry_enter_late(tournament=, pair=, user=)``: a pair entered once play has begun joins the next round
  not yet drawn; it takes no bye in its first round unless the event says so (``late_entry_bye``). No
  late entries once a knockout's bracket is seated (409 ``bracket_seated``).
* ``round_absent_forfeits(round=, user=)``: at publishing, a round robin's or knockout's boards whose pair
  checked in absent are forfeited at once (there is no one to wait for).

Refusals (docs/services.md): 403 ``not_organiser``; 404; 409 ``entry_withdrawn``, ``tournament_finished``,
``round_not_open``, ``board_is_bye``, ``board_forfeited``, ``not_forfeited``, ``grace_time``,
``dispute_open``, ``bracket_seated``, ``round_closed``; 400 ``absent_invalid``, ``round_invalid``,
``not_in_match``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.models import (
    AuditEvent,
    Availability,
    Board,
    BoardPair,
    Club,
    Entry,
    Game,
    Hand,
    Pair,
    Round,
    TeamMatch,
    Tournament,
)
from tournaments.selectors.clock import venue_zone

from ._common import STANDINGS_TASK, actor, require_organiser
from .audit import audit_record
from .boards import board_after_change
from .confirmations import games_confirm_finished, games_disputed
from .errors import Conflict, NotFound, ValidationFailed
from .events import entry_create
from .outbox import outbox_enqueue
from .publication import public_change

ABSENT_CHOICES = {"a": Board.Forfeit.SIDE_A, "b": Board.Forfeit.SIDE_B, "both": Board.Forfeit.BOTH}
#: Rounds whose boards a withdrawal touches (a pending round is drawn later, without the pair).
DRAWN = (Round.Status.DRAFTED, Round.Status.PUBLISHED, Round.Status.IN_PLAY)


@dataclass
class FieldChange:
    """What a change of the field did, round by round, in sentences for the organiser."""

    entry_id: int | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)

    def add(self, round_number: int, kind: str, text: str, boards: list[int]) -> None:
        self.actions.append({"round": round_number, "kind": kind, "text": text, "boards": boards})

    @property
    def summary(self) -> str:
        return " ".join(a["text"] for a in self.actions) or "No round was drawn with this pair yet."


# ---- helpers -------------------------------------------------------------------------------------------
def _name(entry_id: int | None) -> str:
    if entry_id is None:
        return "nobody"
    entry = Entry.objects.select_related("pair").filter(pk=entry_id).first()
    return str(entry.pair) if entry else f"entry {entry_id}"


def _played(board: Board) -> bool:
    """A hand is recorded on the board (play has started: it is forfeited, not re-paired)."""
    return Hand.objects.filter(game__board=board).exists()


def _met(tournament: Tournament, a: int, b: int, before: int) -> bool:
    """Whether ``a`` and ``b`` met on a board played before round ``before`` (a forfeit is not a meeting)."""
    return Board.objects.filter(round__tournament=tournament, round__number__lt=before, forfeited__isnull=True).filter(
        Q(pair_a_id=a, pair_b_id=b) | Q(pair_a_id=b, pair_b_id=a)).exists()


def _record(round_: Round, user: Actor, change: dict[str, Any]) -> None:
    entry = {"n": len(round_.changes or []) + 1, "at": timezone.now().isoformat(),
             "user": getattr(actor(user), "pk", None), **change}
    round_.changes = [*(round_.changes or []), entry]
    round_.save(update_fields=["changes"])


def _standings_changed(tournament_id: int) -> None:
    outbox_enqueue(STANDINGS_TASK, [tournament_id], coalesce_key=f"standings:{tournament_id}")
    public_change(tournament_id, full=True, standings=True)  # forfeits and withdrawals: pair pages too


def _seat_rows(round_: Round, board: Board) -> None:
    BoardPair.objects.filter(board=board).delete()
    rows = [BoardPair(board=board, round=round_, entry_id=board.pair_a_id, side=0)]
    if board.pair_b_id is not None:
        rows.append(BoardPair(board=board, round=round_, entry_id=board.pair_b_id, side=1))
    BoardPair.objects.bulk_create(rows)


# ---- forfeits ------------------------------------------------------------------------------------------
def _forfeit(board: Board, side: int, user: Actor, reason: str) -> Board:
    """Forfeit a locked ``board`` by ``side`` (0, 1, 2 = both): finished games are confirmed and kept, a game
    in play is voided, the board's result becomes the forfeit's. No checks: the callers make them."""
    games = list(Game.objects.select_for_update().filter(board=board).exclude(status=Game.Status.VOIDED)
                 .order_by("number"))
    if games_disputed(games):
        raise Conflict("dispute_open", "A game on this board is disputed: rule on it first.")
    confirmed = games_confirm_finished(games=games, user=user)
    voided = [g.pk for g in games if g.status == Game.Status.IN_PLAY]
    Game.objects.filter(pk__in=voided).update(status=Game.Status.VOIDED, ended_at=timezone.now())
    board.forfeited, board.result_source = side, Board.Source.FORFEIT
    board.save(update_fields=["forfeited", "result_source", "updated_at"])
    board = Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk)
    board_after_change(board)
    audit_record(action="board.forfeit", obj=board, tournament_id=board.round.tournament_id, user=actor(user),
                 after={"forfeited": side, "reason": reason, "voided_games": voided, "confirmed_games": confirmed})
    return board


def _lock_board(board: Board | int) -> Board:
    pk = board.pk if isinstance(board, Board) else int(board)
    round_id = Board.objects.filter(pk=pk).values_list("round_id", flat=True).first()
    if round_id is None:
        raise NotFound("board_not_found", "No such board.")
    Round.objects.select_for_update(of=("self",)).get(pk=round_id)
    return Board.objects.select_for_update(of=("self",)).select_related("round__tournament", "team_match").get(pk=pk)


def grace_ends(round_: Round) -> Any:
    """When a pair that has not come may be forfeited: the event's grace time after publishing."""
    started = round_.published_at or timezone.now()
    return started + timedelta(minutes=round_.tournament.grace_minutes)


@transaction.atomic
def board_forfeit(*, board: Board | int, absent: str, user: Actor, now: Any = None) -> Board:
    """Forfeit a board of an open round: ``absent`` is ``"a"`` (pair A has not come), ``"b"`` or ``"both"``.

    Before the first hand, only once the grace time has run (``grace_ends``: 409 ``grace_time`` says until
    when); after it (a pair that walks out) at once. The games played stay; the side present is awarded the
    rest of the match (docs/decisions.md, "Where a result comes from")."""
    locked = _lock_board(board)
    round_, tournament = locked.round, locked.round.tournament
    require_organiser(user, tournament.pk)
    if absent not in ABSENT_CHOICES:
        raise ValidationFailed("absent_invalid", "Say who is absent: a, b or both.",
                               fields={"absent": "a, b or both"})
    if round_.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise Conflict("round_not_open", f"Round {round_.number} is {round_.status}: only a round in play has "
                       "forfeits (in a drafted round, withdraw the pair or swap it instead).")
    if locked.is_bye:
        raise Conflict("board_is_bye", "A bye has no opponent to forfeit to.")
    if locked.forfeited is not None:
        raise Conflict("board_forfeited", "This board is already forfeited.")
    if locked.decided:
        raise Conflict("board_decided", "This board's match was decided at the table: its result stands (correct "
                       "its hands if it is wrong).")
    if absent == "both" and round_.tournament.is_knockout:
        raise Conflict("knockout_needs_winner", "A knockout match needs a winner: forfeit the pair that did not "
                       "come, and the other goes through.", fields={"absent": "a or b in a knockout"})
    if not _played(locked):
        ends = grace_ends(round_)
        if (now or timezone.now()) < ends:
            local = timezone.localtime(ends, venue_zone(tournament)).strftime("%H:%M")
            raise Conflict("grace_time", f"The grace time runs until {local} ({tournament.grace_minutes} minutes "
                           "after the round was published): wait for the pair until then.")
    side = ABSENT_CHOICES[absent]
    out = _forfeit(locked, int(side), user, "no-show" if absent != "both" else "neither pair came")
    _record(round_, user, {"kind": "forfeit", "board": locked.pk, "absent": absent,
                           "what": f"table {locked.table}: {_forfeit_words(locked, int(side))}", "warnings": []})
    _standings_changed(tournament.pk)
    return out


def _forfeit_words(board: Board, side: int) -> str:
    if side == Board.Forfeit.BOTH:
        return f"neither {_name(board.pair_a_id)} nor {_name(board.pair_b_id)} played: two losses"
    absent, present = (board.pair_a_id, board.pair_b_id) if side == 0 else (board.pair_b_id, board.pair_a_id)
    return f"{_name(absent)} forfeited to {_name(present)}"


@transaction.atomic
def board_forfeit_cancel(*, board: Board | int, user: Actor) -> Board:
    """Undo a forfeit recorded by mistake while its round is open: the board is played again, the games the
    forfeit stopped are back in play (409 ``not_forfeited``, ``round_closed``)."""
    locked = _lock_board(board)
    round_ = locked.round
    require_organiser(user, round_.tournament_id)
    if locked.forfeited is None:
        raise Conflict("not_forfeited", "This board is not forfeited.")
    if round_.status == Round.Status.CLOSED:
        raise Conflict("round_closed", f"Round {round_.number} is closed: its forfeits stand (reopen it first).")
    if round_.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise Conflict("round_not_open", f"Round {round_.number} is {round_.status}: it is not in play.")
    last = (AuditEvent.objects.filter(action="board.forfeit", object_type="board", object_id=str(locked.pk)).order_by("-id")
            .values_list("after", flat=True).first()) or {}
    stopped = [int(pk) for pk in last.get("voided_games", [])]
    Game.objects.filter(pk__in=stopped, board=locked, status=Game.Status.VOIDED).update(
        status=Game.Status.IN_PLAY, ended_at=None)
    locked.forfeited, locked.result_source = None, Board.Source.HANDS
    locked.save(update_fields=["forfeited", "result_source", "updated_at"])
    board_after_change(locked)
    audit_record(action="board.forfeit_cancel", obj=locked, tournament_id=round_.tournament_id, user=actor(user),
                 after={"restored_games": stopped})
    _record(round_, user, {"kind": "forfeit_cancel", "board": locked.pk,
                           "what": f"table {locked.table}: the forfeit was cancelled", "warnings": []})
    _standings_changed(round_.tournament_id)
    return locked


@transaction.atomic
def team_match_forfeit(*, team_match: TeamMatch | int, club: Club | int, user: Actor, now: Any = None) -> TeamMatch:
    """A club that cannot field its team: each board of the match not yet forfeited goes to the other club."""
    pk = team_match.pk if isinstance(team_match, TeamMatch) else int(team_match)
    match = TeamMatch.objects.select_related("round__tournament").filter(pk=pk).first()
    if match is None:
        raise NotFound("team_match_not_found", "No such team match.")
    club_id = club.pk if isinstance(club, Club) else int(club)
    require_organiser(user, match.round.tournament_id)
    if club_id not in (match.club_a_id, match.club_b_id) or match.club_b_id is None:
        raise ValidationFailed("not_in_match", "That club does not play this team match.", fields={"club": "a club of the match"})
    lineup = set(match.lineup_a if club_id == match.club_a_id else match.lineup_b)
    for board in Board.objects.filter(team_match=match).order_by("slot", "id"):
        if board.forfeited is not None:
            continue
        side = 0 if board.pair_a_id in lineup else 1
        if board.decided:
            continue  # a board decided at the table keeps its result
        board_forfeit(board=board, absent="ab"[side], user=user, now=now)
    return TeamMatch.objects.get(pk=match.pk)


# ---- withdrawals ---------------------------------------------------------------------------------------
def _default_from(tournament: Tournament) -> int:
    """The round in progress (drafted, published or in play), else the next one."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", "status"))
    for number, status in rounds:
        if status in (*DRAWN, Round.Status.PENDING):
            return number
    return rounds[-1][0] + 1 if rounds else 1


@transaction.atomic
def entry_withdraw(*, entry: Entry | int, user: Actor, from_round: int | None = None) -> FieldChange:
    """Withdraw a pair from round ``from_round`` on (default: the round in progress, else the next) and mend
    every round already drawn with it, as the module says. Returns what was done."""
    pk = entry.pk if isinstance(entry, Entry) else int(entry)
    tournament_id = Entry.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise NotFound("entry_not_found", "No such entry.")
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    locked = Entry.objects.select_for_update(of=("self",)).select_related("pair").get(pk=pk)
    require_organiser(user, tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "This tournament has ended.")
    if locked.withdrawn:
        raise Conflict("entry_withdrawn", f"{locked.pair} has already withdrawn.")
    start = _default_from(tournament) if from_round is None else from_round
    if isinstance(start, bool) or not isinstance(start, int) or start < 1:
        raise ValidationFailed("round_invalid", "A round number from 1.", fields={"from_round": "a round number"})
    locked.withdrawn, locked.withdrawn_from = True, start
    locked.save(update_fields=["withdrawn", "withdrawn_from"])
    report = FieldChange(locked.pk)
    rounds = Round.objects.select_for_update().filter(tournament=tournament, number__gte=start,
                                                      status__in=DRAWN).order_by("number")
    for round_ in rounds:
        board = Board.objects.select_for_update().filter(round=round_).filter(
            Q(pair_a=locked) | Q(pair_b=locked)).first()
        if board is None:
            continue
        if board.forfeited is not None or (board.decided and not board.is_bye):
            report.add(round_.number, "kept", f"Round {round_.number}: its result stands.", [board.pk])
            continue
        _withdraw_from_board(tournament, round_, board, locked, user, report)
    audit_record(action="entry.withdraw", obj=locked, tournament_id=tournament.pk, user=actor(user),
                 after={"from_round": start, "actions": report.actions})
    _standings_changed(tournament.pk)
    return report


def _withdraw_from_board(tournament: Tournament, round_: Round, board: Board, entry: Entry, user: Actor,
                         report: FieldChange) -> None:
    side = 0 if board.pair_a_id == entry.pk else 1
    number = round_.number
    if round_.proposal:  # the look-ahead's proposal was drafted for the field before the withdrawal
        round_.proposal = None
        round_.save(update_fields=["proposal"])
    if board.is_bye and tournament.is_knockout:
        text = (f"Round {number}: {entry.pair} withdrew; its bye stands in the bracket and its next opponent "
                "gets a walkover.")
        report.add(number, "walkover_next", text, [board.pk])
        _record(round_, user, {"kind": "withdrawal", "entries": [entry.pk], "what": text, "warnings": []})
        return
    if board.is_bye:
        bye_id = board.pk
        board.delete()
        report.add(number, "bye_removed", f"Round {number}: {entry.pair}'s bye is removed.", [bye_id])
        _record(round_, user, {"kind": "withdrawal", "entries": [entry.pk], "what": f"{entry.pair} withdrew: "
                               "its bye is removed", "warnings": []})
        return
    if tournament.is_knockout:
        board = Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk)
        _forfeit(board, side, user, "withdrawal (walkover)")
        text = f"Round {number}: walkover, {_name(board.pair_b_id if side == 0 else board.pair_a_id)} goes through."
        report.add(number, "walkover", text, [board.pk])
        _record(round_, user, {"kind": "walkover", "board": board.pk, "entries": [entry.pk], "what": text, "warnings": []})
        return
    if _played(board):
        _forfeit_report(round_, board, side, entry, user, report, "withdrew during play")
        return
    if board.team_match_id is not None:
        substitute = _substitute(tournament, round_, board, entry)
        if substitute is None:
            _forfeit_report(round_, board, side, entry, user, report, "withdrew and the club has no substitute")
            return
        _substitute_seat(round_, board, side, entry, substitute, user, report)
        return
    _repair(tournament, round_, board, side, entry, user, report)


def _forfeit_report(round_: Round, board: Board, side: int, entry: Entry, user: Actor, report: FieldChange,
                    why: str) -> None:
    board = Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk)
    _forfeit(board, side, user, why)
    other = board.pair_b_id if side == 0 else board.pair_a_id
    text = f"Round {round_.number}: {entry.pair} {why}; the board is forfeited to {_name(other)}."
    report.add(round_.number, "forfeit", text, [board.pk])
    _record(round_, user, {"kind": "forfeit", "board": board.pk, "entries": [entry.pk], "what": text, "warnings": []})


def _repair(tournament: Tournament, round_: Round, board: Board, side: int, entry: Entry, user: Actor,
            report: FieldChange) -> None:
    """Re-pair the withdrawn pair's opponent: with a drafted bye's pair it has not met, else a bye."""
    opponent = board.pair_b_id if side == 0 else board.pair_a_id
    assert opponent is not None
    requested = set(Availability.objects.filter(entry__tournament=tournament, round_number=round_.number,
                                                state=Availability.State.BYE).values_list("entry_id", flat=True))
    byes = [b for b in Board.objects.select_for_update().filter(round=round_, pair_b__isnull=True, forfeited__isnull=True)
            .order_by("id") if b.pair_a_id not in requested and not _played(b)]
    partner = next((b for b in byes if not _met(tournament, opponent, b.pair_a_id, round_.number)), None)
    if partner is not None:
        newcomer = partner.pair_a_id
        if side == 0:
            board.pair_a_id = newcomer
        else:
            board.pair_b_id = newcomer
        board.explanation = (f"re-paired: {entry.pair} withdrew; {_name(newcomer)} leaves its bye "
                             "(they have not met)")[:300]
        partner.delete()
        _unseat(board)
        board.save(update_fields=["pair_a", "pair_b", "explanation", "seating", "first_dealer", "updated_at"])
        _seat_rows(round_, board)
        text = (f"Round {round_.number}: {entry.pair} withdrew; {_name(opponent)} now plays {_name(newcomer)}, "
                "who had the bye.")
        kind, boards = "re-paired", [board.pk, partner.pk]
    else:
        board.pair_a_id, board.pair_b_id, board.table = opponent, None, None
        board.result_source = Board.Source.BYE
        board.explanation = f"a bye: {entry.pair} withdrew after the round was drawn"[:300]
        _unseat(board)
        board.save(update_fields=["pair_a", "pair_b", "table", "result_source", "explanation", "seating",
                                  "first_dealer", "updated_at"])
        _seat_rows(round_, board)
        from .boards import board_results_refresh

        board_results_refresh(Board.objects.select_related("round__tournament").get(pk=board.pk))
        text = f"Round {round_.number}: {entry.pair} withdrew; {_name(opponent)} takes the bye."
        kind, boards = "bye", [board.pk]
    report.add(round_.number, kind, text, boards)
    _record(round_, user, {"kind": "withdrawal", "entries": [entry.pk], "what": text,
                           "warnings": _rematch_warning(tournament, round_, board)})


def _unseat(board: Board) -> None:
    """The board's pairs changed before its first hand: the recorded seating names players who no longer sit
    there, and its game (no hand in it) is voided; the tablet seats the board again."""
    board.seating, board.first_dealer = None, None
    Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED).update(
        status=Game.Status.VOIDED, ended_at=timezone.now())


def _rematch_warning(tournament: Tournament, round_: Round, board: Board) -> list[dict[str, Any]]:
    if board.pair_b_id is None or not _met(tournament, board.pair_a_id, board.pair_b_id, round_.number):
        return []
    return [{"code": "rematch", "message": f"{_name(board.pair_a_id)} and {_name(board.pair_b_id)} met before",
             "entrants": [board.pair_a_id, board.pair_b_id]}]


def _substitute(tournament: Tournament, round_: Round, board: Board, entry: Entry,
                exclude: set[int] | None = None) -> Entry | None:
    """A pair of the same club, entered and not withdrawn, not in any line-up of this round (nor absent)."""
    seated = set(BoardPair.objects.filter(round=round_).values_list("entry_id", flat=True))
    absent = set(Availability.objects.filter(entry__tournament=tournament, round_number=round_.number,
                                             state=Availability.State.ABSENT).values_list("entry_id", flat=True))
    return (Entry.objects.filter(tournament=tournament, withdrawn=False, pair__club_id=entry.pair.club_id)
            .filter(Q(joins_from__isnull=True) | Q(joins_from__lte=round_.number))
            .exclude(pk__in=seated | absent | (exclude or set())).exclude(pk=entry.pk).select_related("pair")
            .order_by(F("seed").asc(nulls_last=True), "id").first())


def _substitute_seat(round_: Round, board: Board, side: int, entry: Entry, substitute: Entry, user: Actor,
                     report: FieldChange, why: str = "withdrew") -> None:
    match = TeamMatch.objects.select_for_update().get(pk=board.team_match_id)
    for attr in ("lineup_a", "lineup_b"):
        lineup = list(getattr(match, attr))
        if entry.pk in lineup:
            lineup[lineup.index(entry.pk)] = substitute.pk
            setattr(match, attr, lineup)
    match.save(update_fields=["lineup_a", "lineup_b"])
    if side == 0:
        board.pair_a_id = substitute.pk
    else:
        board.pair_b_id = substitute.pk
    _unseat(board)
    board.save(update_fields=["pair_a", "pair_b", "seating", "first_dealer", "updated_at"])
    _seat_rows(round_, board)
    text = (f"Round {round_.number}: {entry.pair} {why}; {substitute.pair} plays board {board.slot or board.table} "
            "for the club.")
    report.add(round_.number, "substitute", text, [board.pk])
    _record(round_, user, {"kind": "substitute", "board": board.pk, "entries": [entry.pk, substitute.pk],
                           "what": text, "warnings": []})


# ---- absent pairs at publishing ----------------------------------------------------------------------
def round_absent_forfeits(*, round: Round, user: Actor = None) -> list[int]:  # noqa: A002
    """At publishing, the boards of a round robin, knockout or club-team round whose pair will not play: a
    club-team pair checked in absent is replaced from the club's roster while a pair present is free, else its
    board is forfeited; other absent pairs (checked in absent, or withdrawn yet kept by a knockout bracket)
    forfeit at once, since their schedule is fixed and there is no one to wait for. In a knockout with both
    pairs absent the organiser chooses (a knockout match needs a winner). The boards forfeited."""
    tournament = round.tournament
    if tournament.pairing_system == Tournament.PairingSystem.SWISS and not tournament.is_club_teams:
        return []  # a Swiss draws only the pairs present
    absent = set(Availability.objects.filter(entry__tournament=tournament, round_number=round.number,
                                             state=Availability.State.ABSENT).values_list("entry_id", flat=True))
    checked_absent = set(absent)
    absent |= set(Entry.objects.filter(tournament=tournament, withdrawn=True).filter(
        Q(withdrawn_from__isnull=True) | Q(withdrawn_from__lte=round.number)).values_list("pk", flat=True))
    if not absent:
        return []
    done: list[int] = []
    for board in Board.objects.filter(round=round, pair_b__isnull=False, forfeited__isnull=True).order_by("id"):
        if board.team_match_id is not None:
            _substitute_absent(tournament, round, board, absent, user)
        sides = [board.pair_a_id in absent, board.pair_b_id in absent]
        if not any(sides):
            continue
        if all(sides) and tournament.is_knockout:
            _record(round, user, {"kind": "warning", "board": board.pk, "what": f"table {board.table}: neither pair "
                                  "is here; a knockout match needs a winner: forfeit one of them", "warnings": []})
            continue
        side = Board.Forfeit.BOTH if all(sides) else (Board.Forfeit.SIDE_A if sides[0] else Board.Forfeit.SIDE_B)
        locked = Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk)
        why = "checked in absent" if {board.pair_a_id, board.pair_b_id} & checked_absent else "withdrew"
        _forfeit(locked, int(side), user, why)
        _record(round, user, {"kind": "forfeit" if why != "withdrew" else "walkover", "board": board.pk,
                              "what": f"table {board.table}: {_forfeit_words(board, int(side))} ({why})",
                              "warnings": []})
        done.append(board.pk)
    if done:
        _standings_changed(tournament.pk)
    return done


def _substitute_absent(tournament: Tournament, round_: Round, board: Board, absent: set[int], user: Actor) -> None:
    """Replace the absent pairs of a team board from their clubs' rosters (pairs present, not in a line-up)."""
    report = FieldChange()
    for side, entry_id in ((0, board.pair_a_id), (1, board.pair_b_id)):
        if entry_id not in absent:
            continue
        entry = Entry.objects.select_related("pair").get(pk=entry_id)
        substitute = _substitute(tournament, round_, board, entry, exclude=absent)
        if substitute is not None:
            _substitute_seat(round_, board, side, entry, substitute, user, report, why="is absent")
            board.refresh_from_db()


# ---- late entries ----------------------------------------------------------------------------------------
def next_undrawn_round(tournament: Tournament) -> int:
    """The first round not drawn yet: a pending round, else the one after the last."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number").values_list("number", "status"))
    for number, status in rounds:
        if status == Round.Status.PENDING:
            return number
    return rounds[-1][0] + 1 if rounds else 1


@transaction.atomic
def entry_enter_late(*, tournament: Tournament, pair: Pair, user: Actor, seed: int | None = None) -> Entry:
    """Enter ``pair`` after play has begun: it joins the next round not yet drawn (``Entry.joins_from``).
    Before round 1 is drawn this is an ordinary entry. 409 ``bracket_seated`` in a knockout once its first
    round is drawn."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is not None:
        require_organiser(user, locked.pk)
    joins = next_undrawn_round(locked)
    if locked.is_knockout and joins > 1:
        raise Conflict("bracket_seated", "The knockout's bracket is seated: no late entries.")
    entry = entry_create(tournament=locked, pair=pair, user=user, seed=seed)
    if joins > 1:
        entry.joins_from = joins
        entry.save(update_fields=["joins_from"])
        audit_record(action="entry.late", obj=entry, tournament_id=locked.pk, user=actor(user),
                     after={"joins_from": joins})
    return entry


__all__ = [
    "ABSENT_CHOICES", "FieldChange", "board_forfeit", "board_forfeit_cancel", "entry_enter_late", "entry_withdraw",
    "grace_ends", "next_undrawn_round", "round_absent_forfeits", "team_match_forfeit",
]
