"""Hands: submit, preview and undo (the tablet); correct and void (the organiser).

Every write locks the board's game rows (``select_for_update``) before reading the game's state, so two
tablets' requests for one hand number serialise: the first lands, the second gets 409
``hand_number_taken`` with the board's current state. Hands are never overwritten or deleted: an undo or
a void sets ``status=voided``; a correction writes a new version that ``supersedes`` the old one. After a
correction or void, the board's later hands are rescored as recorded (``_replay``); one that no longer
fits refuses the whole change (409 ``correction_breaks_later_hands``, naming the first such hand).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments import adapters
from tournaments.actors import Actor
from tournaments.formats import DEFAULT_MATCH_FORMAT, MatchFormat, PairingSystem, match_outcome
from tournaments.models import Board, Device, Game, GameConfirmation, Hand, Round, Tournament

from ._common import (
    OPEN_ROUND_STATUSES,
    STANDINGS_TASK,
    actor,
    check_device,
    check_round_open,
    check_round_status,
    conflict,
    refusals_with_state,
    require_organiser,
)
from .audit import audit_event, audit_record
from .boards import board_after_change
from .closing import time_is_called
from .errors import (
    Conflict,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
)
from .outbox import outbox_enqueue
from .publication import public_change, public_change_row
from .rows import model_columns, row_fetch, row_insert, rows_write

HAND_DERIVED_FIELDS = ("events", "trump", "score_after", "winner", "next_dealer")


def _positive(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValidationFailed("number_invalid", f"{name} must be a whole number from 1.", fields={name: "a whole number from 1"})
    return value


def _enqueue_standings(tournament_id: int) -> None:
    outbox_enqueue(STANDINGS_TASK, [tournament_id], coalesce_key=f"standings:{tournament_id}")


def _hand_summary(hand: Hand, game_number: int) -> dict[str, Any]:
    return {"id": hand.pk, "game": game_number, "number": hand.number, "version": hand.version,
            "dealer": hand.dealer, "score_after": hand.score_after, "winner": hand.winner,
            "next_dealer": hand.next_dealer, "status": hand.status}


def _last_active_hand(game: Game) -> Hand | None:
    return Hand.objects.filter(game=game, status=Hand.Status.ACTIVE).order_by("-number").first()


# ---- submit ------------------------------------------------------------------------------------------
@refusals_with_state
def hand_submit(
    *, board: Board, game_number: int, hand_number: int, record: Mapping[str, Any],
    device: Device | None = None, user: Actor = None,
) -> Hand:
    """Record the next hand of the board's current game, scored by the engine, in one transaction.

    Refusals: 400 (engine's code, ``hand.<path>`` field), 403 ``not_your_board``, 409 ``round_not_open``,
    ``stale_board``, ``board_not_seated``, ``stale_game``, ``game_over``, ``match_decided``,
    ``hand_number_taken``, ``hand_number_ahead`` (all with the board's current state).
    At the target the game ends (winner, ended_at), the board's result is derived again and the next
    game opens (first dealer = the engine's ``next_dealer``) unless the match is decided. No standings
    recompute is enqueued: standings count confirmed games only, and confirming the game enqueues it.
    """
    _positive(game_number, "game_number")
    _positive(hand_number, "hand_number")
    try:
        return _hand_submit(board=board, game_number=game_number, hand_number=hand_number, record=record,
                            device=device, user=user)
    except IntegrityError:
        # The unique active hand per number caught a race the lock did not (e.g. SQLite): a taken number.
        raise conflict("hand_number_taken", f"Hand {hand_number} of game {game_number} is already in.", board) from None


_LOCK_SQL: dict[str, str] = {}
_LOCK_EXTRA = ("next_hand_id", "board_table", "board_decided", "round_status", "round_number", "tournament_id")


def _lock_sql(using: str) -> str:
    """The hot path's one read: the live game ``number`` of a board, locked (its row only), with the few board
    and round fields the checks need. Built once per database from the models' own tables and columns."""
    if using not in _LOCK_SQL:
        connection = connections[using]
        q = connection.ops.quote_name
        game, board, round_ = (q(m._meta.db_table) for m in (Game, Board, Round))
        lock = ""
        if connection.features.has_select_for_update:  # SQLite has none: the unique constraints decide there
            lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
        next_id = "NULL"
        if connection.vendor == "postgresql":  # the hand's id, so that its row, the game's and the audit's
            next_id = f"nextval(pg_get_serial_sequence('{Hand._meta.db_table}', '{Hand._meta.pk.column}'))"
        _LOCK_SQL[using] = (
            f"SELECT {model_columns(Game, 'g', using=using)}, {next_id}, b.{q('table')}, b.{q('decided')}, "
            f"r.{q('status')}, r.{q('number')}, r.{q('tournament_id')} "
            f"FROM {game} g INNER JOIN {board} b ON b.{q('id')} = g.{q('board_id')} "
            f"INNER JOIN {round_} r ON r.{q('id')} = b.{q('round_id')} "
            f"WHERE g.{q('board_id')} = %s AND g.{q('number')} = %s AND g.{q('status')} <> %s{lock}"
        )
    return _LOCK_SQL[using]


def _lock_game(board_id: int, game_number: int) -> Game | None:
    """The game row locked (``select_for_update(of=("self",))``: the board and round are joined, not locked),
    as a ``Game`` carrying ``board_table``, ``board_decided``, ``round_status``, ``round_number``,
    ``tournament_id`` and ``next_hand_id``: on PostgreSQL drawn from the hands' sequence (a refused
    submission leaves a gap in the ids, as a rolled-back INSERT does), None elsewhere. Hand-written because
    the ORM's compilation of this query cost more CPU than the whole bare INSERT it is measured against
    (benchmarks/submit.py); the row goes through the model's converters (``row_fetch``)."""
    return row_fetch(Game, _lock_sql(DEFAULT_DB_ALIAS), [board_id, game_number, Game.Status.VOIDED], _LOCK_EXTRA)


_BOARD_SQL: dict[str, str] = {}


def _board_sql(using: str) -> str:
    """The board's live games (number, status, winner) with the board, round and tournament fields that decide
    its match, read in a statement of its own after the game lock (so it sees what committed meanwhile)."""
    if using not in _BOARD_SQL:
        q = connections[using].ops.quote_name
        game, board, round_, tournament = (q(m._meta.db_table) for m in (Game, Board, Round, Tournament))
        _BOARD_SQL[using] = (
            f"SELECT g.{q('number')}, g.{q('status')}, g.{q('winner')}, b.{q('match_format')}, "
            f"b.{q('team_match_id')}, b.{q('pair_b_id')}, b.{q('decided')}, r.{q('status')}, t.{q('pairing_system')} "
            f"FROM {game} g INNER JOIN {board} b ON b.{q('id')} = g.{q('board_id')} "
            f"INNER JOIN {round_} r ON r.{q('id')} = b.{q('round_id')} "
            f"INNER JOIN {tournament} t ON t.{q('id')} = r.{q('tournament_id')} "
            f"WHERE g.{q('board_id')} = %s AND g.{q('status')} <> %s ORDER BY g.{q('number')}"
        )
    return _BOARD_SQL[using]


def _board_after_game_end(board_id: int, game: Game, rules: Any) -> list[Any] | None:
    """The board's rows to write when a submitted hand ends ``game`` (the game not written yet): the board's
    ``decided``/``winner``/``is_draw``/``all_confirmed`` (and ``updated_at``) and, while the match needs one,
    the next game. What ``board_results_refresh`` would derive, without its reads of what a game's end cannot
    change: the board's confirmed figures and its dispute count confirmations, and the game just ended has
    none, so ``all_confirmed`` is False. None when the board needs the full derivation (a team match's board,
    or any state a submission does not normally meet); ``tests/tournaments/test_services_hands.py`` checks
    the two agree after every game end of boards in each match format.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(_board_sql(DEFAULT_DB_ALIAS), [board_id, Game.Status.VOIDED])
        rows = cursor.fetchall()
    if not rows:
        return None
    fmt, team_match_id, pair_b_id, decided, round_status, pairing_system = rows[0][3:]
    if (team_match_id is not None or pair_b_id is None or decided or round_status not in OPEN_ROUND_STATUSES
            or rows[-1][0] != game.number):
        return None
    winners = [game.winner if number == game.number else winner
               for number, status, winner, *_ in rows if number == game.number or status == Game.Status.FINISHED]
    stored = Board._meta.get_field("match_format").from_db_value(fmt, None, connection)  # type: ignore[attr-defined]
    match_format = MatchFormat.from_dict(stored or DEFAULT_MATCH_FORMAT.to_dict(), chosen=False)
    outcome = match_outcome(match_format, winners, knockout=pairing_system == PairingSystem.KNOCKOUT)
    board = Board(pk=board_id, decided=outcome.decided, winner=outcome.winner, is_draw=outcome.is_draw,
                  all_confirmed=False)
    writes: list[Any] = [(board, ["decided", "winner", "is_draw", "all_confirmed", "updated_at"])]
    if outcome.needs_game:
        writes.append(Game(board_id=board_id, number=game.number + 1, first_dealer=game.next_dealer,
                           next_dealer=game.next_dealer, rules=game.rules, score=adapters.starting_score(rules)))
    return writes


@transaction.atomic
def _hand_submit(
    *, board: Board, game_number: int, hand_number: int, record: Mapping[str, Any],
    device: Device | None, user: Actor,
) -> Hand:
    # The hot path, mid-game on PostgreSQL: BEGIN, the lock query, one statement writing the hand, the game
    # and the audit event (``rows_write``), COMMIT. The next hand number comes from the locked row
    # (``last_hand_number``); the board is loaded only when the game ends, and the board's current state
    # only for a refusal (``refusals_with_state``).
    game = _lock_game(board.pk, game_number)
    if game is None:
        fresh = Board.objects.select_related("round").get(pk=board.pk)
        check_device(fresh, device, tournament_id=fresh.round.tournament_id)
        check_round_open(fresh, fresh.round)
        current = Game.objects.exclude(status=Game.Status.VOIDED).filter(board=fresh).order_by("-number").first()
        if current is None:
            raise conflict("board_not_seated", "Record the seating and the first dealer before hand 1.", fresh)
        raise conflict("stale_game", f"The board is on game {current.number}, not game {game_number}.", fresh)
    tournament_id: int = game.tournament_id  # type: ignore[attr-defined]
    check_device(board, device, tournament_id=tournament_id, table=game.board_table)  # type: ignore[attr-defined]
    check_round_status(board, game.round_status, game.round_number)  # type: ignore[attr-defined]
    if game.status == Game.Status.FINISHED:
        if game.result_source == Game.Source.PAPER_GAME:
            raise conflict("game_on_paper", f"Game {game_number} was entered from a chalk sheet: a tablet may not "
                           "change it.", board)
        raise conflict("game_over", f"Game {game_number} is over: it was won by side {game.winner}.", board)
    if game.board_decided:  # type: ignore[attr-defined]
        raise conflict("match_decided", "The board's match is decided: its play has stopped.", board)
    last = game.last_hand_number
    if last == 0 and time_is_called(tournament_id, game.round_number):  # type: ignore[attr-defined]
        raise conflict("time_called", "Time has been called: no new game starts. The organiser closes the round.",
                       board)
    if hand_number <= last:
        raise conflict("hand_number_taken", f"Hand {hand_number} of game {game_number} is already in.", board)
    if hand_number > last + 1:
        raise conflict("hand_number_ahead", f"Hand {last + 1} of game {game_number} comes next.", board)
    dealer = game.next_dealer
    rules = adapters.rules_for_game(game)
    result = adapters.hand_score(rules, game.score, record, dealer=dealer)
    fields = adapters.hand_fields(result)
    hand = Hand(id=game.next_hand_id, game=game, number=hand_number, record=record,  # type: ignore[attr-defined]
                form=adapters.record_form(record), dealer=dealer, device=device, user=actor(user), **fields)
    writes: list[Any] = [hand]
    if hand.pk is None:  # no id drawn (SQLite): the hand's own INSERT tells it, for the audit event
        row_insert(hand)
        writes = []
    game.score, game.next_dealer, game.last_hand_number = fields["score_after"], fields["next_dealer"], hand_number
    update = ["score", "next_dealer", "last_hand_number"]
    if result.winner is not None:
        game.winner, game.status, game.ended_at = result.winner, Game.Status.FINISHED, timezone.now()
        update += ["winner", "status", "ended_at"]
    event = audit_event(action="hand.submit", obj=hand, tournament_id=tournament_id, device=device,
                        user=actor(user), after=_hand_summary(hand, game.number))
    board_writes = _board_after_game_end(board.pk, game, rules) if result.winner is not None else []
    # A taken number still meets the unique constraint here: IntegrityError, answered hand_number_taken.
    publication = public_change_row(tournament_id, board_id=board.pk)  # the live score's pages (ADR 0013)
    rows_write([*writes, (game, update), event, *(board_writes or []), publication])
    if board_writes is None:  # a team match's board (or an unusual state): derive the board in full
        board_after_change(Board.objects.select_related("round__tournament").get(pk=board.pk), race_check=True)
    # No standings recompute here: standings count confirmed games only, and a game that just ended is not
    # confirmed yet; its confirmation (or a correction, a void, closing the round) enqueues it. Its publication
    # went with the hand's own write (public_change_row above).
    return hand


# ---- preview -----------------------------------------------------------------------------------------
@refusals_with_state
def hand_preview(
    *, board: Board, record: Mapping[str, Any], game_number: int | None = None, device: Device | None = None,
) -> dict[str, Any]:
    """Dry run: the engine's reading of ``record`` as the next hand of the current game. Nothing stored.

    Returns ``{"game_number", "hand_number", "dealer", "score_before", "result", "ends_game"}``
    (``result`` is the engine's hand result: trump, events, score, winner, next_dealer).
    """
    if not Board.round.is_cached(board):  # a dry run: the caller's row read with its round will do
        board = Board.objects.select_related("round").get(pk=board.pk)
    check_device(board, device, tournament_id=board.round.tournament_id)
    games = Game.objects.exclude(status=Game.Status.VOIDED).filter(board=board).order_by("-number")
    game = games.filter(number=game_number).first() if game_number is not None else games.first()
    if game is None:
        if game_number is None:
            raise conflict("board_not_seated", "Record the seating and the first dealer before hand 1.", board)
        raise conflict("stale_game", f"Game {game_number} is not the board's current game.", board)
    if game.status == Game.Status.FINISHED:
        raise conflict("game_over", f"Game {game.number} is over.", board)
    result = adapters.hand_score(adapters.rules_for_game(game), game.score, record, dealer=game.next_dealer)
    return {
        "game_number": game.number,
        "hand_number": game.last_hand_number + 1,
        "dealer": game.next_dealer,
        "score_before": list(game.score),
        "result": adapters.result_dict(result),
        "ends_game": result.winner is not None,
    }


# ---- undo (the tablet) --------------------------------------------------------------------------------
def _lock_live_games(board_id: int) -> list[Game]:
    """Lock the board's live games (in id order, the lock order everywhere); return them by number."""
    games = list(
        Game.objects.select_for_update(of=("self",)).filter(board_id=board_id).exclude(status=Game.Status.VOIDED)
        .order_by("id")
    )
    return sorted(games, key=lambda g: g.number)


def _reopen(game: Game, after_voiding: Hand) -> None:
    previous = (
        Hand.objects.filter(game=game, status=Hand.Status.ACTIVE, number__lt=after_voiding.number)
        .order_by("-number").first()
    )
    rules = adapters.rules_for_game(game)
    game.score = previous.score_after if previous else adapters.starting_score(rules)
    game.next_dealer = previous.next_dealer if previous else game.first_dealer
    game.last_hand_number = previous.number if previous else 0
    game.winner, game.status, game.ended_at = None, Game.Status.IN_PLAY, None
    game.save(update_fields=["score", "next_dealer", "last_hand_number", "winner", "status", "ended_at"])


@refusals_with_state
@transaction.atomic
def hand_undo(*, board: Board, hand_id: int, device: Device | None = None, user: Actor = None) -> Hand:
    """Void the board's last hand, named by id so a double tap cannot void two (a stack: repeatable).

    Reaches back across the end of a game only while that game is neither confirmed by anyone nor
    disputed, the next game has no hand and the round is open: the game reopens and the empty next game
    is voided. Refusals: 404 ``hand_not_found``, 409 ``hand_not_active``, ``not_last_hand``,
    ``undo_game_confirmed``, ``undo_game_disputed``, ``round_not_open``, ``stale_board``.
    """
    games = _lock_live_games(board.pk)
    board = Board.objects.select_related("round__tournament").get(pk=board.pk)
    round_ = board.round
    check_device(board, device, tournament_id=round_.tournament_id)
    check_round_open(board, round_)
    hand = Hand.objects.filter(pk=hand_id, game__board_id=board.pk).select_related("game").first()
    if hand is None:
        raise NotFound("hand_not_found", "No such hand on this board.")
    if hand.status != Hand.Status.ACTIVE or hand.game.status == Game.Status.VOIDED:
        raise conflict("hand_not_active", f"Hand {hand.number} of game {hand.game.number} was already undone or replaced.", board)
    if not games:
        raise conflict("not_last_hand", "Only the board's last hand can be undone.", board)
    current = games[-1]
    last = _last_active_hand(current)
    empty_next: Game | None = None
    if last is not None:
        if last.pk != hand.pk:
            raise conflict("not_last_hand", f"Only the last hand (hand {last.number} of game {current.number}) can be undone.", board)
        target = current
    else:
        target = next((g for g in games if g.pk == hand.game_id), current)
        previous_last = _last_active_hand(target) if len(games) >= 2 and target.pk == games[-2].pk else None
        if previous_last is None or previous_last.pk != hand.pk:
            raise conflict("not_last_hand", "Only the board's last hand can be undone.", board)
        empty_next = current
    crossing = target.status == Game.Status.FINISHED
    if crossing:
        words = list(GameConfirmation.objects.filter(game=target, cleared=False).values_list("agrees", flat=True))
        if any(not agrees for agrees in words):
            raise conflict("undo_game_disputed", f"Game {target.number} is disputed: the organiser rules on it.", board)
        if words or target.confirmed:
            raise conflict("undo_game_confirmed", f"Game {target.number} is confirmed: ask the organiser to correct it.", board)
    hand.status, hand.voided_at = Hand.Status.VOIDED, timezone.now()
    hand.save(update_fields=["status", "voided_at"])
    _reopen(target, hand)
    if empty_next is not None:
        empty_next.status, empty_next.ended_at = Game.Status.VOIDED, timezone.now()
        empty_next.save(update_fields=["status", "ended_at"])
    audit_record(action="hand.undo", obj=hand, tournament_id=round_.tournament_id, device=device, user=actor(user),
                 before=_hand_summary(hand, target.number), after={"status": hand.status, "game_reopened": crossing})
    if crossing:
        board_after_change(board)  # the reopened game had no confirmation: standings do not change
    public_change(round_.tournament_id, board_id=board.pk)
    return hand


# ---- rescoring later hands (corrections and voids) -------------------------------------------------------
@dataclasses.dataclass
class _Breaks(Exception):
    game_number: int
    hand: Hand
    reason: str


def _replay(games: list[Game]) -> tuple[set[int], set[int]]:
    """Rescore every active hand of the board's live games, in order, as recorded.

    Updates hands' derived fields and games' score, dealer, winner, status and last hand number; voids an
    empty game whose game before no longer ends. Raises ``_Breaks`` at the first hand that no longer fits. Returns the ids
    of changed games and of games that reopened.
    """
    by_game: dict[int, list[Hand]] = defaultdict(list)
    for h in Hand.objects.filter(game__in=games, status=Hand.Status.ACTIVE).order_by("number"):
        by_game[h.game_id].append(h)
    changed: set[int] = set()
    reopened: set[int] = set()
    previous: Game | None = None
    now = timezone.now()
    for game in games:
        hands = by_game[game.pk]
        if previous is not None and previous.status != Game.Status.FINISHED:
            if hands:
                raise _Breaks(game.number, hands[0], f"game {previous.number} no longer ends, so game {game.number} cannot have begun")
            game.status, game.ended_at, game.last_hand_number = Game.Status.VOIDED, now, 0
            game.save(update_fields=["status", "ended_at", "last_hand_number"])
            changed.add(game.pk)
            continue
        if previous is not None and game.first_dealer != previous.next_dealer:
            game.first_dealer = previous.next_dealer
            game.save(update_fields=["first_dealer"])
            changed.add(game.pk)
        last_number = hands[-1].number if hands else 0
        rules = adapters.rules_for_game(game)
        score: list[int] = adapters.starting_score(rules)
        dealer, winner, won_at = game.first_dealer, None, 0
        for h in hands:
            if winner is not None:
                raise _Breaks(game.number, h, f"game {game.number} now ends at hand {won_at}")
            if h.dealer != dealer:
                raise _Breaks(game.number, h, f"the dealer order breaks: seat {dealer} deals it now, not seat {h.dealer}")
            try:
                result = adapters.hand_score(rules, score, h.record, dealer=dealer)
            except ValidationFailed as exc:
                raise _Breaks(game.number, h, exc.message) from None
            fields = adapters.hand_fields(result)
            if any(getattr(h, k) != v for k, v in fields.items()):
                for k, v in fields.items():
                    setattr(h, k, v)
                h.save(update_fields=list(HAND_DERIVED_FIELDS))
                changed.add(game.pk)
            score, dealer, winner, won_at = fields["score_after"], fields["next_dealer"], fields["winner"], h.number
        if game.awarded:  # decided by the organiser when time was called: the award stands
            if game.last_hand_number != last_number:
                game.last_hand_number = last_number
                game.save(update_fields=["last_hand_number"])
            previous = game
            continue
        status = Game.Status.FINISHED if winner is not None else Game.Status.IN_PLAY
        if ((list(game.score), game.next_dealer, game.winner, game.status, game.last_hand_number)
                != (score, dealer, winner, status, last_number)):
            if game.status == Game.Status.FINISHED and status == Game.Status.IN_PLAY:
                reopened.add(game.pk)
            game.score, game.next_dealer, game.winner, game.status = score, dealer, winner, status
            game.last_hand_number = last_number
            game.ended_at = (game.ended_at or now) if winner is not None else None
            game.save(update_fields=["score", "next_dealer", "winner", "status", "ended_at", "last_hand_number"])
            changed.add(game.pk)
        previous = game
    return changed, reopened


def _after_rescore(board: Board, games: list[Game], changed: set[int], reopened: set[int]) -> None:
    """Clear confirmations of changed games, flag later rounds paired from them, derive results again."""
    round_ = board.round
    if reopened and round_.status == Round.Status.CLOSED:
        raise conflict("round_closed", "The change would reopen a game of a closed round.", board)
    was_confirmed = [g for g in games if g.pk in changed and g.confirmed]
    GameConfirmation.objects.filter(game_id__in=changed, cleared=False).update(cleared=True)
    Game.objects.filter(pk__in=changed, confirmed=True).update(confirmed=False)
    if was_confirmed:
        later = Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number).exclude(
            status=Round.Status.PENDING)
        if later.exists():
            later.update(needs_review=True)
            board.needs_review = True
            board.save(update_fields=["needs_review", "updated_at"])
    board_after_change(board)
    _enqueue_standings(round_.tournament_id)
    public_change(round_.tournament_id, board_id=board.pk, standings=True)


def _organiser_hand(hand: Hand, user: Actor) -> tuple[Board, list[Game], Hand]:
    board_id = Hand.objects.filter(pk=hand.pk).values_list("game__board_id", flat=True).first()
    if board_id is None:
        raise NotFound("hand_not_found", "No such hand.")
    games = _lock_live_games(board_id)
    board = Board.objects.select_related("round__tournament").get(pk=board_id)
    require_organiser(user, board.round.tournament_id)
    if board.round.tournament.status == Tournament.Status.FINISHED:
        raise conflict("tournament_finished", "The event is finished and its results are frozen: reopen the event "
                       "first to correct a hand.", board)
    if board.forfeited is not None:
        raise conflict("board_forfeited", "This board was forfeited: cancel the forfeit before correcting its hands.",
                       board)
    current = Hand.objects.select_related("game").get(pk=hand.pk)
    return board, games, current


def _check_version(board: Board, current: Hand, expected_version: int | None, *, required: bool) -> None:
    if expected_version is None:
        if required:
            raise PreconditionRequired("version_required", "Send the version of the hand you corrected (If-Match).")
        return
    if current.status == Hand.Status.SUPERSEDED or current.version != expected_version:
        latest = Hand.objects.filter(game_id=current.game_id, number=current.number, status=Hand.Status.ACTIVE).first()
        version = latest.version if latest else current.version
        raise conflict("stale_version", f"Hand {current.number} is at version {version}, not {expected_version}.",
                       board, cls=PreconditionFailed)


def _refuse_break(board: Board, brk: _Breaks) -> Conflict:
    where = f"games[{brk.game_number}].hands[{brk.hand.number}]"
    message = (f"Hand {brk.hand.number} of game {brk.game_number} no longer fits: {brk.reason}. "
               "Void the hands that no longer fit first.")
    return conflict("correction_breaks_later_hands", message, board, fields={where: brk.reason})  # type: ignore[return-value]


def _same_record(record: Mapping[str, Any], stored: Any) -> bool:
    """The submitted record is the stored one (as JSON: key order and tuples vs lists do not matter)."""
    return json.loads(json.dumps(record, sort_keys=True)) == json.loads(json.dumps(stored, sort_keys=True))


@refusals_with_state
@transaction.atomic
def hand_correct(
    *, hand: Hand, record: Mapping[str, Any], expected_version: int | None, user: Actor, void_from: Hand | None = None,
) -> Hand:
    """The organiser replaces a hand by a new version (same dealer); later hands are rescored as recorded.

    A record equal to the one stored changes nothing (the hand is returned as it is).
    ``void_from`` (a later hand of the same board) is voided first, with every hand after it, in the same
    transaction: how the organiser clears the hands a correction breaks (all or nothing).

    ``expected_version`` is the version the organiser saw (If-Match): missing 428 ``version_required``,
    stale 412 ``stale_version``. A later hand that no longer fits refuses the correction (409
    ``correction_breaks_later_hands``, naming it). Clears the confirmations of the games it changes;
    if a later round was paired from a changed confirmed result, that round and this board get
    ``needs_review`` (history is not rewritten).
    """
    if void_from is not None:
        if void_from.game.board_id != hand.game.board_id or void_from.pk == hand.pk:
            raise ValidationFailed("void_from_invalid", "Only a later hand of the same board can be voided with it.",
                                   fields={"void_from": "a later hand of this board"})
        hand_void(hand=void_from, user=user, with_later=True)
    board, games, current = _organiser_hand(hand, user)
    _check_version(board, current, expected_version, required=True)
    if current.status == Hand.Status.VOIDED:
        raise conflict("hand_not_active", f"Hand {current.number} was voided.", board)
    game = next((g for g in games if g.pk == current.game_id), None)
    if game is None:
        raise conflict("hand_not_active", f"Game {current.game.number} was voided.", board)
    if void_from is None and _same_record(record, current.record):
        return current  # the record already stored: no version, no cleared confirmation, no review flag
    before = (Hand.objects.filter(game=game, status=Hand.Status.ACTIVE, number__lt=current.number)
              .order_by("-number").first())
    rules = adapters.rules_for_game(game)
    score = before.score_after if before else adapters.starting_score(rules)
    if isinstance(record, Mapping) and record.get("dealer") != current.dealer:
        message = f"A correction keeps the dealer: seat {current.dealer} dealt hand {current.number}."
        raise ValidationFailed("wrong_dealer", message, fields={"hand.dealer": message})
    result = adapters.hand_score(rules, score, record, dealer=current.dealer)
    current.status = Hand.Status.SUPERSEDED
    current.save(update_fields=["status"])
    new = Hand.objects.create(
        game=game, number=current.number, record=record, form=adapters.record_form(record), dealer=current.dealer,
        version=current.version + 1, supersedes=current, user=actor(user), **adapters.hand_fields(result),
    )
    try:
        changed, reopened = _replay(games)
    except _Breaks as brk:
        raise _refuse_break(board, brk) from None
    changed.add(game.pk)
    _after_rescore(board, games, changed, reopened)
    audit_record(action="hand.correct", obj=new, tournament_id=board.round.tournament_id, user=actor(user),
                 before={"hand_id": current.pk, "version": current.version, "record": current.record},
                 after={"hand_id": new.pk, "version": new.version, "record": new.record,
                        "rescored_games": sorted(changed)})
    return new


@refusals_with_state
@transaction.atomic
def hand_void(*, hand: Hand, user: Actor, expected_version: int | None = None, with_later: bool = False) -> Hand:
    """The organiser voids a hand (kept, marked voided); later hands are rescored as after a correction.

    ``with_later`` also voids every later hand of the board (this game's and the later games'), the usual
    way to clear hands that no longer fit. Refusals as for ``hand_correct``.
    """
    board, games, current = _organiser_hand(hand, user)
    _check_version(board, current, expected_version, required=False)
    if current.status != Hand.Status.ACTIVE or not any(g.pk == current.game_id for g in games):
        raise conflict("hand_not_active", f"Hand {current.number} was already voided or replaced.", board)
    game_number = next(g.number for g in games if g.pk == current.game_id)
    now = timezone.now()
    voided = [current.pk]
    if with_later:
        later_games = [g.pk for g in games if g.number > game_number]
        voided += list(
            Hand.objects.filter(status=Hand.Status.ACTIVE)
            .filter(Q(game_id=current.game_id, number__gt=current.number) | Q(game_id__in=later_games)).values_list("pk", flat=True)
        )
    Hand.objects.filter(pk__in=voided).update(status=Hand.Status.VOIDED, voided_at=now)
    try:
        changed, reopened = _replay(games)
    except _Breaks as brk:
        raise _refuse_break(board, brk) from None
    changed.add(current.game_id)
    changed.update(Hand.objects.filter(pk__in=voided).order_by().values_list("game_id", flat=True))
    _after_rescore(board, games, changed, reopened)
    audit_record(action="hand.void", obj=current, tournament_id=board.round.tournament_id, user=actor(user),
                 before={"hand_id": current.pk, "version": current.version},
                 after={"voided": sorted(voided), "rescored_games": sorted(changed)})
    current.refresh_from_db()
    return current


__all__ = ["hand_correct", "hand_preview", "hand_submit", "hand_undo", "hand_void"]
