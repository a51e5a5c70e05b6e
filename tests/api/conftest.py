"""Fixtures for the API tests: organisers with knox tokens, a running tournament with a round of boards,
and paired tablets. Each test gets its own empty cache, so rate limits never leak between tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from knox.models import AuthToken
from rest_framework.test import APIClient

from tournaments.models import (
    Board,
    BoardPair,
    Club,
    Entry,
    Pair,
    Player,
    Round,
    Tournament,
    TournamentRole,
)
from tournaments.models.organisations import house_organisation_id
from tournaments.services.devices import device_pair, pairing_code_create
from tournaments.services.organisations import organisation_personal

RULES = "trinidad-tournament"


@pytest.fixture(autouse=True)
def private_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """A fresh local-memory cache per test (rate-limit counters), unless the test is about Redis."""
    if request.node.get_closest_marker("redis"):
        yield
        return
    caches = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture
def api() -> APIClient:
    """DRF's test client (JSON by default)."""
    return APIClient()


def make_user(username: str, *, staff: bool = False, organise: bool = False) -> Any:
    """A user; ``organise`` gives "may organise" (create events, invite organisers)."""
    user = get_user_model().objects.create_user(username=username, password="pw-" + username, is_staff=staff)
    if organise:
        from django.contrib.auth.models import Permission

        user.user_permissions.add(Permission.objects.get(codename="organise_events"))
    return user


def token_for(user: Any) -> str:
    return AuthToken.objects.create(user)[1]


def make_tournament(slug: str, *, organiser: Any = None, published: bool = True, status: str = "running") -> Tournament:
    from scoring import RuleSet

    tournament = Tournament.objects.create(
        name=slug.replace("-", " ").title(), slug=slug, rules=RULES, rules_resolved=RuleSet.from_spec(RULES).to_dict(),
        published=published, status=status,
    )
    if organiser is not None:
        TournamentRole.objects.create(tournament=tournament, user=organiser)
    return tournament


def make_entries(tournament: Tournament, count: int, prefix: str) -> list[Entry]:
    """``count`` pairs of one club entered in ``tournament``, owned by its organiser's personal organisation
    (the house organisation when nobody organises it)."""
    role = TournamentRole.objects.filter(tournament=tournament).order_by("id").first()
    owner = organisation_personal(user=role.user).pk if role else house_organisation_id()
    club, _ = Club.objects.get_or_create(name=f"{prefix} club", owner_id=owner)
    entries = []
    for i in range(count):
        p1 = Player.objects.create(name=f"{prefix} player {2 * i + 1}", club=club, owner_id=owner)
        p2 = Player.objects.create(name=f"{prefix} player {2 * i + 2}", club=club, owner_id=owner)
        pair = Pair.objects.create(player_1=p1, player_2=p2, club=club, seed=i + 1, owner_id=owner)
        entries.append(Entry.objects.create(tournament=tournament, pair=pair, seed=i + 1))
    return entries


def make_round(tournament: Tournament, number: int, entries: list[Entry], *, status: str = "published") -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number, status=status)
    for table, start in enumerate(range(0, len(entries) - 1, 2), start=1):
        a, b = entries[start], entries[start + 1]
        board = Board.objects.create(round=round_, table=table, pair_a=a, pair_b=b, match_format={"kind": "first_to", "n": 2})
        BoardPair.objects.create(board=board, round=round_, entry=a, side=0)
        BoardPair.objects.create(board=board, round=round_, entry=b, side=1)
    return round_


def pair_tablet(tournament: Tournament, table: int, user: Any = None) -> tuple[Any, str]:
    _, code = pairing_code_create(tournament=tournament, table=table, user=user)
    return device_pair(code=code, label=f"table {table}")


@dataclass
class World:
    """Two tournaments run by two organisers, a staff user, boards on tables 1 and 2, tablets paired."""

    organiser: Any
    organiser_token: str
    other: Any
    other_token: str
    staff: Any
    staff_token: str
    tournament: Tournament
    other_tournament: Tournament
    entries: list[Entry]
    round: Round
    board: Board
    board_2: Board
    tablet: Any
    tablet_token: str
    tablet_2: Any
    tablet_2_token: str
    other_tablet: Any
    other_tablet_token: str

    def auth(self, who: str) -> dict[str, str]:
        """Headers for ``organiser``, ``other``, ``staff``, ``tablet``, ``tablet_2``, ``other_tablet`` or ``anon``."""
        if who == "anon":
            return {}
        if who in ("organiser", "other", "staff"):
            return {"HTTP_AUTHORIZATION": f"Token {getattr(self, who + '_token')}"}
        return {"HTTP_AUTHORIZATION": f"Device {getattr(self, who + '_token')}"}


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


def build_world() -> World:
    organiser = make_user("organiser", organise=True)  # both organise events of their own: they may create more
    other = make_user("other", organise=True)
    staff = make_user("staff", staff=True)
    tournament = make_tournament("carnival-open", organiser=organiser)
    other_tournament = make_tournament("tobago-cup", organiser=other)
    entries = make_entries(tournament, 4, "Carnival")
    other_entries = make_entries(other_tournament, 2, "Tobago")
    round_ = make_round(tournament, 1, entries)
    make_round(other_tournament, 1, other_entries)
    tablet, tablet_token = pair_tablet(tournament, 1, organiser)
    tablet_2, tablet_2_token = pair_tablet(tournament, 2, organiser)
    other_tablet, other_tablet_token = pair_tablet(other_tournament, 1, other)
    boards = list(round_.boards.order_by("table"))
    return World(
        organiser=organiser, organiser_token=token_for(organiser), other=other, other_token=token_for(other),
        staff=staff, staff_token=token_for(staff), tournament=tournament, other_tournament=other_tournament,
        entries=entries, round=round_, board=boards[0], board_2=boards[1], tablet=tablet, tablet_token=tablet_token,
        tablet_2=tablet_2, tablet_2_token=tablet_2_token, other_tablet=other_tablet,
        other_tablet_token=other_tablet_token,
    )
