"""Helpers for tests/tournaments/test_services_closing.py (issue 14: the round clock, the close preview,
closing and reopening a round).

``ClosingEvent`` builds a Swiss of ten pairs (match format first to 2) whose round 1 is in play with five
boards, each in a state closing treats differently (the issue's example and the cases around it):

* table 1: game 1 at 6-7 (pair B ahead);
* table 2: pair A won game 1 (confirmed by the organiser), game 2 at 5-9 (pair B ahead);
* table 3: pair A won 2-0 by play, neither game confirmed (pair A's word on game 1 only);
* table 4: pair B won 2-0 by play, both games confirmed (closing leaves it alone);
* table 5: seated, no hand yet.

The snapshots below read every row closing may touch, so a test can compare them before and after.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.tournaments.factories import (
    current_game,
    make_device,
    make_entries,
    make_organiser,
    make_round,
    make_tournament,
    seat,
    submit,
    win_game,
)
from tournaments.models import (
    AuditEvent,
    Board,
    Entry,
    Game,
    GameConfirmation,
    Hand,
    OutboxMessage,
    Round,
    StandingsSnapshot,
    Tournament,
)
from tournaments.services import (
    game_confirm,
    round_close,
    round_close_preview,
    round_publish,
    round_start_play,
)

# ---- hands with easy scores (trinidad-tournament: High 1, Low 1, Jack 1, Game 2, target 14) ----------------
#: (High to, Low to, Game to, jack held and won by (None: no jack in play)) -> points (A, B)
A4 = (0, 0, 0, None)  # +4 / +0
B4 = (1, 1, 1, None)  # +0 / +4
A1_B3 = (0, 1, 1, None)  # +1 / +3
A1_B4 = (0, 1, 1, 1)  # +1 / +4 (B's own jack)
A4_B1 = (0, 0, 0, 1)  # +4 / +1 (B's own jack)
A2_B2 = (0, 0, 1, None)  # +2 / +2

#: Game 1 of table 1 stands at 6-7; game 2 of table 2 at 5-9.
SIX_SEVEN = (A4, A1_B4, A1_B3)
FIVE_NINE = (A1_B4, A4_B1, B4)


def hand(dealer: int, spec: tuple[int, int, int, int | None]) -> dict[str, Any]:
    """A tally hand: High (AH), Low (2H), the jack of hearts (held and won by one side) and Game as ``spec``."""
    high, low, game, jack = spec
    return {
        "dealer": dealer,
        "kicks": ["9H"],
        "beg": "stand",
        "high": {"side": high, "card": "AH"},
        "low": {"side": low, "card": "2H"},
        "jack": None if jack is None else {"held_by": jack, "won_by": jack},
        "game": [40, 20] if game == 0 else [20, 40],
    }


def play(board: Board, specs: Any) -> list[Hand]:
    """Submit ``specs`` as the next hands of the board's current game, the dealer rotating."""
    return [submit(board, hand(current_game(board).next_dealer, spec)) for spec in specs]


def fresh(obj: Any) -> Any:
    return type(obj).objects.get(pk=obj.pk)


def board_at(round_: Round, table: int) -> Board:
    return Board.objects.get(round=round_, table=table)


def game_of(board: Board, number: int) -> Game:
    """Game ``number`` of ``board`` (the latest row of that number, voided or not)."""
    return Game.objects.filter(board=board, number=number).order_by("-id").first()


def set_round_minutes(tournament: Tournament, minutes: int | None) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(round_minutes=minutes)
    return fresh(tournament)


