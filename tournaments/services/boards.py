"""Boards: seating before hand 1, help calls, and the derived results of a board and of a team match.

Results are derived, never typed: ``board_results_refresh`` reads the board's games and writes the
board's fields; ``team_match_refresh`` totals bullseyes over a team match's boards. Both also keep the
board's games in step with its match: they open the next game while the match needs one (its first
dealer is the engine's ``next_dealer`` after the game before) and void an empty game the match no longer
needs. Counting (docs/decisions.md): decided/winner/draw follow the submitted (finished) games; bullseyes,
chalks and hang jacks on the board count confirmed games only (what standings use); ``all_confirmed``
says every game that counts for the match is confirmed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import adapters
from tournaments.actors import Actor
from tournaments.formats import (
    MatchFormat,
    MatchKind,
    MatchOutcome,
    TeamFormat,
    TeamKind,
    forfeit_games,
    match_outcome,
    team_match_decision,
)
from tournaments.models import Board, Device, Game, GameConfirmation, Hand, Round, TeamMatch, Tournament

from ._common import OPEN_ROUND_STATUSES, actor, check_device, check_round_open, conflict, refusals_with_state
from .audit import audit_record
from .errors import ValidationFailed


def board_format(board: Board) -> MatchFormat:
    """The format copied onto the board when it was seated."""
    return board.format_value()


def team_format(team_match: TeamMatch) -> TeamFormat:
    """The team format copied onto the team match."""
    return team_match.format_value()


# ---- seating and help ------------------------------------------------------------------------------------
def _seat_key(key: Any) -> int | None:
    try:
        seat = int(key)
    except (TypeError, ValueError):
        return None
    return seat if str(seat) == str(key).strip() else None


def _check_seating(board: Board, seating: Mapping[Any, Any]) -> dict[str, int]:
    # Who plays for each entry in this round: its recorded players, with its substitutes from this round.
    number = board.round.number
    pairs = {side: None if entry is None else {p.pk for p, _ in entry.players_in_round(number)}
             for side, entry in ((0, board.pair_a), (1, board.pair_b if board.pair_b_id else None))}
    out: dict[str, int] = {}
    errors: dict[str, str] = {}
    for key, player_id in seating.items():
        seat = _seat_key(key)
        if seat is None or not 0 <= seat <= 3:
            errors[f"seating.{key}"] = "seats are 0, 1, 2 and 3"
            continue
        if not isinstance(player_id, int) or isinstance(player_id, bool):
            errors[f"seating.{seat}"] = "a player id"
            continue
        pair = pairs[seat % 2]
        if pair is None or player_id not in pair:
            which = "A" if seat % 2 == 0 else "B"
            errors[f"seating.{seat}"] = f"seat {seat} belongs to pair {which}: one of its two players"
            continue
        out[str(seat)] = player_id
    if not errors:
        if sorted(out) != ["0", "1", "2", "3"]:
            errors["seating"] = "name the player in each of the four seats"
        elif out["0"] == out["2"] or out["1"] == out["3"]:
            errors["seating"] = "partners sit opposite: each player in one seat"
    if errors:
        raise ValidationFailed("seating_invalid", "The seating does not fit the board's pairs.", fields=errors)
    return out


def tournament_rules_dict(tournament: Tournament) -> dict[str, Any]:
    """The tournament's fully resolved rule options (stored, or resolved from its rules now)."""
    return dict(tournament.rules_resolved) if tournament.rules_resolved else adapters.rules_resolved(tournament.rules)


