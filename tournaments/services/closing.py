"""The round clock, closing a round safely, and reopening it (docs/decisions.md, "The clock and closing").

* The clock: ``Round.ends_at`` is set when the round is published (``round_publish``: published + the event's
  ``round_minutes``), moved by ``round_clock_set(round=, minutes=, user=)`` (extend or shorten: time left from
  now) and ``round_call_time(round=, user=)`` (now). ``round_clock(round, now=)`` reads it: time left, in the
  venue's time zone, and whether time is called. Nothing ticks: it is computed on read. Once time is called
  no new game starts (the hand services refuse the first hand of a game, 409 ``time_called``); the hand in
  play finishes.
* ``round_close_preview(round=)``: what closing would do to every board not finished, without writing: the
  finished games it confirms, each unfinished game awarded to the side ahead or voided by the time-called
  policy, what each board becomes, and a ``token`` naming that state.
* ``round_close(round=, user=, token=None, confirm_remaining=False)``: close it. With the preview's ``token``
  (the console always sends it) closing does exactly what was shown, or answers 409 ``preview_stale`` when a
  board moved since; without it the unconfirmed finished games must be confirmed first (409
  ``games_unconfirmed``) unless ``confirm_remaining``. A dispute still blocks (409 ``dispute_open``). What it
  changed is stored in ``Round.close_record``.
* ``round_reopen(round=, user=)``: the last round back in play, while no later round is drafted, reversing
  by flags exactly what closing changed (confirmations cleared, games back in play, boards' sources back);
  409 ``reopen_changed`` when any of those rows changed since, ``later_round``, ``round_not_closed``.

A knockout round closes only when every match is decided (409 ``match_undecided``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.actors import Actor
from tournaments.formats import MatchKind, match_outcome
from tournaments.models import Board, Game, GameConfirmation, Hand, Round, TeamMatch, Tournament
from tournaments.selectors.clock import Clock, round_clock, venue_zone

from ._common import OPEN_ROUND_STATUSES, STANDINGS_TASK, actor, refusals_with_state, require_organiser
from .audit import audit_record
from .boards import board_format, board_results_refresh, team_match_refresh
from .confirmations import games_confirm_finished, games_disputed
from .errors import Conflict, ValidationFailed
from .outbox import outbox_enqueue
from .publication import public_change

MAX_CLOCK_MINUTES = 600


# ---- the clock -----------------------------------------------------------------------------------------
def time_is_called(tournament_id: int, number: int, *, now: datetime | None = None) -> bool:
    """Whether the clock of round ``number`` of the tournament has run out (one query; the hand services ask
    it before the first hand of a game, never mid-game)."""
    return Round.objects.filter(tournament_id=tournament_id, number=number, ends_at__lte=now or timezone.now()).exists()


def round_clock_start(round_: Round) -> None:
    """Set ``ends_at`` from the event's ``round_minutes`` when the round is published (no limit: no clock)."""
    minutes = round_.tournament.round_minutes
    if minutes and round_.published_at:
        round_.ends_at = round_.published_at + timedelta(minutes=minutes)
        round_.save(update_fields=["ends_at"])


def _lock_open(round_: Round, user: Actor) -> Round:
    locked = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    require_organiser(user, locked.tournament_id)
    if locked.status not in OPEN_ROUND_STATUSES:
        raise Conflict("round_not_open", f"Round {locked.number} is {locked.status}: only a round in play has a clock.")
    return locked


