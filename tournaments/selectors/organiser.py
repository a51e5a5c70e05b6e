"""Organiser reads (the console): any tournament, round, board, game, hand or tablet, published or not.

Who may read is the caller's check (``web.permissions``); these only read. A lookup that finds nothing
raises the domain's ``NotFound``.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournaments import roles
from tournaments.actors import Actor
from tournaments.errors import NotFound
from tournaments.models import Board, Device, Game, Hand, Round, Tournament, TournamentRole

# ---- tournaments and rounds ----------------------------------------------------------------------


def tournament_by_slug(slug: str) -> Tournament:
    """The tournament with this slug, published or not."""
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise NotFound(message="No such tournament") from None


def has_role(user: Actor, tournament: Tournament) -> bool:
    """Whether ``user`` holds a role (organiser, co-organiser, scorekeeper) on the tournament."""
    return TournamentRole.objects.filter(user=user, tournament=tournament).exists()


def role_on(user: Actor, tournament: Tournament | int) -> str | None:
    """``user``'s role on the tournament (``TournamentRole.Role`` value), ``roles.STAFF`` for staff, or None
    (anonymous, or no role). What it allows is ``tournaments.roles.POLICY``'s business."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return roles.STAFF
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    role: str | None = (
        TournamentRole.objects.filter(user=user, tournament_id=tournament_id).values_list("role", flat=True).first()
    )
    return role


def organised_tournaments(user: Actor, *, every: bool = False) -> list[Tournament]:
    """The tournaments ``user`` holds a role on (``every``: all of them, for staff), newest first."""
    qs = Tournament.objects.all() if every else Tournament.objects.filter(roles__user=user).distinct()
    return list(qs.order_by("-starts_on", "name"))


def tournament_rounds(tournament: Tournament) -> list[Round]:
    """Every round of the tournament, whatever its status, in order."""
    return list(tournament.rounds.order_by("number"))


def round_to_run(tournament: Tournament) -> Round | None:
    """The round the organiser works on: the first that is not closed, else the last one."""
    rounds = tournament_rounds(tournament)
    open_rounds = [r for r in rounds if r.status != Round.Status.CLOSED]
    return open_rounds[0] if open_rounds else (rounds[-1] if rounds else None)


def round_number_taken(tournament: Tournament, number: int) -> bool:
    return tournament.rounds.filter(number=number).exists()


def tournament_round(tournament: Tournament, number: int) -> Round:
    """The tournament's round with this number, whatever its status."""
    try:
        return tournament.rounds.get(number=number)
    except Round.DoesNotExist:
        raise NotFound(message="No such round") from None


def round_tables(round_: Round) -> list[int]:
    """The round's table numbers in order (a bye has none)."""
    return sorted(t for t in round_.boards.values_list("table", flat=True) if t)


# ---- boards, games and hands ---------------------------------------------------------------------


def tournament_board(tournament: Tournament, board_id: int) -> Board:
    """A board of any round of the tournament, with its round, pairs, players and clubs."""
    try:
        return Board.objects.select_related(
            "round", "pair_a__pair__player_1", "pair_a__pair__player_2", "pair_a__pair__club",
            "pair_b__pair__player_1", "pair_b__pair__player_2", "pair_b__pair__club",
        ).get(id=board_id, round__tournament=tournament)
    except Board.DoesNotExist:
        raise NotFound(message="No such board") from None


def board_game(board: Board, game_id: int) -> Game:
    try:
        return board.games.get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound(message="No such game") from None


def board_hand(board: Board, hand_id: int) -> Hand:
    """A hand of the board (any version, any status), with its game."""
    try:
        return Hand.objects.select_related("game").get(id=hand_id, game__board=board)
    except Hand.DoesNotExist:
        raise NotFound(message="No such hand") from None


def active_hands(board: Board) -> QuerySet[Hand]:
    """The board's active hands (every game), with their games."""
    return Hand.objects.filter(game__board=board, status=Hand.Status.ACTIVE).select_related("game")


def active_hand_at(board: Board, game_number: int, hand_number: int) -> Hand | None:
    """The active hand with this number in the board's game with this number (not a voided game)."""
    return (
        Hand.objects.filter(game__board=board, game__number=game_number, number=hand_number, status=Hand.Status.ACTIVE)
        .exclude(game__status=Game.Status.VOIDED)
        .select_related("game").first()
    )


def active_version(hand: Hand) -> Hand | None:
    """The active version of the hand with this number (itself unless corrected meanwhile), or None."""
    return Hand.objects.filter(game_id=hand.game_id, number=hand.number, status=Hand.Status.ACTIVE).first()


def results_games(tournament: Tournament) -> QuerySet[Game]:
    """Every game of the tournament (voided games left out) in playing order, with its board, round and
    pairs, and ``hands_n``: its active hands."""
    return (
        Game.objects.filter(board__round__tournament=tournament)
        .exclude(status=Game.Status.VOIDED)
        .select_related("board__round", "board__pair_a__pair", "board__pair_b__pair")
        .annotate(hands_n=Count("hands", filter=Q(hands__status=Hand.Status.ACTIVE)))
        .order_by("board__round__number", "board__table", "number")
    )


# ---- tablets -------------------------------------------------------------------------------------


def tournament_devices(tournament: Tournament) -> QuerySet[Device]:
    """The tournament's tablets by table, the latest paired first."""
    return Device.objects.filter(tournament=tournament).order_by("table", "-paired_at")


def tournament_device(tournament: Tournament, device_id: int) -> Device:
    try:
        return Device.objects.get(id=device_id, tournament=tournament)
    except Device.DoesNotExist:
        raise NotFound(message="No such device") from None
