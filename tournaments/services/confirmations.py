"""Confirmation per game, disputes and bulk confirmation (docs/decisions.md); closing a round is
``closing.py``.

When a game ends each pair confirms it on the tablet (one tap naming its side, trusted as the table's
word), or the organiser confirms it. One uncleared row per party per game (a partial unique constraint);
a correction clears rows (``cleared``) rather than deleting them. A game counts once both pairs or the
organiser agreed. A pair that refuses puts the board in dispute until the organiser rules: by confirming
the game, or by correcting or voiding hands (which clears the game's confirmations).
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction

from tournaments.actors import Actor
from tournaments.models import Board, Device, Game, GameConfirmation, Round

from ._common import (
    STANDINGS_TASK,
    actor,
    check_device,
    conflict,
    refusals_with_state,
    require_organiser,
)
from .audit import audit_record
from .boards import board_after_change, confirmation_view
from .errors import NotAllowed, NotFound, ValidationFailed
from .outbox import outbox_enqueue
from .publication import public_change

PARTIES = tuple(GameConfirmation.Party.values)


def _counts(words: dict[str, bool]) -> bool:
    """A game counts once the organiser agreed, or both pairs did."""
    return bool(words.get("organiser") or (words.get("a") and words.get("b")))


def _confirm_locked(
    game: Game, *, party: str, agrees: bool, reason: str, device: Device | None, user: Actor,
    rows: list[GameConfirmation] | None = None,
) -> GameConfirmation:
    """Record one party's word on a locked, finished game; set ``game.confirmed``. No refresh.

    ``rows``: the uncleared confirmations of the game (or of its whole board), already read under the lock;
    the new row is added to it, so the caller can derive the board without reading them again.
    """
    if rows is None:
        rows = list(GameConfirmation.objects.filter(game=game, cleared=False))
    existing = {c.party: c for c in rows if c.game_id == game.pk}
    mine = existing.get(party)
    if mine is not None:
        if mine.agrees == agrees:
            mine.game = game
            return mine  # the same word twice is one word
        if party != GameConfirmation.Party.ORGANISER:
            raise conflict("party_already_answered",
                           f"Pair {party.upper()} already {'confirmed' if mine.agrees else 'refused'} game {game.number}.",
                           game.board)
    row = GameConfirmation(game=game, party=party, agrees=agrees, reason=reason[:300], device=device, user=actor(user))
    if connection.vendor == "postgresql":
        # the game's row is locked (every caller locks it first), so a second tap of the same party waits
        # and then, at READ COMMITTED, finds this row above: the partial unique constraint cannot fire, no
        # savepoint is needed
        row.save(force_insert=True)
    else:
        try:
            with transaction.atomic():
                row.save(force_insert=True)
        except IntegrityError:  # a concurrent tap of the same party won: its row is the answer
            return GameConfirmation.objects.get(game=game, party=party, cleared=False)
    rows.append(row)
    words = {p: c.agrees for p, c in existing.items() if c.agrees}
    if agrees:
        words[party] = True
    confirmed = _counts(words)
    if confirmed != game.confirmed:
        game.confirmed = confirmed
        game.save(update_fields=["confirmed"])
    return row


@refusals_with_state
@transaction.atomic
def game_confirm(
    *, game: Game, party: str, agrees: bool = True, reason: str = "",
    device: Device | None = None, user: Actor = None,
) -> GameConfirmation:
    """One party's word on a finished game: pair ``"a"``, pair ``"b"`` or the ``"organiser"``.

    ``agrees=False`` (pairs only, with a reason) is a refusal: the board is in dispute until the
    organiser rules. The same word again is answered with the row already there. Refusals: 400
    ``party_invalid``, ``organiser_cannot_refuse``; 403 ``not_your_board``, ``not_organiser``; 409
    ``game_not_finished``, ``party_already_answered``.
    """
    if party not in PARTIES:
        raise ValidationFailed("party_invalid", "The party is a, b or organiser.", fields={"party": "a, b or organiser"})
    # Lock every game of the board, in id order (the lock order everywhere), not only this one: a hand
    # ending the board's current game writes the board's result too, and this confirmation must see it
    # rather than write over it with what it read before that hand committed.
    board_games = list(Game.objects.select_for_update(of=("self",)).filter(board_id=game.board_id).order_by("id"))
    locked = next((g for g in board_games if g.pk == game.pk), None)
    if locked is None:
        raise NotFound("game_not_found", "No such game.")
    game = locked
    # Board and round are read after the lock in a statement of their own: rows joined to the locking
    # query would keep the snapshot from before a lock wait, e.g. a round closed meanwhile.
    board = Board.objects.select_related("round__tournament", "team_match").get(pk=game.board_id)
    game.board = board
    tournament_id = board.round.tournament_id
    if party == GameConfirmation.Party.ORGANISER:
        require_organiser(user, tournament_id)
        if not agrees:
            raise ValidationFailed("organiser_cannot_refuse",
                                   "The organiser rules by confirming, correcting or voiding hands.",
                                   fields={"agrees": "the organiser confirms"})
    else:
        if device is None and user is not None:
            require_organiser(user, tournament_id)  # an organiser may record a pair's word for it
        check_device(board, device, tournament_id=tournament_id)
        if device is None and user is None:
            raise NotAllowed("not_your_board", "A pair confirms from its table's tablet.")
    if game.status != Game.Status.FINISHED:
        raise conflict("game_not_finished", f"Game {game.number} is not over yet.", board)
    # the board's words, read once: this game's for the confirmation, all of them for the board's dispute flag
    words = list(GameConfirmation.objects.filter(game__board_id=board.pk, cleared=False).order_by())
    row = _confirm_locked(game, party=party, agrees=agrees, reason=reason, device=device, user=user, rows=words)
    audit_record(action="game.confirm" if agrees else "game.refuse", obj=game, tournament_id=tournament_id,
                 device=device, user=actor(user),
                 after={"party": party, "agrees": agrees, "reason": reason, "confirmed": game.confirmed})
    # the board and its team match (whose hang jacks count confirmed games), from the words in hand; the games
    # are read again: a hand that ended the game this lock waited on created the next game, which the
    # locking statement's snapshot, taken before the wait, does not hold
    board_after_change(board, parties=confirmation_view(board, ((w.game_id, w.party, w.agrees) for w in words)))
    outbox_enqueue(STANDINGS_TASK, [tournament_id], coalesce_key=f"standings:{tournament_id}")
    public_change(tournament_id, board_id=board.pk, standings=True)
    return row


def _round_games(round_: Round) -> list[Game]:
    return list(
        Game.objects.select_for_update(of=("self",)).filter(board__round=round_).exclude(status=Game.Status.VOIDED)
        .order_by("id")
    )


def _disputed_games(games: list[Game]) -> set[int]:
    words: dict[int, dict[str, bool]] = {}
    for game_id, party, agrees in GameConfirmation.objects.filter(game__in=games, cleared=False).values_list(
            "game_id", "party", "agrees"):
        entry = words.setdefault(game_id, {})
        entry["refused" if not agrees else party] = True
    return {gid for gid, w in words.items() if w.get("refused") and not w.get("organiser")}


def _confirm_finished(games: list[Game], user: Actor, skip: set[int]) -> int:
    count = 0
    for game in games:
        if game.status == Game.Status.FINISHED and not game.confirmed and game.pk not in skip:
            _confirm_locked(game, party="organiser", agrees=True, reason="", device=None, user=user)
            count += 1
    return count


@refusals_with_state
@transaction.atomic
def round_confirm_all(*, round: Round, user: Actor) -> int:  # noqa: A002
    """The organiser confirms every finished, unconfirmed game of the round in one go.

    Disputed games are left alone (each needs a ruling); returns how many games were confirmed.
    """
    round_ = round
    require_organiser(user, round_.tournament_id)
    games = _round_games(round_)
    count = _confirm_finished(games, user, _disputed_games(games))
    if count:
        for board in Board.objects.filter(round=round_, pair_b__isnull=False).select_related("round__tournament"):
            board_after_change(board)
        audit_record(action="round.confirm_all", obj=round_, tournament_id=round_.tournament_id, user=actor(user),
                     after={"confirmed": count})
        outbox_enqueue(STANDINGS_TASK, [round_.tournament_id], coalesce_key=f"standings:{round_.tournament_id}")
        public_change(round_.tournament_id, round_number=round_.number, standings=True)
    return count


def games_confirm_finished(*, games: list[Game], user: Actor) -> int:
    """Confirm, as the organiser, the finished games of ``games`` not yet confirmed (locked by the caller):
    how many. A forfeit keeps the games played (services/field.py)."""
    return _confirm_finished(games, user, set())


def games_disputed(games: list[Game]) -> set[int]:
    """The ids of ``games`` a pair refused and the organiser has not ruled on."""
    return _disputed_games(games)


__all__ = ["game_confirm", "games_confirm_finished", "games_disputed", "round_confirm_all"]