@refusals_with_state
@transaction.atomic
def board_seat(
    *, board: Board, seating: Mapping[Any, Any] | None, first_dealer: int,
    device: Device | None = None, user: Actor = None,
) -> Board:
    """Record before hand 1 which player sits in each seat and the first dealer after the cut.

    Opens game 1 (with the tournament's resolved rules). Seating again is allowed until hand 1.
    """
    games = list(Game.objects.select_for_update(of=("self",)).filter(board_id=board.pk).order_by("id"))
    board = Board.objects.select_for_update(of=("self",)).select_related("pair_a__pair", "pair_b__pair").get(pk=board.pk)
    # The round is read after the locks, in a statement of its own: rows joined to a locking query keep
    # the snapshot from before a lock wait (the round may have closed meanwhile).
    round_ = Round.objects.select_related("tournament").get(pk=board.round_id)
    board.round = round_
    check_device(board, device, tournament_id=round_.tournament_id)
    check_round_open(board, round_)
    if board.is_bye:
        raise conflict("bye_board", "A bye has no table to seat.", board)
    if Hand.objects.filter(game__board=board, status=Hand.Status.ACTIVE).exists():
        raise conflict("board_started", "The board has started: the seating is fixed once hand 1 is in.", board)
    rules_dict = games[0].rules if games else tournament_rules_dict(round_.tournament)
    players = adapters.rules_from_spec(rules_dict).players
    if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < players:
        raise ValidationFailed("first_dealer_invalid", f"The first dealer is a seat from 0 to {players - 1}.",
                               fields={"first_dealer": f"a seat from 0 to {players - 1}"})
    checked = _check_seating(board, seating) if seating is not None else None
    before = {"seating": board.seating, "first_dealer": board.first_dealer}
    board.seating = checked
    board.first_dealer = first_dealer
    board.save(update_fields=["seating", "first_dealer", "updated_at"])
    live = [g for g in games if g.status != Game.Status.VOIDED]
    if live:
        game = live[0]
        game.first_dealer = game.next_dealer = first_dealer
        game.save(update_fields=["first_dealer", "next_dealer"])
    else:
        rules = adapters.rules_from_spec(rules_dict)
        Game.objects.create(board=board, number=1, first_dealer=first_dealer, next_dealer=first_dealer,
                            rules=rules_dict, score=adapters.starting_score(rules))
    audit_record(action="board.seat", obj=board, tournament_id=round_.tournament_id, before=before,
                 after={"seating": checked, "first_dealer": first_dealer}, device=device, user=actor(user))
    return board


def _help(board: Board, value: bool, device: Device | None, user: Actor) -> Board:
    board = Board.objects.select_for_update(of=("self",)).get(pk=board.pk)
    board.round = Round.objects.get(pk=board.round_id)  # read after the lock (see board_seat)
    check_device(board, device, tournament_id=board.round.tournament_id)
    if value:
        check_round_open(board, board.round)
    if board.help_called != value:
        board.help_called = value
        board.save(update_fields=["help_called", "updated_at"])
        audit_record(action="board.call_help" if value else "board.help_clear", obj=board,
                     tournament_id=board.round.tournament_id, after={"help_called": value},
                     device=device, user=actor(user))
    return board


@refusals_with_state
@transaction.atomic
def board_call_help(*, board: Board, device: Device | None = None, user: Actor = None) -> Board:
    """The table calls the organiser (a flag beside the board's status). Calling twice is one call."""
    return _help(board, True, device, user)


@refusals_with_state
@transaction.atomic
def board_help_clear(*, board: Board, device: Device | None = None, user: Actor = None) -> Board:
    """The call for help is answered (by the organiser or the table)."""
    return _help(board, False, device, user)


# ---- derived results ------------------------------------------------------------------------------------
def confirmation_view(
    board: Board, words: Iterable[tuple[int, str, bool]] | None = None,
) -> dict[int, dict[str, bool]]:
    """Per game id: which parties agree, and whether a pair refused (uncleared rows only): read, or from
    ``words`` (the board's uncleared confirmations as (game id, party, agrees), already read)."""
    view: dict[int, dict[str, bool]] = {}
    if words is None:
        words = GameConfirmation.objects.filter(game__board=board, cleared=False).order_by().values_list(
            "game_id", "party", "agrees")
    for game_id, party, agrees in words:
        entry = view.setdefault(game_id, {})
        if agrees:
            entry[party] = True
        else:
            entry["refused"] = True
    return view


def game_in_dispute(parties: Mapping[str, bool]) -> bool:
    """A pair refused and the organiser has not ruled by confirming."""
    return bool(parties.get("refused")) and not parties.get(GameConfirmation.Party.ORGANISER)


