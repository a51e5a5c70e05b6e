"""Results from paper (docs/adr/0012-result-source.md): a game's final score and hang jacks typed from a chalk
sheet (``paper_game``), or a fixture's totals only (``match_totals``), each checked for plausibility by the
engine's rules and marked with who typed it. The organiser's entry counts as confirmed; a captain's waits for
the other captain (or the organiser). Standings count a paper result once it is confirmed.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import adapters
from tournaments.actors import Actor
from tournaments.models import Board, EnteredAs, Game, Hand, TeamMatch

from .._common import actor, is_organiser
from ..audit import audit_record
from ..boards import board_after_change, tournament_rules_dict
from ..errors import Conflict, NotAllowed, NotFound, ValidationFailed
from ..system import is_system
from ._base import describe_fixture, entered_as, fixture_or_404, may_confirm, standings_changed, whole_pair
from .plausible import check_game, check_match

Status = TeamMatch.Status


def _board_for_paper(board: Board | int) -> Board:
    pk = board if isinstance(board, int) else board.pk
    found = Board.objects.select_related("round__tournament", "team_match").filter(pk=pk).first()
    if found is None:
        raise NotFound("board_not_found", "No such board.")
    return found


def _capacity(user: Actor, board: Board) -> str:
    """Organiser (or ``SYSTEM``), or a captain of the board's fixture (403 ``not_captain`` / ``not_organiser``;
    ``None`` is refused)."""
    if board.team_match is not None:
        board.team_match.round = board.round
        return entered_as(user, board.team_match)
    if is_system(user) or is_organiser(user, board.round.tournament_id):
        return EnteredAs.ORGANISER
    raise NotAllowed("not_organiser", "Only the organiser enters this board's games from paper.")


def _after_games_changed(board: Board) -> None:
    """Refresh the board and its fixture; a board whose every live game is from paper says so; a decided
    fixture is played."""
    live = list(Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED).values_list("result_source", flat=True))
    source = Board.Source.PAPER_GAME if live and all(s == Game.Source.PAPER_GAME for s in live) else Board.Source.HANDS
    if board.forfeited is None and board.result_source != source:
        board.result_source = source
        board.save(update_fields=["result_source", "updated_at"])
    board_after_change(board)
    if board.team_match_id:
        match = TeamMatch.objects.get(pk=board.team_match_id)
        if match.decided and match.status == Status.SCHEDULED:
            match.status = Status.PLAYED
            match.save(update_fields=["status"])
    standings_changed(board.round.tournament_id)


@transaction.atomic
def paper_game_enter(*, board: Board | int, user: Actor, score: Sequence[int], hang_jacks: Sequence[int],
                     kicks: Sequence[int] | None = None, game_counts: Sequence[int] | None = None) -> Game:
    """The board's next game from a chalk sheet: its final ``score`` (side 0, side 1 of the board),
    ``hang_jacks`` per side and, when the sheet has them, ``kicks`` (kicks that scored) and ``game_counts``
    (hands whose Game point each side took). Checked by ``plausible.check_game`` under the event's rules
    (400 ``implausible_result``). An empty game a tablet opened is set aside for it. Refusals: 409
    ``match_decided`` (the board needs no more games), ``game_in_play`` (a tablet is scoring the current game),
    ``board_forfeited``, ``not_a_board_of_play`` (a bye), ``fixture_void``, ``result_is_totals``; 403
    ``not_captain``."""
    board = _board_for_paper(board)
    as_ = _capacity(user, board)
    if board.is_bye:
        raise ValidationFailed("not_a_board_of_play", "A bye has no games.", fields={"board": "a board with two pairs"})
    if board.forfeited is not None:
        raise Conflict("board_forfeited", "The board was forfeited: it has no more games.")
    match = board.team_match
    if match is not None and match.status == Status.VOID:
        raise Conflict("fixture_void", f"{describe_fixture(match)} is void.")
    if match is not None and match.result_source == TeamMatch.Source.MATCH_TOTALS:
        raise Conflict("result_is_totals", "This fixture's result was entered as match totals.")
    games = list(Game.objects.select_for_update().filter(board=board).exclude(status=Game.Status.VOIDED).order_by("number"))
    board.refresh_from_db()
    if board.decided:
        raise Conflict("match_decided", "The board's match is decided: it needs no more games.")
    rules_spec = tournament_rules_dict(board.round.tournament)
    rules = adapters.rules_from_spec(rules_spec)
    figures = whole_pair(list(score), "score", high=999)
    hangs = whole_pair(list(hang_jacks), "hang_jacks", high=99)
    kick = whole_pair(list(kicks), "kicks", high=99) if kicks is not None else None
    counts = whole_pair(list(game_counts), "game_counts", high=99) if game_counts is not None else None
    assert figures is not None and hangs is not None
    winner = check_game(rules, figures, hangs, kick, counts)
    number = 1
    if games:
        last = games[-1]
        if last.status == Game.Status.IN_PLAY:
            if Hand.objects.filter(game=last, status=Hand.Status.ACTIVE).exists():
                raise Conflict("game_in_play", f"Game {last.number} is being scored from a tablet: finish or void it "
                               "first.")
            last.status, last.ended_at = Game.Status.VOIDED, timezone.now()
            last.save(update_fields=["status", "ended_at"])
            number = last.number
        else:
            number = last.number + 1
    confirmed = as_ == EnteredAs.ORGANISER
    who = actor(user)
    game = Game.objects.create(
        board=board, number=number, first_dealer=0, next_dealer=0, rules=rules_spec, score=list(figures),
        winner=winner, status=Game.Status.FINISHED, ended_at=timezone.now(), result_source=Game.Source.PAPER_GAME,
        hang_jacks_a=hangs[0], hang_jacks_b=hangs[1], kicks_a=kick[0] if kick else None, kicks_b=kick[1] if kick else None,
        game_counts_a=counts[0] if counts else None, game_counts_b=counts[1] if counts else None,
        entered_by=who, entered_as=as_, confirmed=confirmed, confirmed_by=who if confirmed else None,
        last_hand_number=0,
    )
    audit_record(action="game.paper_enter", obj=game, tournament_id=board.round.tournament_id, user=user,
                 after={"board": board.pk, "number": number, "score": list(figures), "hang_jacks": list(hangs),
                        "kicks": list(kick) if kick else None, "game_counts": list(counts) if counts else None,
                        "entered_as": as_})
    _after_games_changed(board)
    return game


def _paper_game(game: Game | int) -> Game:
    pk = game if isinstance(game, int) else game.pk
    found = Game.objects.select_for_update(of=("self",)).filter(pk=pk).select_related(
        "board__round__tournament", "board__team_match").first()
    if found is None or found.result_source != Game.Source.PAPER_GAME or found.status == Game.Status.VOIDED:
        raise NotFound("paper_game_not_found", "No such game entered from paper.")
    return found


@transaction.atomic
def paper_game_confirm(*, game: Game | int, user: Actor) -> Game:
    """The other captain's (or the organiser's) word on a game a captain entered: it counts from now. 403
    ``not_other_captain`` for the captain who entered it; 409 ``already_confirmed``."""
    game = _paper_game(game)
    board = game.board
    if board.team_match is not None:
        board.team_match.round = board.round
        as_ = may_confirm(user, board.team_match, game.entered_as)
    else:
        as_ = _capacity(user, board)
    if game.confirmed:
        raise Conflict("already_confirmed", "This game is confirmed already.")
    game.confirmed, game.confirmed_by = True, actor(user)
    game.save(update_fields=["confirmed", "confirmed_by"])
    audit_record(action="game.paper_confirm", obj=game, tournament_id=board.round.tournament_id, user=user,
                 after={"confirmed_as": as_})
    _after_games_changed(board)
    return game


@transaction.atomic
def paper_game_void(*, game: Game | int, user: Actor, reason: str) -> Game:
    """Set aside a game typed in error (the organiser; kept, voided): the board needs it again."""
    game = _paper_game(game)
    board = game.board
    if _capacity(user, board) != EnteredAs.ORGANISER:
        raise NotAllowed("not_organiser", "Only the organiser sets aside a game entered from paper.")
    if not reason.strip():
        raise ValidationFailed("reason_required", "Say why the game is set aside.", fields={"reason": "required"})
    game.status, game.ended_at = Game.Status.VOIDED, timezone.now()
    game.save(update_fields=["status", "ended_at"])
    audit_record(action="game.paper_void", obj=game, tournament_id=board.round.tournament_id, user=user,
                 after={"reason": reason})
    if board.team_match_id:
        TeamMatch.objects.filter(pk=board.team_match_id, status=Status.PLAYED).update(status=Status.SCHEDULED)
    _after_games_changed(board)
    return game


@transaction.atomic
def match_totals_enter(*, team_match: TeamMatch | int, user: Actor, games: Sequence[int], hang_jacks: Sequence[int],
                       played_on: datetime.date | None = None, time_called: bool = False,
                       entered_as_import: bool = False) -> TeamMatch:
    """A fixture's result known only by its totals: ``games`` (bullseyes) and ``hang_jacks`` per team (home,
    away). Checked by ``plausible.check_match`` (400 ``implausible_result``; ``time_called``: a race may end
    below N). The fixture becomes played with ``result_source`` ``match_totals``; seated boards without a
    game are left unplayed. The organiser may type it again (a correction); a captain may not change a
    confirmed result. Refusals: 409 ``match_has_games`` (enter its games instead), ``fixture_void``,
    ``result_confirmed``; 400 ``bye_has_no_result``; 403 ``not_captain``. ``entered_as_import`` marks the
    organiser's entry as an import's."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    as_ = entered_as(user, match)
    if match.team_b_id is None:
        raise ValidationFailed("bye_has_no_result", "A bye has no result to enter.", fields={"team_match": "a fixture"})
    if match.status == Status.VOID:
        raise Conflict("fixture_void", f"{describe_fixture(match)} is void.")
    if match.status == Status.WALKOVER:
        raise Conflict("fixture_has_result", f"{describe_fixture(match)} was a walkover.")
    if match.confirmed and as_ != EnteredAs.ORGANISER:
        raise Conflict("result_confirmed", "The result is confirmed: only the organiser changes it.")
    live = Game.objects.filter(board__team_match=match).exclude(status=Game.Status.VOIDED)
    if live.filter(status=Game.Status.FINISHED).exists() or Hand.objects.filter(
            game__board__team_match=match, status=Hand.Status.ACTIVE).exists():
        raise Conflict("match_has_games", "Games of this fixture are recorded: enter the rest of its games, not totals.")
    figures = whole_pair(list(games), "games", high=999)
    hangs = whole_pair(list(hang_jacks), "hang_jacks", high=999)
    assert figures is not None and hangs is not None
    rules = adapters.rules_from_spec(tournament_rules_dict(tournament))
    winner = check_match(match.format_value(), rules, figures, hangs, time_called=time_called)
    live.update(status=Game.Status.VOIDED, ended_at=timezone.now())
    before = {"games": [match.bullseyes_a, match.bullseyes_b], "hang_jacks": [match.hang_jacks_a, match.hang_jacks_b],
              "source": match.result_source} if match.result_source == TeamMatch.Source.MATCH_TOTALS else None
    confirmed = as_ == EnteredAs.ORGANISER
    who = actor(user)
    match.result_source, match.status = TeamMatch.Source.MATCH_TOTALS, Status.PLAYED
    match.bullseyes_a, match.bullseyes_b = figures
    match.hang_jacks_a, match.hang_jacks_b = hangs
    match.decided, match.winner = True, winner
    match.played_on = played_on or match.played_on
    match.entered_by, match.entered_at = who, timezone.now()
    match.entered_as = EnteredAs.IMPORT if entered_as_import and confirmed else as_
    match.confirmed, match.confirmed_by = confirmed, who if confirmed else None
    match.explanation = f"{figures[0]}-{figures[1]} bullseyes (match totals)" + (" (time called)" if time_called else "")
    match.save()
    audit_record(action="fixture.totals_enter", obj=match, tournament_id=tournament.pk, user=user, before=before,
                 after={"games": list(figures), "hang_jacks": list(hangs), "entered_as": match.entered_as,
                        "time_called": time_called})
    standings_changed(tournament.pk)
    return match


