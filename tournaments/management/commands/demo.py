"""``manage.py demo``: the demo tournament for ``make run`` (docs/decisions.md, "Organisers and the demo").

On the first run it loads, in one transaction, a Swiss of 16 pairs from 4 clubs on ``trinidad-tournament``
rules, first to 2 games, published: rounds 1 and 2 played, confirmed and closed; round 3 in play with
boards done, mid-game, awaiting confirmation, disputed and calling for help. Every hand is dealt and
played by the engine's simulator (``scoring.simulate``) and goes in through the services, from each
table's paired tablet, as a real event's would; rounds are paired by the Swiss pairing service from the
confirmed standings. Nothing is written around the services.

At every run it then sets a fresh random password for the ``organiser`` user, a fresh API token (older
ones revoked) and a fresh pairing code for table 1, and prints them on stdout, never to a log:

    organiser login: organiser PASSWORD
    organiser token: TOKEN
    tablet pairing link for table 1: http://127.0.0.1:PORT/tablet/pair/CODE

It refuses to run unless DEBUG is on (development only), so a production server never prints a token.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from knox.models import AuthToken

from scoring.simulate import simulate_game
from tournaments.models import (
    Board,
    Club,
    Device,
    Entry,
    Game,
    GameConfirmation,
    Pair,
    Player,
    Round,
    Tournament,
    TournamentRole,
)
from tournaments.services import (
    board_call_help,
    board_seat,
    game_confirm,
    hand_submit,
    round_close,
    round_publish,
    round_start_play,
    tournament_rules_resolve,
)
from tournaments.services.devices import device_pair, pairing_code_create
from tournaments.services.organisations import organisation_personal
from tournaments.services.pairing import round_start
from tournaments.services.standings import tournament_standings_recompute

DEMO_SLUG = "hang-jack-demo-open"
ORGANISER = "organiser"
ROUNDS_CLOSED = 2

#: Four clubs, eight players each; consecutive names are partners.
CLUBS: dict[str, tuple[str, str, list[str]]] = {
    "Couva Kings": ("CK", "Couva", [
        "Anil Ramdass", "Keisha Mohammed", "Ravi Persad", "Marcia Ali",
        "Dexter Rampersad", "Sunil Maharaj", "Indra Singh", "Kevon Baptiste",
    ]),
    "Arima Jacks": ("AJ", "Arima", [
        "Marlon Joseph", "Ria Charles", "Kerwin Pierre", "Natalie Alexander",
        "Jason Lewis", "Simone Phillip", "Curtis Garcia", "Tricia Thomas",
    ]),
    "San Fernando Trumps": ("SFT", "San Fernando", [
        "Vishnu Ramlogan", "Shelly-Ann Khan", "Roger Boodoo", "Anjanie Seepersad",
        "Brian Chin", "Gail Ramkissoon", "Dwayne Lalla", "Renee Jagessar",
    ]),
    "Scarborough High Low": ("SHL", "Scarborough, Tobago", [
        "Selwyn Roberts", "Ayanna Duncan", "Lennox Cupid", "Janelle Job",
        "Marvin Dillon", "Kern Grant", "Donna Yeates", "Terrence Bobb",
    ]),
}

#: Round 3, table by table: what the demo leaves each board doing.
ROUND_3_PLAN = {
    1: "mid_game",        # table 1: the tablet printed at start-up scores it
    2: "done",
    3: "done",
    4: "awaiting_confirmation",
    5: "disputed",
    6: "help",
    7: "mid_game_second",
    8: "waiting",
}


@dataclass
class Credentials:
    password: str
    token: str
    pairing_code: str


class Command(BaseCommand):
    help = "Load the demo tournament once, then print fresh organiser credentials and a tablet pairing link."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="The port make run serves on (for the link).")
        parser.add_argument("--seed", type=int, default=2026, help="Seed for the simulated games (first load).")

    def handle(self, *args: Any, port: int, seed: int, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("The demo is for development only (DEBUG is off): it prints credentials.")
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            self.stdout.write("Loading the demo tournament (first start only)...")
            # In-process Celery logs a line per task (and kombu one about the memory broker): quiet here.
            chatty = [logging.getLogger(name) for name in ("celery.app.trace", "kombu.connection")]
            levels = [logger.level for logger in chatty]
            for logger in chatty:
                logger.setLevel(logging.ERROR)
            try:
                tournament = DemoLoader(seed).load()
            finally:
                for logger, level in zip(chatty, levels, strict=True):
                    logger.setLevel(level)
            self.stdout.write(f"Demo loaded: {tournament.name}, {tournament.entries.count()} pairs.")
        else:
            self.stdout.write(f"Demo already loaded: {tournament.name}.")
        fresh = refresh_credentials(tournament)
        # Credentials go to the terminal only (stdout), never through logging.
        self.stdout.write(f"organiser login: {ORGANISER} {fresh.password}")
        self.stdout.write(f"organiser token: {fresh.token}")
        self.stdout.write(f"tablet pairing link for table 1: http://127.0.0.1:{port}/tablet/pair/{fresh.pairing_code}")


def refresh_credentials(tournament: Tournament) -> Credentials:
    """A new random password, one new API token (older ones revoked) and a new table-1 pairing code."""
    user = organiser_user(tournament)
    password = secrets.token_urlsafe(12)
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        AuthToken.objects.filter(user=user).delete()
        _, token = AuthToken.objects.create(user=user)
        _, code = pairing_code_create(tournament=tournament, table=1, user=user)
    return Credentials(password=password, token=token, pairing_code=code)


def demo_user() -> Any:
    """The ``organiser`` account (made with an unusable password; ``refresh_credentials`` sets one)."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=ORGANISER, defaults={"first_name": "Demo", "last_name": "Organiser", "email": "organiser@example.org"}
    )
    if created:
        user.set_unusable_password()
        user.save()
    return user