def board_results_refresh(
    board: Board, *, keep_games: bool = True, parties: dict[int, dict[str, bool]] | None = None,
) -> Board:
    """Derive the board's results from its games (call inside the change's transaction).

    Writes bullseyes, chalks and hang jacks per side (confirmed games that count), ``decided``,
    ``winner``, ``is_draw``, ``all_confirmed`` and ``disputed``; opens the next game while the match needs
    one and the round is open; voids an empty game the decided match no longer needs (``keep_games``
    False leaves the games alone: a team board waits for its team match's decision first).

    ``parties`` (``confirmation_view``'s answer, as the caller changed it) spares that read. The games are
    always read here, in a statement of their own: a locking read's snapshot misses a game that a hand
    committed while the lock waited (it created the next game).
    """
    round_ = board.round
    tournament = round_.tournament
    if board.is_bye:
        result = tournament.bye_policy_value().result.value
        board.decided, board.all_confirmed, board.disputed = True, True, False
        board.winner = 0 if result == "win" else (1 if result == "loss" else None)
        board.is_draw = result == "draw"
        board.save(update_fields=["decided", "winner", "is_draw", "all_confirmed", "disputed", "updated_at"])
        return board
    games = list(Game.objects.filter(board_id=board.pk).exclude(status=Game.Status.VOIDED).order_by("number"))
    finished = [g for g in games if g.status == Game.Status.FINISHED]
    fmt = board_format(board)
    race_decided = False
    if fmt.kind is MatchKind.RACE and board.team_match_id:
        race_decided = board.team_match.decided
    outcome = match_outcome(
        fmt, [g.winner for g in finished],
        knockout=tournament.is_knockout and not board.team_match_id,
        time_called=round_.status == Round.Status.CLOSED, race_decided=race_decided,
    )
    counted = finished[: outcome.counted]
    confirmed = [g for g in counted if g.confirmed]
    if parties is None:
        parties = confirmation_view(board)
    bullseyes, chalks, hangs = [0, 0], [0, 0], [0, 0]
    for g in confirmed:
        if g.winner is not None:
            bullseyes[g.winner] += 1
        for side in (0, 1):
            chalks[side] += int(g.score[side]) if len(g.score) > side else 0
    if confirmed:
        hands = Hand.objects.filter(game__in=confirmed, status=Hand.Status.ACTIVE).order_by()
        for events in hands.values_list("events", flat=True):
            for side, count in enumerate(adapters.hang_jacks(events)):
                hangs[side] += count
        for g in confirmed:  # a game from a chalk sheet has no hands: its hang jacks were typed
            if g.result_source == Game.Source.PAPER_GAME:
                hangs[0] += g.hang_jacks_a or 0
                hangs[1] += g.hang_jacks_b or 0
    if board.forfeited is not None:  # a forfeit (services/field.py): the kept games and the games awarded
        won = _forfeit_result(board, fmt, bullseyes, len(confirmed))
        board.decided, board.winner, board.is_draw = True, won, False
        board.all_confirmed, board.disputed = True, False
    else:
        board.decided, board.winner, board.is_draw = outcome.decided, outcome.winner, outcome.is_draw
        board.all_confirmed = outcome.decided and all(g.confirmed for g in counted)
        board.disputed = any(game_in_dispute(parties.get(g.pk, {})) for g in games)
    board.bullseyes_a, board.bullseyes_b = bullseyes
    board.chalks_a, board.chalks_b = chalks
    board.hang_jacks_a, board.hang_jacks_b = hangs
    board.save(update_fields=[
        "bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "decided",
        "winner", "is_draw", "all_confirmed", "disputed", "updated_at",
    ])
    if keep_games and board.forfeited is None:
        _keep_games_in_step(board, games, outcome, round_)
    return board


def _forfeit_result(board: Board, fmt: MatchFormat, bullseyes: list[int], played: int) -> int | None:
    """Add the games a forfeit awards to ``bullseyes`` (in place); the winning side, None when both
    pairs forfeited (two losses)."""
    if board.forfeited == Board.Forfeit.BOTH:
        return None
    winner = 1 - int(board.forfeited or 0)
    bullseyes[winner] += forfeit_games(fmt, bullseyes[winner], played)
    return winner


def _keep_games_in_step(board: Board, games: list[Game], outcome: MatchOutcome, round_: Round) -> None:
    if round_.status not in OPEN_ROUND_STATUSES or not games:
        return
    last = games[-1]
    if outcome.needs_game and last.status == Game.Status.FINISHED:
        rules = adapters.rules_from_spec(last.rules)
        Game.objects.create(board=board, number=last.number + 1, first_dealer=last.next_dealer,
                            next_dealer=last.next_dealer, rules=last.rules, score=adapters.starting_score(rules))
    elif outcome.decided:
        in_play = [g for g in games if g.status == Game.Status.IN_PLAY]
        if in_play:
            busy = set(Hand.objects.filter(game__in=in_play, status=Hand.Status.ACTIVE).order_by()
                       .values_list("game_id", flat=True))
            empty = [g.pk for g in in_play if g.pk not in busy]
            if empty:
                Game.objects.filter(pk__in=empty).update(status=Game.Status.VOIDED, ended_at=timezone.now())


