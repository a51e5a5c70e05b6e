"""``manage.py demo`` (docs/decisions.md, "Organisers and the demo"): loads once through the services, leaves
round 3 in every state a board can be in, counts confirmed games only, and prints fresh credentials on
stdout at every start, never in a log."""

from __future__ import annotations

import logging
import re
from collections import Counter
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from knox.auth import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from tournaments.management.commands.demo import DEMO_SLUG, ROUND_3_PLAN, confirmation_state
from tournaments.models import (
    AuditEvent,
    Board,
    Club,
    Device,
    Entry,
    Game,
    Hand,
    Round,
    StandingsSnapshot,
    Tournament,
    TournamentRole,
)
from tournaments.services.devices import PairingRefused, device_pair

# Every test declares the database, so pytest-django sets up the test database even when a test only
# uses the module's ``demo`` fixture (which must never reach the real database).
pytestmark = pytest.mark.django_db

LINES = {
    "login": re.compile(r"^organiser login: organiser (\S+)$", re.M),
    "token": re.compile(r"^organiser token: (\S+)$", re.M),
    "link": re.compile(
        r"^tablet pairing link for table 1: http://127\.0\.0\.1:(\d+)/tablet/pair/(\S+)$", re.M
    ),
}


class LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage() + (record.exc_text or ""))


