"""Every write operation tried with every wrong credential: nothing changes, and the answer says why.

Tablet writes: another table's tablet (403), another tournament's tablet (403), a revoked tablet (401), no
credentials (401), an organiser's token (403: tablets only), a board of an earlier round (409 with the
current board). Organiser writes: anonymous (401), a tablet (403), a revoked tablet (401), the organiser
of another tournament (403). Pairing: an unknown, expired or used code (401).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command

from scoring.simulate import simulate_game
from tournaments.models import (
    AuditEvent,
    Board,
    Device,
    Game,
    GameConfirmation,
    Hand,
    IdempotencyRecord,
    PairingCode,
    Round,
    Tournament,
)
from tournaments.services import board_seat, hand_submit
from tournaments.services.devices import device_revoke

from .conftest import RULES, World, build_world, make_round
from .helpers import hands_of_game, key, seating_for

pytestmark = pytest.mark.django_db


@dataclass
class Played:
    """The world after table 1 finished game 1 and played one hand of game 2."""

    world: World
    game: Game
    hand: Hand
    last_hand: Hand


@pytest.fixture(scope="module")
def played_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Played]:
    """Built once for the module (committed), then each test runs in its own rolled-back transaction."""
    with django_db_blocker.unblock():
        world = build_world()
        board = world.board
        board_seat(board=board, seating=seating_for(board), first_dealer=0, device=world.tablet)
        game = simulate_game(RULES, seed=3, first_dealer=0)
        for number, record in enumerate(game.tally_hands, start=1):
            hand_submit(board=board, game_number=1, hand_number=number, record=record, device=world.tablet)
        second = hands_of_game(seed=4, first_dealer=game.hands[-1].next_dealer)[0]
        last = hand_submit(board=board, game_number=2, hand_number=1, record=second, device=world.tablet)
        first_game = Game.objects.get(board=board, number=1)
        yield Played(world, first_game, Hand.objects.get(game=first_game, number=1), last)
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def played(played_world: Played, db: Any) -> Played:
    return played_world


def state_fingerprint() -> tuple[Any, ...]:
    """Everything a write could change."""
    return (
        AuditEvent.objects.count(),
        list(Hand.objects.order_by("pk").values_list("pk", "status", "version")),
        list(Game.objects.order_by("pk").values_list("pk", "status", "confirmed", "score")),
        GameConfirmation.objects.count(),
        list(Board.objects.order_by("pk").values_list("pk", "seating", "first_dealer", "help_called", "disputed")),
        list(Round.objects.order_by("pk").values_list("pk", "status")),
        list(Tournament.objects.order_by("pk").values_list("pk", "name", "venue", "status")),
        list(Device.objects.order_by("pk").values_list("pk", "revoked_at")),
        PairingCode.objects.count(),
        IdempotencyRecord.objects.count(),
    )


def tablet_writes(p: Played) -> list[tuple[str, str, Any]]:
    board = p.world.board.pk
    return [
        ("seating", f"/api/v1/tablet/boards/{board}/seating/", {"seating": seating_for(p.world.board), "first_dealer": 1}),
        ("hand", f"/api/v1/tablet/boards/{board}/hands/",
         {"game": 2, "number": 2, "hand": hands_of_game(seed=4, first_dealer=p.last_hand.dealer)[1]}),
        ("preview", f"/api/v1/tablet/boards/{board}/preview/", {"hand": {"dealer": 1, "misdeal": True}}),
        ("undo", f"/api/v1/tablet/boards/{board}/undo/", {"hand": p.last_hand.pk}),
        ("confirmation", f"/api/v1/tablet/boards/{board}/confirmations/", {"game": 1, "side": "a"}),
        ("refusal", f"/api/v1/tablet/boards/{board}/confirmations/",
         {"game": 1, "side": "b", "agrees": False, "reason": "no"}),
        ("help", f"/api/v1/tablet/boards/{board}/help/", None),
    ]


TABLET_WRONG = [("tablet_2", 403), ("other_tablet", 403), ("revoked", 401), ("anon", 401), ("organiser", 403),
                ("other", 403), ("garbage", 401)]


def headers_for(p: Played, who: str) -> dict[str, str]:
    if who == "revoked":
        device_revoke(device=p.world.tablet, user=p.world.organiser)
        return p.world.auth("tablet")
    if who == "garbage":
        return {"HTTP_AUTHORIZATION": "Device not-a-token"}
    return p.world.auth(who)


@pytest.mark.parametrize(("who", "expected"), TABLET_WRONG)
@pytest.mark.parametrize("operation", ["seating", "hand", "preview", "undo", "confirmation", "refusal", "help"])
def test_tablet_write_with_wrong_credentials(api: Any, played: Played, operation: str, who: str, expected: int) -> None:
    name, path, body = next(op for op in tablet_writes(played) if op[0] == operation)
    headers = headers_for(played, who)
    before = state_fingerprint()
    response = api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key(), **headers)
    assert response.status_code == expected, (name, who, response.content)
    assert set(response.json()["error"]) >= {"code", "message"}
    assert state_fingerprint() == before


@pytest.mark.parametrize("who", ["tablet_2", "other_tablet", "revoked", "anon", "organiser"])
def test_tablet_reads_of_another_board_are_refused(api: Any, played: Played, who: str) -> None:
    headers = headers_for(played, who)
    response = api.get(f"/api/v1/tablet/boards/{played.world.board.pk}/hands/", **headers)
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("operation", ["seating", "hand", "preview", "undo", "confirmation", "refusal", "help"])
def test_tablet_write_to_a_board_of_an_earlier_round_is_409_with_the_current_board(
    api: Any, played: Played, operation: str
) -> None:
    world = played.world
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.CLOSED)
    round_2 = make_round(world.tournament, 2, list(reversed(world.entries)))
    _, path, body = next(op for op in tablet_writes(played) if op[0] == operation)
    before = state_fingerprint()
    response = api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key(), **world.auth("tablet"))
    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "stale_board"
    assert error["current"]["board"] == round_2.boards.get(table=1).pk
    assert state_fingerprint() == before


def organiser_writes(p: Played) -> list[tuple[str, str, str, Any, dict[str, str]]]:
    w = p.world
    t, entry = w.tournament.pk, w.entries[0]
    return [
        ("tournament update", "patch", f"/api/v1/tournaments/{t}/", {"venue": "Elsewhere"}, {}),
        ("tournament delete", "delete", f"/api/v1/tournaments/{t}/", None, {}),
        ("entry create", "post", f"/api/v1/tournaments/{t}/entries/", {"pair": entry.pair_id}, {}),
        ("entry update", "patch", f"/api/v1/tournaments/{t}/entries/{entry.pk}/", {"withdrawn": True}, {}),
        ("entry delete", "delete", f"/api/v1/tournaments/{t}/entries/{entry.pk}/", None, {}),
        ("round start", "post", f"/api/v1/tournaments/{t}/rounds/", {}, {}),
        ("round publish", "post", f"/api/v1/rounds/{w.round.pk}/publish/", None, {}),
        ("round close", "post", f"/api/v1/rounds/{w.round.pk}/close/", {"confirm_remaining": True}, {}),
        ("round confirm all", "post", f"/api/v1/rounds/{w.round.pk}/confirm-all/", None, {}),
        ("pairing codes", "post", f"/api/v1/tournaments/{t}/pairing-codes/", {"tables": [1]}, {}),
        ("device revoke", "post", f"/api/v1/devices/{w.tablet_2.pk}/revoke/", None, {}),
        ("help clear", "post", f"/api/v1/boards/{w.board.pk}/help/clear/", None, {}),
        ("game confirm", "post", f"/api/v1/games/{p.game.pk}/confirm/", None, {}),
        ("hand correct", "put", f"/api/v1/hands/{p.hand.pk}/", {"hand": p.hand.record}, {"HTTP_IF_MATCH": '"1"'}),
        ("hand void", "post", f"/api/v1/hands/{p.last_hand.pk}/void/", {}, {}),
        ("pair update", "patch", f"/api/v1/pairs/{entry.pair_id}/", {"name": "Renamed"}, {}),
        ("player delete", "delete", f"/api/v1/players/{entry.pair.player_1_id}/", None, {}),
        ("club update", "patch", f"/api/v1/clubs/{entry.pair.club_id}/", {"town": "Elsewhere"}, {}),
        ("pair import", "post", f"/api/v1/pairs/import/?tournament={t}", "player_1,player_2,club,seed\nA,B,C,1\n",
         {"content_type": "text/csv"}),
    ]


ORGANISER_OPERATIONS = [
    "tournament update", "tournament delete", "entry create", "entry update", "entry delete", "round start",
    "round publish", "round close", "round confirm all", "pairing codes", "device revoke", "help clear",
    "game confirm", "hand correct", "hand void", "pair update", "player delete", "club update", "pair import",
]


@pytest.mark.parametrize(("who", "expected"), [("anon", 401), ("tablet", 403), ("revoked", 401), ("other", 403)])
@pytest.mark.parametrize("operation", ORGANISER_OPERATIONS)
def test_organiser_write_with_wrong_credentials(api: Any, played: Played, operation: str, who: str, expected: int) -> None:
    _, method, path, body, extra = next(op for op in organiser_writes(played) if op[0] == operation)
    headers = headers_for(played, who)
    before = state_fingerprint()
    if "content_type" in extra:
        response = getattr(api, method)(path, body, content_type=extra["content_type"], **headers)
    else:
        response = getattr(api, method)(path, body, format="json", **headers, **extra)
    assert response.status_code == expected, (operation, who, response.content)
    assert set(response.json()["error"]) >= {"code", "message"}
    assert state_fingerprint() == before


@pytest.mark.parametrize("operation", ["tournament update", "round confirm all", "hand void", "game confirm"])
def test_staff_may_act_on_any_tournament(api: Any, played: Played, operation: str) -> None:
    _, method, path, body, extra = next(op for op in organiser_writes(played) if op[0] == operation)
    response = getattr(api, method)(path, body, format="json", **played.world.auth("staff"), **extra)
    assert response.status_code in (200, 201), response.content