def team_match_refresh(team_match: TeamMatch) -> TeamMatch:
    """Total the bullseyes of a team match's boards (submitted games) per club and decide it.

    ``games`` kind: decided once every board is decided; more bullseyes wins, level is a draw (in a
    knockout one more game on the first board decides). ``first_to_total`` N: decided the moment one club
    reaches N; the boards still in play stop (their in-play games no longer take hands). Every board of
    the match is refreshed when the decision changes.
    """
    if team_match.result_source == TeamMatch.Source.MATCH_TOTALS:  # typed totals: nothing to derive
        return team_match
    round_ = team_match.round
    tournament = round_.tournament
    boards = list(team_match.boards.select_related("round__tournament").order_by("slot", "id"))
    # A game's winner is a side of its board; sides alternate down a team match's boards, so the side is
    # turned into the club by whose line-up the board's pair A is in (totals are club A's, club B's).
    club_a_side = {b.pk: 1 if b.pair_a_id in team_match.lineup_b else 0 for b in boards}
    winners = (Game.objects.filter(board__team_match=team_match, status=Game.Status.FINISHED).order_by()
               .values_list("board_id", "winner"))
    forfeited = {b.pk: b for b in boards if b.forfeited is not None}
    totals = [0, 0]
    for board_id, w in winners:
        if w is not None and board_id not in forfeited:
            totals[0 if w == club_a_side[board_id] else 1] += 1
    for board in forfeited.values():  # a forfeited board counts its kept and awarded games
        for side, count in ((0, board.bullseyes_a), (1, board.bullseyes_b)):
            totals[0 if side == club_a_side[board.pk] else 1] += count
    fmt = team_format(team_match)
    was_decided = team_match.decided
    decision = team_match_decision(
        fmt, totals, boards_decided=all(b.decided for b in boards), knockout=tournament.is_knockout and bool(boards),
        time_called=round_.status == Round.Status.CLOSED, has_opponent=team_match.club_b_id is not None,
    )
    decided, winner = decision.decided, decision.winner
    if boards and len(forfeited) == len(boards) and not decided:  # every board forfeited (a team that did not come)
        lost = [0, 0]
        for board in boards:
            if board.forfeited in (0, 1):
                lost[0 if board.forfeited == club_a_side[board.pk] else 1] += 1
        decided, winner = True, (None if lost[0] == lost[1] else (1 if lost[0] > lost[1] else 0))
    if decision.needs_extra:
        _extra_game_on_first_board(boards[0])
    explanation = f"{totals[0]}-{totals[1]} bullseyes" + (" (level: a draw)" if decided and winner is None else "")
    hangs = [0, 0]  # the boards' hang jacks (confirmed games), per club
    for board in boards:
        for side, count in ((0, board.hang_jacks_a), (1, board.hang_jacks_b)):
            hangs[0 if side == club_a_side[board.pk] else 1] += count
    team_match.bullseyes_a, team_match.bullseyes_b = totals
    team_match.hang_jacks_a, team_match.hang_jacks_b = hangs
    team_match.decided, team_match.winner, team_match.explanation = decided, winner, explanation
    if team_match.team_b_id is not None and team_match.status in (TeamMatch.Status.SCHEDULED, TeamMatch.Status.PLAYED):
        team_match.status = TeamMatch.Status.PLAYED if decided else TeamMatch.Status.SCHEDULED  # a league fixture
    team_match.save(update_fields=["bullseyes_a", "bullseyes_b", "hang_jacks_a", "hang_jacks_b", "decided", "winner",
                                   "explanation", "status"])
    if fmt.kind is TeamKind.FIRST_TO_TOTAL and decided != was_decided:
        for board in boards:
            board.team_match = team_match
            board_results_refresh(board)
    return team_match


def _extra_game_on_first_board(board: Board) -> None:
    """A knockout team match level after every board: one more game on its first board decides."""
    fmt = board_format(board)
    if fmt.kind is not MatchKind.GAMES or fmt.extra:
        return
    played = Game.objects.filter(board=board, status=Game.Status.FINISHED).count()
    board.match_format = MatchFormat(MatchKind.GAMES, played + 1, extra=True).to_dict()
    board.save(update_fields=["match_format", "updated_at"])
    board_results_refresh(board)


def board_after_change(
    board: Board, *, race_check: bool = False, parties: dict[int, dict[str, bool]] | None = None,
) -> Board:
    """Refresh a board and its team match after its games changed, locking the team match first.

    With ``race_check``, a game finished on a board whose ``first_to_total`` race was already decided is
    refused (409 ``match_decided``): boards still in play stopped when the race ended. ``parties``: as
    ``board_results_refresh`` (its first derivation only: the team match's may clear or add words).
    """
    if board.team_match_id:
        team_match = TeamMatch.objects.select_for_update(of=("self",)).get(pk=board.team_match_id)
        team_match.round = board.round  # the board's round, read after its game locks
        is_race = team_format(team_match).kind is TeamKind.FIRST_TO_TOTAL
        if race_check and team_match.decided and is_race:
            raise conflict("match_decided", "The team match was decided: this board's play has stopped.", board)
        board.team_match = team_match
        board_results_refresh(board, keep_games=False, parties=parties)
        was_decided = team_match.decided
        team_match_refresh(team_match)
        if team_match.decided == was_decided or not is_race:
            board_results_refresh(board)  # the decision did not refresh the boards: open/void games now
    else:
        board_results_refresh(board, parties=parties)
    return board