def run_demo(port: int = 8000) -> tuple[str, dict[str, Any]]:
    out = StringIO()
    with override_settings(DEBUG=True):
        call_command("demo", "--port", str(port), stdout=out)
    text = out.getvalue()
    found: dict[str, Any] = {}
    for name, pattern in LINES.items():
        match = pattern.search(text)
        assert match, f"no {name} line in:\n{text}"
        found[name] = match.groups()
    return text, found


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo loaded once for this module (Celery in-process), the database emptied afterwards."""
    from config.celery import app

    capture = LogCapture()
    root = logging.getLogger()
    eager = app.conf.task_always_eager
    with django_db_blocker.unblock():
        from django.db import connection

        name = str(connection.settings_dict["NAME"])
        assert "test" in name or "memory" in name, f"refusing to load the demo into {name} and flush it"
        app.conf.task_always_eager = True
        root.addHandler(capture)
        try:
            first_text, first = run_demo(port=8123)
            counts = {
                "tournaments": Tournament.objects.count(),
                "hands": Hand.objects.count(),
                "games": Game.objects.count(),
                "boards": Board.objects.count(),
            }
            second_text, second = run_demo()
            yield {
                "first": first,
                "first_text": first_text,
                "second": second,
                "second_text": second_text,
                "counts_after_first": counts,
                "log": capture.lines,
            }
        finally:
            root.removeHandler(capture)
            app.conf.task_always_eager = eager
            call_command("flush", "--no-input", verbosity=0)


@pytest.fixture
def tournament(demo, db):
    return Tournament.objects.get(slug=DEMO_SLUG)


def round_boards(tournament: Tournament, number: int) -> list[Board]:
    return list(Board.objects.filter(round__tournament=tournament, round__number=number).order_by("table"))


# ---- the tournament as loaded ------------------------------------------------------------------------


def test_a_published_swiss_of_16_pairs_from_4_clubs(tournament):
    assert tournament.published and tournament.status == Tournament.Status.RUNNING
    assert tournament.pairing_system == Tournament.PairingSystem.SWISS
    assert tournament.entrant_type == Tournament.EntrantType.PAIRS
    assert tournament.rules == "trinidad-tournament" and tournament.rules_resolved
    assert tournament.match_format == {"kind": "first_to", "n": 2}
    entries = Entry.objects.filter(tournament=tournament).select_related("pair__club")
    assert entries.count() == 16
    assert Counter(e.pair.club.name for e in entries) == Counter({c.name: 4 for c in Club.objects.all()})
    assert Club.objects.count() == 4
    assert TournamentRole.objects.filter(tournament=tournament, user__username="organiser").exists()


def test_rounds_1_and_2_closed_and_every_game_confirmed(tournament):
    for number in (1, 2):
        round_ = Round.objects.get(tournament=tournament, number=number)
        assert round_.status == Round.Status.CLOSED
        boards = round_boards(tournament, number)
        assert len(boards) == 8
        for board in boards:
            assert board.status == "done", board
            assert board.decided and board.all_confirmed and not board.disputed
            assert max(board.bullseyes_a, board.bullseyes_b) == 2  # first to 2
            games = Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED)
            assert games and all(g.status == Game.Status.FINISHED and g.confirmed for g in games)


def test_round_3_is_in_play_with_every_board_state(tournament):
    round_ = Round.objects.get(tournament=tournament, number=3)
    assert round_.status == Round.Status.IN_PLAY
    boards = {b.table: b for b in round_boards(tournament, 3)}
    statuses = {table: board.status for table, board in boards.items()}
    expected = {
        "done": "done",
        "mid_game": "in_play",
        "mid_game_second": "in_play",
        "help": "in_play",
        "awaiting_confirmation": "awaiting_confirmation",
        "disputed": "disputed",
        "waiting": "waiting",
    }
    assert statuses == {table: expected[plan] for table, plan in ROUND_3_PLAN.items()}
    assert set(statuses.values()) >= {"done", "in_play", "awaiting_confirmation", "disputed"}
    assert [t for t, b in boards.items() if b.help_called] == [6]


def test_round_3_boards_are_where_their_plan_says(tournament):
    boards = {b.table: b for b in round_boards(tournament, 3)}
    # Table 1, the one the printed tablet link pairs: a game half played, nothing finished.
    table_1 = Game.objects.get(board=boards[1])
    assert table_1.status == Game.Status.IN_PLAY and table_1.hands.filter(status="active").exists()
    # Awaiting confirmation: decided, pair B has not confirmed the last game.
    awaiting = boards[4]
    assert awaiting.decided and not awaiting.all_confirmed
    last = max(confirmation_state(awaiting))
    assert confirmation_state(awaiting)[last] == [("a", True)]
    # Disputed: pair B refused game 1, play goes on in game 2.
    disputed = boards[5]
    assert ("b", False) in confirmation_state(disputed)[1]
    assert Game.objects.get(board=disputed, number=2).status == Game.Status.IN_PLAY
    # Mid-game in the second game, the first one confirmed.
    second = boards[7]
    assert [g.status for g in Game.objects.filter(board=second).order_by("number")] == ["finished", "in_play"]
    # Waiting: not seated, no game.
    assert boards[8].seating is None and not Game.objects.filter(board=boards[8]).exists()


def test_rounds_are_paired_by_the_swiss_service_without_rematches(tournament):
    assert AuditEvent.objects.filter(tournament=tournament, action="round.pair").count() == 3
    assert all(r.paired_from_id for r in Round.objects.filter(tournament=tournament))
    met = Counter(
        frozenset((b.pair_a_id, b.pair_b_id)) for b in Board.objects.filter(round__tournament=tournament)
    )
    assert max(met.values()) == 1
    for number in (1, 2, 3):
        seated = [e for b in round_boards(tournament, number) for e in (b.pair_a_id, b.pair_b_id)]
        assert sorted(seated) == sorted(
            Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)
        )


def test_every_hand_went_in_through_the_service_from_its_tablet(tournament):
    hands = Hand.objects.filter(game__board__round__tournament=tournament)
    assert hands.count() > 100
    assert not hands.filter(device__isnull=True).exists()
    assert AuditEvent.objects.filter(tournament=tournament, action="hand.submit").count() == hands.count()
    for hand in hands.select_related("device", "game__board"):
        assert hand.device.table == hand.game.board.table
    assert {"tally", "play"} <= set(hands.values_list("form", flat=True))  # both forms of HAND_FORMAT


def test_standings_count_confirmed_games_only(tournament):
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
    assert snapshot is not None and len(snapshot.rows) == 16
    expected_bulls: Counter[int] = Counter()
    expected_points: Counter[int] = Counter()
    unconfirmed_wins = 0
    for board in Board.objects.filter(round__tournament=tournament).exclude(pair_b=None):
        assert board.pair_b_id is not None
        entry_of = {0: board.pair_a_id, 1: board.pair_b_id}
        for game in Game.objects.filter(board=board, status=Game.Status.FINISHED):
            assert game.winner is not None
            if game.confirmed:
                expected_bulls[entry_of[game.winner]] += 1
            else:
                unconfirmed_wins += 1
        if board.decided and board.all_confirmed:
            if board.is_draw:
                expected_points[entry_of[0]] += 1
                expected_points[entry_of[1]] += 1
            else:
                assert board.winner is not None
                expected_points[entry_of[board.winner]] += 2
    assert unconfirmed_wins >= 2  # the disputed game and the one awaiting pair B are finished but not counted

    def value(row: dict[str, Any], *names: str) -> int:
        return int(next(row[n] for n in names if n in row))

    for row in snapshot.rows:
        entry = value(row, "entry_id", "entry")
        assert value(row, "bullseyes_won", "bullseyes") == expected_bulls[entry], row
        assert value(row, "match_points") == expected_points[entry], row


# ---- credentials ----------------------------------------------------------------------------------------


def test_second_start_loads_nothing_again(demo, db):
    assert "Demo already loaded" in demo["second_text"] and "Loading" not in demo["second_text"]
    assert demo["counts_after_first"] == {
        "tournaments": Tournament.objects.count(),
        "hands": Hand.objects.count(),
        "games": Game.objects.count(),
        "boards": Board.objects.count(),
    }


def test_each_start_sets_a_fresh_password_that_works(demo, client, db):
    (first_password,), (second_password,) = demo["first"]["login"], demo["second"]["login"]
    assert first_password != second_password and len(second_password) >= 12
    assert not client.login(username="organiser", password=first_password)
    assert client.login(username="organiser", password=second_password)


def test_the_printed_login_may_create_events_and_invite(demo, client, db):
    """Issue 12: the printed organiser does everything the demo needs, inviting organisers included."""
    (password,) = demo["second"]["login"]
    assert client.login(username="organiser", password=password)
    assert client.get("/console/organisers/").status_code == 200
    people = client.get(f"/console/t/{DEMO_SLUG}/people/")
    assert people.status_code == 200 and "Make the invitation link" in people.content.decode()


def test_each_start_issues_a_fresh_token_and_revokes_the_old_one(demo, db):
    (first_token,), (second_token,) = demo["first"]["token"], demo["second"]["token"]
    assert first_token != second_token
    user, _ = TokenAuthentication().authenticate_credentials(second_token.encode())
    assert user.username == "organiser"
    with pytest.raises(AuthenticationFailed):
        TokenAuthentication().authenticate_credentials(first_token.encode())


def test_the_printed_link_pairs_a_tablet_for_table_1_once(demo, tournament):
    port, code = demo["second"]["link"]
    assert port == "8000" and demo["first"]["link"][0] == "8123"
    old = Device.objects.get(tournament=tournament, table=1, revoked_at__isnull=True)
    device, token = device_pair(code=code)
    assert device.table == 1 and device.tournament == tournament and token
    old.refresh_from_db()
    assert old.revoked_at is not None  # the demo's own tablet for table 1 gives way
    with pytest.raises(PairingRefused):
        device_pair(code=code)


def test_credentials_reach_stdout_only_never_a_log(demo):
    secrets_printed = [demo[run][name][0] for run in ("first", "second") for name in ("login", "token")] + [
        demo[run]["link"][1] for run in ("first", "second")
    ]
    logged = "\n".join(demo["log"])
    for secret in secrets_printed:
        assert secret not in logged


def test_the_demo_refuses_to_run_without_debug(db):
    with override_settings(DEBUG=False), pytest.raises(CommandError, match="development only"):
        call_command("demo", stdout=StringIO())