def organiser_user(tournament: Tournament) -> Any:
    user = demo_user()
    TournamentRole.objects.get_or_create(tournament=tournament, user=user)
    # "May organise": the printed login also creates events and invites (docs/decisions.md, "Accounts and roles").
    user.user_permissions.add(Permission.objects.get(content_type__app_label="tournaments", codename="organise_events"))
    return user


class DemoLoader:
    """Builds the demo through the services, one table's tablet per board."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.devices: dict[int, Device] = {}
        self.organiser: Any = None

    # ---- people and the tournament ---------------------------------------------------------------
    @transaction.atomic
    def load(self) -> Tournament:
        tournament = self._register()
        self.organiser = organiser_user(tournament)
        tournament_rules_resolve(tournament=tournament)
        for number in range(1, ROUNDS_CLOSED + 2):
            # Swiss pairing from the confirmed standings; inside this transaction it runs in-process.
            round_ = round_start(tournament=tournament, number=number, user=self.organiser)
            assert round_.status == Round.Status.DRAFTED, round_.feasibility_note
            round_publish(round=round_, user=self.organiser)
            round_start_play(round=round_, user=self.organiser)
            if number <= ROUNDS_CLOSED:
                self._play_round(round_)
                round_close(round=round_, user=self.organiser)
            else:
                self._play_last_round(round_)
        # Now, so the demo shows standings without a worker (the outbox has queued the same).
        tournament_standings_recompute(tournament_id=tournament.pk)
        return tournament

    def _register(self) -> Tournament:
        tournament = Tournament.objects.create(
            name="Hang Jack Demo Open", slug=DEMO_SLUG, venue="Couva Community Centre, Trinidad",
            rules="trinidad-tournament", match_format={"kind": "first_to", "n": 2},
            pairing_system=Tournament.PairingSystem.SWISS, entrant_type=Tournament.EntrantType.PAIRS,
            rounds_planned=5, published=True,
        )
        # The clubs, players and pairs are the organiser's (their personal organisation's): the organiser
        # edits them, another organiser sees none of them (docs/adr/0010-owners-and-organisations.md).
        owner = organisation_personal(user=demo_user())
        by_club: list[list[Pair]] = []
        for name, (short, town, players) in CLUBS.items():
            club, _ = Club.objects.get_or_create(name=name, owner=owner, defaults={"short_name": short, "town": town})
            people = [Player.objects.create(name=p, club=club, owner=owner) for p in players]
            by_club.append([
                Pair.objects.create(player_1=people[i], player_2=people[i + 1], club=club, seed=i // 2 + 1,
                                    owner=owner)
                for i in range(0, len(people), 2)
            ])
        # Seeds alternate clubs: every club's first pair, then every club's second, ...
        ordered = [pairs[k] for k in range(4) for pairs in by_club]
        for seed, pair in enumerate(ordered, 1):
            Entry.objects.create(tournament=tournament, pair=pair, seed=seed)
        return tournament

    # ---- play -----------------------------------------------------------------------------------
    def _device(self, tournament: Tournament, table: int) -> Device:
        """The table's scoring tablet, paired the way a real one is (a code traded for a token)."""
        if table not in self.devices:
            _, code = pairing_code_create(tournament=tournament, table=table, user=self.organiser)
            device, _ = device_pair(code=code, label=f"Demo tablet, table {table}")
            self.devices[table] = device
        return self.devices[table]

    def _seat(self, board: Board) -> Device:
        assert board.table is not None and board.pair_b is not None
        device = self._device(board.round.tournament, board.table)
        a, b = board.pair_a.pair, board.pair_b.pair
        seating = {"0": a.player_1_id, "1": b.player_1_id, "2": a.player_2_id, "3": b.player_2_id}
        board_seat(board=board, seating=seating, first_dealer=self.rng.randrange(4), device=device)
        return device

    def _current_game(self, board: Board) -> Game | None:
        return Game.objects.filter(board=board, status=Game.Status.IN_PLAY).order_by("-number").first()

    def _play_game(self, board: Board, device: Device, *, stop_after: float | None = None) -> Game:
        """Play the board's current game from the simulator; ``stop_after`` (a fraction) leaves it unfinished."""
        game = self._current_game(board)
        assert game is not None, f"{board} has no game in play"
        simulated = simulate_game(game.rules, seed=self.rng.randrange(2**31), first_dealer=game.next_dealer,
                                  renege_rate=0.02 if board.table and board.table % 3 == 0 else 0.0)
        hands: Sequence[dict[str, Any]] = (
            simulated.play_hands if board.table and board.table % 2 else simulated.tally_hands
        )
        if stop_after is not None:
            hands = hands[: max(1, min(len(hands) - 1, int(len(hands) * stop_after)))]
        for number, record in enumerate(hands, 1):
            hand_submit(board=board, game_number=game.number, hand_number=number, record=record, device=device)
        game.refresh_from_db()
        return game

    def _confirm(self, game: Game, device: Device, parties: Sequence[str] = ("a", "b")) -> None:
        for party in parties:
            game_confirm(game=game, party=party, device=device)

    def _play_match(self, board: Board, device: Device, *, confirm: bool = True) -> None:
        while True:
            board.refresh_from_db()
            if board.decided:
                return
            game = self._play_game(board, device)
            if confirm:
                self._confirm(game, device)

    def _play_round(self, round_: Round) -> None:
        for board in self._boards(round_):
            self._play_match(board, self._seat(board))

    def _boards(self, round_: Round) -> list[Board]:
        return list(
            Board.objects.filter(round=round_).exclude(pair_b=None)
            .select_related("round__tournament", "pair_a__pair", "pair_b__pair").order_by("table")
        )

    def _play_last_round(self, round_: Round) -> None:
        """Round 3 stays in play, each table left as ROUND_3_PLAN says."""
        for board in self._boards(round_):
            assert board.table is not None
            plan = ROUND_3_PLAN.get(board.table, "done")
            if plan == "waiting":
                continue  # not seated yet: the table is still cutting for deal
            device = self._seat(board)
            if plan == "done":
                self._play_match(board, device)
            elif plan == "mid_game":
                self._play_game(board, device, stop_after=0.5)
            elif plan == "mid_game_second":
                self._confirm(self._play_game(board, device), device)
                self._play_game(board, device, stop_after=0.4)
            elif plan == "awaiting_confirmation":
                self._play_match(board, device, confirm=False)
                games = Game.objects.filter(board=board, status=Game.Status.FINISHED).order_by("number")
                for game in games:  # pair A has confirmed everything, pair B not the last game yet
                    self._confirm(game, device, ("a",) if game == games.last() else ("a", "b"))
            elif plan == "disputed":
                first = self._play_game(board, device)
                game_confirm(game=first, party="a", device=device)
                game_confirm(game=first, party="b", agrees=False, device=device,
                             reason="We had High in hand 3: the chalk is wrong.")
                self._play_game(board, device, stop_after=0.3)
            elif plan == "help":
                self._play_game(board, device, stop_after=0.6)
                board_call_help(board=board, device=device)


def confirmation_state(board: Board) -> dict[int, list[tuple[str, bool]]]:
    """Per game number, the uncleared confirmations (party, agrees); used by the tests."""
    state: dict[int, list[tuple[str, bool]]] = {}
    for row in GameConfirmation.objects.filter(game__board=board, cleared=False).select_related("game"):
        state.setdefault(row.game.number, []).append((row.party, row.agrees))
    return state
