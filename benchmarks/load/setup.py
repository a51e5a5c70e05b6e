"""Setting up an event on the private stack: an organiser, a tournament, its pairs, paired tablets.

The organiser user and its knox token, the clubs, players, pairs and entries are written through the
ORM (what a registration desk did the day before; the admin or the API would do the same rows). The
tournament, the pairing codes and the tablets' pairing go through the API, as on the day.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx

from .actors import Organiser, Shared
from .client import Api, Recorder

FIRST = ["Anil", "Keisha", "Ravi", "Marcia", "Dexter", "Sunil", "Indra", "Kevon", "Marlon", "Ria", "Kerwin",
         "Natalie", "Jason", "Simone", "Curtis", "Tricia", "Vishnu", "Shelly", "Roger", "Anjanie"]
LAST = ["Ramdass", "Mohammed", "Persad", "Ali", "Joseph", "Charles", "Pierre", "Lewis", "Phillip", "Garcia",
        "Boodoo", "Khan", "Chin", "Lalla", "Roberts", "Duncan", "Cupid", "Job", "Dillon", "Grant"]
TOWNS = ["Couva", "Arima", "San Fernando", "Scarborough", "Chaguanas", "Point Fortin", "Sangre Grande",
         "Tunapuna", "Princes Town", "Diego Martin"]


@dataclass
class Event:
    tournament_id: int
    slug: str
    organiser_token: str
    tablet_tokens: dict[int, str] = field(default_factory=dict)
    device_ids: dict[int, int] = field(default_factory=dict)


def create_organiser(name: str) -> str:
    """A user who may organise, with no password and a knox API token (the token is returned, shown nowhere
    else)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from knox.models import AuthToken

    user = get_user_model().objects.create_user(username=f"{name}-{secrets.token_hex(3)}")
    user.user_permissions.add(Permission.objects.get(codename="organise_events"))  # it creates the event
    _, token = AuthToken.objects.create(user=user)
    return str(token)


def register_pairs(tournament_id: int, pairs: int, clubs: int = 10) -> None:
    """``pairs`` pairs from ``clubs`` clubs, entered with seeds 1..pairs (clubs alternate by seed)."""
    from tournaments.models import Club, Entry, Pair, Player

    tag = secrets.token_hex(2)
    made = Club.objects.bulk_create([Club(name=f"{TOWNS[i % len(TOWNS)]} All Fours {tag}-{i + 1}",
                                          short_name=f"C{i + 1}", town=TOWNS[i % len(TOWNS)]) for i in range(clubs)])
    players = Player.objects.bulk_create([
        Player(name=f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST) + i) % len(LAST)]} {i + 1}",
               club=made[(i // 2) % clubs]) for i in range(2 * pairs)
    ])
    made_pairs = Pair.objects.bulk_create([
        Pair(player_1=players[2 * i], player_2=players[2 * i + 1], club=made[i % clubs], seed=i + 1)
        for i in range(pairs)
    ])
    Entry.objects.bulk_create([Entry(tournament_id=tournament_id, pair=p, seed=i + 1) for i, p in enumerate(made_pairs)])


async def create_event(client: httpx.AsyncClient, recorder: Recorder, *, name: str, pairs: int, tables: int,
                       first_to: int, rounds_planned: int = 50) -> tuple[Event, Organiser]:
    """A published Swiss of ``pairs`` pairs (first to ``first_to`` games) and ``tables`` paired tablets."""
    token = create_organiser("organiser")
    shared = Shared()
    organiser = Organiser(token, 0, client, recorder, shared)
    slug = f"{name}-{secrets.token_hex(3)}"
    response = await organiser.call("setup", "POST", "/api/v1/tournaments/", expect=201, json={
        "name": f"{name} {slug[-6:]}", "slug": slug, "rules": "trinidad-tournament", "pairing_system": "swiss",
        "match_format": {"kind": "first_to", "n": first_to}, "rounds_planned": rounds_planned, "published": True,
        "status": "running",
    })
    if response is None:
        raise RuntimeError(f"could not create the tournament: {recorder.problems[-1:]}")
    tournament = response.json()
    organiser.tournament_id = int(tournament["id"])
    shared.slug = slug
    register_pairs(organiser.tournament_id, pairs)
    event = Event(organiser.tournament_id, slug, token)
    await pair_tablets(client, recorder, organiser, event, list(range(1, tables + 1)))
    return event, organiser


async def pairing_codes(organiser: Organiser, tables: list[int]) -> dict[int, str]:
    codes: dict[int, str] = {}
    for start in range(0, len(tables), 50):
        chunk = tables[start:start + 50]
        response = await organiser.call("setup", "POST", f"/api/v1/tournaments/{organiser.tournament_id}/pairing-codes/",
                                        expect=201, json={"tables": chunk})
        if response is None:
            raise RuntimeError("could not print pairing codes")
        codes.update({int(row["table"]): str(row["code"]) for row in response.json()})
    return codes


async def pair_tablet(client: httpx.AsyncClient, recorder: Recorder, table: int, code: str) -> dict[str, Any]:
    """Trade a pairing code for a device token, from the tablet's own address (as behind the proxy)."""
    api = Api(client, recorder, address=f"127.0.1.{table % 250 + 1}")
    for _ in range(5):
        response = await api.request("tablet_pair", "POST", "/api/v1/tablet/pair/",
                                     json={"code": code, "label": f"Table {table} tablet"})
        if response is not None and response.status_code == 201:
            return dict(response.json())
        await asyncio.sleep(1.0)
    raise RuntimeError(f"table {table}: pairing failed")


async def pair_tablets(client: httpx.AsyncClient, recorder: Recorder, organiser: Organiser, event: Event,
                       tables: list[int]) -> None:
    codes = await pairing_codes(organiser, tables)
    gate = asyncio.Semaphore(10)

    async def one(table: int) -> None:
        async with gate:
            paired = await pair_tablet(client, recorder, table, codes[table])
        event.tablet_tokens[table] = str(paired["token"])
        event.device_ids[table] = int(paired["device"]["id"])

    await asyncio.gather(*(one(t) for t in tables))