@transaction.atomic
def round_clock_set(*, round: Round, minutes: int, user: Actor) -> Round:  # noqa: A002
    """Time left from now becomes ``minutes`` (extend or shorten the round; 0 calls time)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= MAX_CLOCK_MINUTES:
        raise ValidationFailed("minutes_invalid", f"Minutes left, from 0 to {MAX_CLOCK_MINUTES}.",
                               fields={"minutes": f"a whole number from 0 to {MAX_CLOCK_MINUTES}"})
    locked = _lock_open(round, user)
    before = locked.ends_at
    locked.ends_at = timezone.now() + timedelta(minutes=minutes)
    locked.save(update_fields=["ends_at"])
    audit_record(action="round.clock", obj=locked, tournament_id=locked.tournament_id, user=actor(user),
                 before={"ends_at": before.isoformat() if before else None},
                 after={"ends_at": locked.ends_at.isoformat()})
    public_change(locked.tournament_id, round_number=locked.number)
    return locked


def round_call_time(*, round: Round, user: Actor) -> Round:  # noqa: A002
    """Call time now: no new game starts; the hands in play finish."""
    return round_clock_set(round=round, minutes=0, user=user)


# ---- what closing does -----------------------------------------------------------------------------------
@dataclass
class BoardClose:
    """One board in the preview: how it stands and what closing makes of it."""

    board_id: int
    table: int | None
    pair_a: str
    pair_b: str
    now: str
    becomes: str
    changes: list[str] = field(default_factory=list)
    undecided: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board_id, "table": self.table, "pair_a": self.pair_a, "pair_b": self.pair_b,
                "now": self.now, "becomes": self.becomes, "changes": list(self.changes), "undecided": self.undecided}


@dataclass
class ClosePlan:
    """What ``round_close`` would do: per board, games to confirm, award and void; refusals it would meet."""

    round_id: int
    number: int
    boards: list[BoardClose]
    confirm: list[int]
    award: dict[int, int]
    void: list[int]
    disputed: int
    blocking: list[str]
    token: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.number, "token": self.token, "boards": [b.as_dict() for b in self.boards],
                "games_to_confirm": len(self.confirm), "games_awarded": len(self.award),
                "games_voided": len(self.void), "disputed": self.disputed, "blocking": list(self.blocking)}


def _games(round_: Round, *, lock: bool) -> list[Game]:
    qs = Game.objects.filter(board__round=round_).exclude(status=Game.Status.VOIDED).order_by("id")
    return list(qs.select_for_update(of=("self",)) if lock else qs)


def _score(game: Game) -> str:
    return f"{game.score[0]}-{game.score[1]}" if len(game.score) == 2 else "0-0"


def close_plan(round_: Round, *, lock: bool = False) -> ClosePlan:
    """Work out what closing ``round_`` does, writing nothing."""
    tournament = round_.tournament
    games = _games(round_, lock=lock)
    disputed = games_disputed(games)
    busy = set(Hand.objects.filter(game__in=[g for g in games if g.status == Game.Status.IN_PLAY],
                                   status=Hand.Status.ACTIVE).order_by().values_list("game_id", flat=True))
    boards = list(Board.objects.filter(round=round_).select_related("team_match", "pair_a__pair", "pair_b__pair")
                  .order_by("table", "id"))
    stopped = {b.pk for b in boards if b.team_match_id and b.team_match.decided
               and b.format_value().kind is MatchKind.RACE}
    by_board: dict[int, list[Game]] = {}
    for g in games:
        by_board.setdefault(g.board_id, []).append(g)
    confirm: list[int] = []
    award: dict[int, int] = {}
    void: list[int] = []
    out: list[BoardClose] = []
    blocking: list[str] = []
    awarding = tournament.time_called == Tournament.TimeCalled.AWARD
    for board in boards:
        if board.is_bye or board.forfeited is not None:
            continue
        mine = by_board.get(board.pk, [])
        changes: list[str] = []
        winners: list[int | None] = []
        for g in mine:
            if g.status == Game.Status.FINISHED:
                winners.append(g.winner)
                if not g.confirmed and g.pk not in disputed:
                    confirm.append(g.pk)
                    changes.append(f"game {g.number} ({_score(g)}) confirmed")
                continue
            ahead = None
            if len(g.score) == 2 and g.score[0] != g.score[1]:
                ahead = 0 if g.score[0] > g.score[1] else 1
            if awarding and g.pk in busy and ahead is not None and board.pk not in stopped:
                award[g.pk] = ahead
                winners.append(ahead)
                changes.append(f"game {g.number} ({_score(g)}) awarded to pair {'AB'[ahead]}, ahead when time was called")
            elif g.pk in busy:
                void.append(g.pk)
                changes.append(f"game {g.number} ({_score(g)}) voided" + (", level" if ahead is None else ""))
            else:
                void.append(g.pk)
        if board.decided and not changes:
            continue  # finished and confirmed: closing does not touch it
        fmt = board_format(board)
        outcome = match_outcome(fmt, winners, knockout=tournament.is_knockout and not board.team_match_id,
                                time_called=True, race_decided=bool(board.team_match_id and board.team_match.decided))
        games_won = [sum(1 for w in winners if w == side) for side in (0, 1)]
        won_words = f"{games_won[0]}-{games_won[1]} in games"
        played = [sum(1 for g in mine if g.status == Game.Status.FINISHED and g.winner == side) for side in (0, 1)]
        if outcome.decided and outcome.winner is not None:
            becomes = f"pair {'AB'[outcome.winner]} wins {won_words}"
        elif outcome.decided:
            becomes = f"drawn, {won_words}"
        else:
            becomes = f"undecided ({won_words})"
        current = next((g for g in reversed(mine) if g.status == Game.Status.IN_PLAY), None)
        now_words = f"{played[0]}-{played[1]} in games" + (f", game {current.number} at {_score(current)}"
                                                            if current else "")
        item = BoardClose(board.pk, board.table, str(board.pair_a.pair) if board.pair_a else "",
                          str(board.pair_b.pair) if board.pair_b else "", now_words, becomes, changes,
                          undecided=not outcome.decided)
        if item.undecided and tournament.is_knockout and not board.team_match_id:
            blocking.append(f"table {board.table} is level: a knockout match must be decided before the round closes")
        out.append(item)
    if disputed:
        blocking.insert(0, f"{len(disputed)} game(s) are disputed: rule on them first")
    plan = ClosePlan(round_.pk, round_.number, out, confirm, award, void, len(disputed), blocking)
    raw = json.dumps([round_.pk, sorted(confirm), sorted(award.items()), sorted(void),
                      [(g.pk, g.status, g.last_hand_number, g.confirmed, g.winner, list(g.score)) for g in games]])
    plan.token = hashlib.sha256(raw.encode()).hexdigest()[:16]
    return plan


def round_close_preview(*, round: Round, user: Actor) -> ClosePlan:  # noqa: A002
    """The preview of closing ``round`` (an organiser; 409 ``round_not_open``)."""
    round_ = Round.objects.select_related("tournament").get(pk=round.pk)
    require_organiser(user, round_.tournament_id)
    if round_.status not in OPEN_ROUND_STATUSES:
        raise Conflict("round_not_open", f"Round {round_.number} is {round_.status}: only a round in play closes.")
    return close_plan(round_)


@refusals_with_state
@transaction.atomic
def round_close(*, round: Round, user: Actor, token: str | None = None,  # noqa: A002
                confirm_remaining: bool = False) -> Round:
    """Close a round in play as its preview says (see the module). Returns the closed round."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round.pk)
    tournament = round_.tournament
    require_organiser(user, tournament.pk)
    if round_.status not in OPEN_ROUND_STATUSES:
        raise Conflict("round_not_open", f"Round {round_.number} is {round_.status}: only a round in play closes.")
    status_before = round_.status
    plan = close_plan(round_, lock=True)
    if plan.disputed:
        raise Conflict("dispute_open", f"{plan.disputed} game(s) of round {round_.number} are disputed: rule on them first.")
    if token is not None and token != plan.token:
        raise Conflict("preview_stale", "A board changed since the preview: look at the preview again before closing.")
    if plan.confirm and token is None and not confirm_remaining:
        raise Conflict("games_unconfirmed",
                       f"{len(plan.confirm)} finished game(s) are not confirmed yet: confirm them, or close from the "
                       "preview, which confirms them for you.")
    before_confirmations = set(GameConfirmation.objects.filter(game__board__round=round_).values_list("pk", flat=True))
    games = {g.pk: g for g in _games(round_, lock=True)}
    games_confirm_finished(games=[games[pk] for pk in plan.confirm], user=user)
    now = timezone.now()
    for pk, ahead in plan.award.items():
        game = games[pk]
        game.winner, game.status, game.awarded, game.ended_at = ahead, Game.Status.FINISHED, True, now
        game.save(update_fields=["winner", "status", "awarded", "ended_at"])
    games_confirm_finished(games=[games[pk] for pk in plan.award], user=user)
    Game.objects.filter(pk__in=plan.void).update(status=Game.Status.VOIDED, ended_at=now)
    open_boards = set(Board.objects.filter(round=round_, decided=False, pair_b__isnull=False, forfeited__isnull=True)
                      .values_list("pk", flat=True))
    round_.status, round_.closed_at = Round.Status.CLOSED, now
    undecided: list[str] = []
    clocked: list[int] = []
    for board in Board.objects.filter(round=round_).select_related("round__tournament", "team_match").order_by("id"):
        board.round = round_
        board_results_refresh(board)
        if not board.decided and not board.team_match_id:
            undecided.append(f"table {board.table}")
        elif board.pk in open_boards:  # decided by the time-called policy, not by play (ADR 0012)
            board.result_source = Board.Source.TIME_CALLED
            board.save(update_fields=["result_source"])
            clocked.append(board.pk)
    for team_match in TeamMatch.objects.filter(round=round_).select_related("round__tournament"):
        team_match.round = round_
        team_match_refresh(team_match)
        if not team_match.decided:
            undecided.append(f"team match {team_match.pk}")
    if undecided and tournament.is_knockout:
        raise Conflict("match_undecided", "A knockout round closes only when every match is decided: "
                       + ", ".join(undecided) + " still level.")
    created = sorted(set(GameConfirmation.objects.filter(game__board__round=round_).values_list("pk", flat=True))
                     - before_confirmations)
    touched = sorted({*plan.confirm, *plan.award, *plan.void})
    after = {str(g.pk): [g.status, g.confirmed, g.winner]
             for g in Game.objects.filter(pk__in=touched).order_by("pk")}
    round_.close_record = {"status_before": status_before, "confirmations": created, "confirmed": plan.confirm, "awarded": sorted(plan.award),
                           "voided": plan.void, "time_called_boards": clocked, "games_after": after}
    round_.save(update_fields=["status", "closed_at", "close_record"])
    audit_record(action="round.close", obj=round_, tournament_id=tournament.pk, user=actor(user),
                 after={"voided_games": len(plan.void), "awarded_games": len(plan.award),
                        "confirmed_games": len(plan.confirm), "record": round_.close_record})
    outbox_enqueue(STANDINGS_TASK, [tournament.pk], coalesce_key=f"standings:{tournament.pk}")
    public_change(tournament.pk, round_number=round_.number, standings=True)
    return round_


