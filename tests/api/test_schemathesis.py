"""Schemathesis over every operation of the OpenAPI document, three times: anonymous, with an organiser's
knox token and with a tablet's device token. The check: no 5xx ever, and every answer conforms to the
schema (status code documented, content type, body shape; every 4xx in the one error shape).

The app is called in-process (WSGI). Path parameters are pointed at real objects of one tournament so the
fuzzed bodies reach the services, not only the 404s. Examples per operation are few (``MAX_EXAMPLES``,
``SCHEMATHESIS_EXAMPLES=50`` for a longer run) to keep the run near a minute.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scoring.simulate import simulate_game
from tournaments.services import board_seat, hand_submit

from .conftest import RULES, World, build_world
from .helpers import seating_for

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "5"))
#: Schemathesis' coverage phase (boundary values of every parameter) triples the run time; it passes and is
#: worth a run after API changes: SCHEMATHESIS_COVERAGE=1.
COVERAGE_PHASE = os.environ.get("SCHEMATHESIS_COVERAGE") == "1"

CONFIG = schemathesis.config.SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": COVERAGE_PHASE}}})
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)
#: No 5xx, and the answer is what the document says (status, content type, headers, body). Not checked:
#: whether invalid input the API tolerates (e.g. a malformed ``?offset=``, ignored) is refused.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@pytest.fixture(scope="module")
def fuzz_world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[tuple[World, dict[str, Any]]]:
    """One tournament with a seated board and a few hands (committed once; every test rolls back)."""
    with django_db_blocker.unblock():
        world = build_world()
        board_seat(board=world.board, seating=seating_for(world.board), first_dealer=0, device=world.tablet)
        game = simulate_game(RULES, seed=3, first_dealer=0)
        hand = None
        for number, record in enumerate(game.tally_hands[:3], start=1):
            hand = hand_submit(board=world.board, game_number=1, hand_number=number, record=record, device=world.tablet)
        assert hand is not None
        entry = world.entries[0]
        ids = {
            "tournament_pk": world.tournament.pk,
            "board_id": world.board.pk,
            "slug": world.tournament.slug,
            "number": world.round.number,
            "/clubs/": entry.pair.club_id,
            "/players/": entry.pair.player_1_id,
            "/pairs/": entry.pair_id,
            "/tournaments/": world.tournament.pk,
            "/entries/": entry.pk,
            "/devices/": world.tablet_2.pk,
            "/rounds/": world.round.pk,
            "/boards/": world.board.pk,
            "/games/": hand.game_id,
            "/hands/": hand.pk,
        }
        yield world, ids
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def keep_test_connection() -> Iterator[None]:
    """Django's test client stops ``close_old_connections`` around each request (the test's transaction
    must survive it); schemathesis calls the bare WSGI handler, so do the same here."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def point_at_real_objects(case: Any, ids: dict[str, Any]) -> None:
    """Replace generated path parameters by the ids of real objects of the fuzz world."""
    params = case.path_parameters or {}
    for name in list(params):
        if name in ids:
            params[name] = ids[name]
        elif name in ("pk", "id"):
            before = case.path.split("{" + name + "}")[0]
            for prefix, value in ids.items():
                if prefix.startswith("/") and before.endswith(prefix):
                    params[name] = value


@pytest.mark.slow
@pytest.mark.parametrize("who", ["anon", "organiser", "tablet"])
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_never_fails(
    case: Any, who: str, fuzz_world: tuple[World, dict[str, Any]], db: Any, keep_test_connection: None
) -> None:
    world, ids = fuzz_world
    point_at_real_objects(case, ids)
    headers = {}
    if who == "organiser":
        headers["Authorization"] = f"Token {world.organiser_token}"
    elif who == "tablet":
        headers["Authorization"] = f"Device {world.tablet_token}"
    case.call_and_validate(headers=headers, checks=CHECKS)