@transaction.atomic
def match_result_confirm(*, team_match: TeamMatch | int, user: Actor) -> TeamMatch:
    """The other captain's (or the organiser's) word on a fixture's result a captain entered: its totals, or
    every paper game of it still waiting. 403 ``not_other_captain``; 409 ``nothing_to_confirm``."""
    match = fixture_or_404(team_match)
    tournament = match.round.tournament
    changed: list[Any] = []
    if match.result_source == TeamMatch.Source.MATCH_TOTALS and not match.confirmed:
        may_confirm(user, match, match.entered_as)
        match.confirmed, match.confirmed_by = True, actor(user)
        match.save(update_fields=["confirmed", "confirmed_by"])
        changed.append("totals")
    else:
        waiting = list(Game.objects.filter(board__team_match=match, result_source=Game.Source.PAPER_GAME,
                                           status=Game.Status.FINISHED, confirmed=False).order_by("id"))
        for game in waiting:
            may_confirm(user, match, game.entered_as)
        for game in waiting:
            paper_game_confirm(game=game, user=user)
            changed.append(game.pk)
    if not changed:
        raise Conflict("nothing_to_confirm", "Nothing of this fixture waits for a confirmation.")
    audit_record(action="fixture.confirm", obj=match, tournament_id=tournament.pk, user=user, after={"confirmed": changed})
    standings_changed(tournament.pk)
    match.refresh_from_db()
    return match