class ClosingEvent:
    """Ten pairs, round 1 in play on five boards (see the module)."""

    def __init__(self, *, time_called: str = "void", round_minutes: int | None = None) -> None:
        self.tournament = set_round_minutes(make_tournament(time_called=time_called), round_minutes)
        self.organiser = make_organiser(self.tournament)
        self.entries: list[Entry] = make_entries(self.tournament, 10)
        e = self.entries
        self.round = make_round(self.tournament, [(e[0], e[1]), (e[2], e[3]), (e[4], e[5]), (e[6], e[7]),
                                                  (e[8], e[9])])
        self.t1, self.t2, self.t3, self.t4, self.t5 = (seat(board_at(self.round, t)) for t in range(1, 6))
        play(self.t1, SIX_SEVEN)
        win_game(self.t2, to=0, hands=2)
        self.confirm(game_of(self.t2, 1))
        play(self.t2, FIVE_NINE)
        win_game(self.t3, to=0)
        win_game(self.t3, to=0)
        self.device_3 = make_device(self.t3)
        game_confirm(game=game_of(self.t3, 1), party="a", device=self.device_3)
        win_game(self.t4, to=1, hands=2)
        win_game(self.t4, to=1, hands=2)
        self.confirm(game_of(self.t4, 1))
        self.confirm(game_of(self.t4, 2))
        self.round = fresh(self.round)

    def confirm(self, game: Game) -> None:
        game_confirm(game=game, party="organiser", user=self.organiser)

    def preview(self) -> Any:
        return round_close_preview(round=self.round, user=self.organiser)

    def close(self, **kwargs: Any) -> Round:
        if "token" not in kwargs and not kwargs.get("confirm_remaining"):
            kwargs["token"] = self.preview().token
        self.round = round_close(round=self.round, user=self.organiser, **kwargs)
        return self.round

    def boards(self) -> list[Board]:
        return [self.t1, self.t2, self.t3, self.t4, self.t5]


# ---- playing whole rounds (round_start's tests) ---------------------------------------------------------
def play_and_close(round_: Round, organiser: Any) -> Round:
    """Publish and start ``round_``, let the pair with the lower entry id win every board 2-0 (two hang-jack
    hands a game), close it from the preview."""
    round_publish(round=round_, user=organiser)
    round_start_play(round=round_, user=organiser)
    for board in Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table"):
        seat(board)
        side = 0 if board.pair_a_id < board.pair_b_id else 1
        while not fresh(board).decided:
            win_game(board, to=side, hands=2)
    token = round_close_preview(round=round_, user=organiser).token
    return round_close(round=round_, user=organiser, token=token)


# ---- snapshots ---------------------------------------------------------------------------------------
GAME_FIELDS = ("board_id", "number", "status", "winner", "awarded", "confirmed", "ended_at", "score",
               "last_hand_number")
BOARD_FIELDS = ("bullseyes_a", "bullseyes_b", "chalks_a", "chalks_b", "hang_jacks_a", "hang_jacks_b", "decided",
                "winner", "is_draw", "all_confirmed", "disputed", "result_source", "forfeited")
ROUND_FIELDS = ("status", "closed_at", "ends_at", "published_at")


def games_state(round_: Round) -> dict[int, dict[str, Any]]:
    """Every game of the round (voided ones too), by id."""
    return {row["id"]: row for row in Game.objects.filter(board__round=round_).order_by("id")
            .values("id", *GAME_FIELDS)}


def confirmations_state(round_: Round) -> set[tuple[int, int, str, bool]]:
    """The uncleared confirmations of the round's games: (id, game, party, agrees)."""
    return set(GameConfirmation.objects.filter(game__board__round=round_, cleared=False)
               .values_list("id", "game_id", "party", "agrees"))


def boards_state(round_: Round) -> dict[int, dict[str, Any]]:
    return {row["id"]: row for row in Board.objects.filter(round=round_).order_by("id").values("id", *BOARD_FIELDS)}


def round_state(round_: Round) -> dict[str, Any]:
    return Round.objects.filter(pk=round_.pk).values(*ROUND_FIELDS).get()


def state(round_: Round) -> dict[str, Any]:
    """What closing and reopening may change, as plain data."""
    return {"games": games_state(round_), "confirmations": confirmations_state(round_),
            "boards": boards_state(round_), "round": round_state(round_)}


def database() -> dict[str, list[dict[str, Any]]]:
    """Every row a service of this area writes (the test database holds one test's rows only)."""
    models = (Round, Board, Game, GameConfirmation, Hand, AuditEvent, OutboxMessage, StandingsSnapshot, Tournament)
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in models}


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)