# ---- reopening -------------------------------------------------------------------------------------------
@transaction.atomic
def round_reopen(*, round: Round, user: Actor) -> Round:  # noqa: A002
    """Put the last closed round back in play, reversing exactly what closing changed (see the module)."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round.pk)
    tournament = round_.tournament
    require_organiser(user, tournament.pk)
    if round_.status != Round.Status.CLOSED:
        raise Conflict("round_not_closed", f"Round {round_.number} is {round_.status}: only a closed round reopens.")
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "The event is finished: reopen the event first.")
    later = Round.objects.filter(tournament=tournament, number__gt=round_.number)
    drawn = later.exclude(status=Round.Status.PENDING).order_by("number").first()
    if drawn is not None:
        raise Conflict("later_round", f"Round {drawn.number} is already {drawn.status}: only the last round reopens.")
    record = round_.close_record or {}
    changed = _changed_since(record)
    if changed:
        raise Conflict("reopen_changed", "Some results changed since the round was closed, so reopening would not "
                       "restore them exactly: " + "; ".join(changed[:5]) + ".")
    pending = list(later.values_list("number", flat=True))
    later.delete()  # a pending round holds nothing but its start: started again after the reopened round closes
    GameConfirmation.objects.filter(pk__in=record.get("confirmations", [])).update(cleared=True)
    reopened = [*record.get("awarded", []), *record.get("voided", [])]
    Game.objects.filter(pk__in=record.get("awarded", [])).update(status=Game.Status.IN_PLAY, winner=None,
                                                                 awarded=False, ended_at=None, confirmed=False)
    Game.objects.filter(pk__in=record.get("voided", [])).update(status=Game.Status.IN_PLAY, ended_at=None)
    Game.objects.filter(pk__in=record.get("confirmed", [])).update(confirmed=False)
    for game in Game.objects.filter(pk__in=record.get("confirmed", [])):
        words = {c.party: c.agrees for c in GameConfirmation.objects.filter(game=game, cleared=False) if c.agrees}
        if words.get("organiser") or (words.get("a") and words.get("b")):
            Game.objects.filter(pk=game.pk).update(confirmed=True)
    Board.objects.filter(pk__in=record.get("time_called_boards", [])).update(result_source=Board.Source.HANDS)
    played = Hand.objects.filter(game__board__round=round_).exists()
    before = record.get("status_before")
    round_.status = before if before in OPEN_ROUND_STATUSES else (Round.Status.IN_PLAY if played else Round.Status.PUBLISHED)
    round_.closed_at, round_.reopened_at, round_.close_record = None, timezone.now(), None
    round_.save(update_fields=["status", "closed_at", "reopened_at", "close_record"])
    for board in Board.objects.filter(round=round_).select_related("round__tournament", "team_match").order_by("id"):
        board.round = round_
        board_results_refresh(board, keep_games=False)
    for team_match in TeamMatch.objects.filter(round=round_).select_related("round__tournament"):
        team_match.round = round_
        team_match_refresh(team_match)
    audit_record(action="round.reopen", obj=round_, tournament_id=tournament.pk, user=actor(user),
                 after={"record": record, "games_in_play_again": reopened, "pending_rounds_removed": pending})
    outbox_enqueue(STANDINGS_TASK, [tournament.pk], coalesce_key=f"standings:{tournament.pk}")
    public_change(tournament.pk, round_number=round_.number, standings=True)
    return round_


def _changed_since(record: dict[str, Any]) -> list[str]:
    """What no longer stands as closing left it: games (status, confirmation, winner), confirmations made by
    closing (cleared since), boards decided by the clock (source changed)."""
    out: list[str] = []
    after: dict[str, list[Any]] = record.get("games_after", {})
    now = {str(pk): [status, confirmed, winner] for pk, status, confirmed, winner in
           Game.objects.filter(pk__in=[int(k) for k in after]).values_list("pk", "status", "confirmed", "winner")}
    for pk, state in after.items():
        if now.get(pk) != state:
            out.append(f"game {pk} changed")
    made = record.get("confirmations", [])
    if GameConfirmation.objects.filter(pk__in=made, cleared=True).exists():
        out.append("a confirmation made at closing was cleared")
    boards = record.get("time_called_boards", [])
    if Board.objects.filter(pk__in=boards).exclude(result_source=Board.Source.TIME_CALLED).exists():
        out.append("a board decided when time was called was changed")
    return out


__all__ = [
    "BoardClose", "ClosePlan", "Clock", "close_plan", "round_call_time", "round_clock", "round_clock_set",
    "round_clock_start", "round_close", "round_close_preview", "round_reopen", "time_is_called", "venue_zone",
]
