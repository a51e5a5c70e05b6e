"""Issue 11 item 3: history can be rewritten.

After a confirmed game, ``PATCH`` on the entry (another pair) or on the pair (another player, even one who
plays in another pair of the same event) answered 200, and the public scorecard then credited another pair.
Now:

* an entry that has a board keeps its pair (409 ``entry_has_boards``); its seed and withdrawal still change;
* a pair that has a board in any tournament keeps its players and its club (409 ``pair_has_boards``, with
  ``fields``); its name and seed still change;
* one player in two entries of one event is refused (400 ``player_entered_twice``): entering a pair, changing
  an entry's pair or a pair's players, the CSV import, a substitute;
* an entry keeps the pair's club and players as they were at entry (``Entry.club``, ``player_1``,
  ``player_2``; migration 0008 fills them from the pair);
* a genuine substitute is its own recorded action (``EntrySubstitution``, ``entry_substitute``,
  ``POST /api/v1/tournaments/{tid}/entries/{id}/substitute/``), seated by the tablet and shown on the public
  scorecard for the boards from its round ("Ria Mohammed (sub for Kenrick Baptiste)"), while the public JSON
  of an event without substitutes is unchanged (tests/tournaments/test_golden_demo.py).

Table-driven over every registry write that could change who played (entry PATCH/PUT, pair PATCH/PUT of
each player and the club).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.api.conftest import World, make_round
from tests.api.helpers import play_game, post, seat
from tournaments.models import Board, Entry, Game, Pair, Player, Round

pytestmark = pytest.mark.django_db



def _org(world: World) -> dict[str, str]:
    return world.auth("organiser")


def _assert_error(response: Any, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code, error
    if field is not None:
        assert field in (error.get("fields") or {}), error
    return error


def _scorecard(api: Any, world: World, board: Board) -> dict[str, Any]:
    response = api.get(f"/api/v1/public/tournaments/{world.tournament.slug}/boards/{board.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def _confirmed_game(api: Any, world: World) -> None:
    """Table 1 seated, game 1 played and confirmed by both pairs (the report's starting point)."""
    assert seat(api, world).status_code == 200
    play_game(api, world)
    path = f"/api/v1/tablet/boards/{world.board.pk}/confirmations/"
    for side in ("a", "b"):
        assert post(api, world, path, {"game": 1, "side": side}).status_code in (200, 201)
    assert Game.objects.get(board=world.board, number=1).confirmed


def _spare_pair(api: Any, world: World, tag: str = "Spare") -> dict[str, Any]:
    """A pair of the organiser's entered nowhere."""
    ids = []
    for n in (1, 2):
        player = api.post("/api/v1/players/", {"name": f"{tag} {n}"}, format="json", **_org(world))
        assert player.status_code == 201, player.content
        ids.append(player.json()["id"])
    pair = api.post("/api/v1/pairs/", {"player_1": ids[0], "player_2": ids[1]}, format="json", **_org(world))
    assert pair.status_code == 201, pair.content
    return pair.json()


# ---- the report ------------------------------------------------------------------------------------------------


def test_item03_after_a_confirmed_game_the_scorecard_keeps_crediting_the_pair_that_played(api: Any,
                                                                                         world: World) -> None:
    _confirmed_game(api, world)
    entry = world.entries[0]
    before = _scorecard(api, world, world.board)
    spare = _spare_pair(api, world)
    path = f"/api/v1/tournaments/{world.tournament.pk}/entries/{entry.pk}/"
    _assert_error(api.patch(path, {"pair": spare["id"]}, format="json", **_org(world)), 409, "entry_has_boards", "pair")
    other = world.entries[2].pair  # a player of another pair of the same event
    _assert_error(api.patch(f"/api/v1/pairs/{entry.pair_id}/", {"player_2": other.player_1_id}, format="json",
                            **_org(world)), 409, "pair_has_boards", "player_2")
    assert _scorecard(api, world, world.board)["pair_a"] == before["pair_a"]
    assert Entry.objects.get(pk=entry.pk).pair_id == entry.pair_id
    # What does not rewrite who played still changes.
    assert api.patch(path, {"seed": 12}, format="json", **_org(world)).status_code == 200
    assert api.patch(f"/api/v1/pairs/{entry.pair_id}/", {"name": "The Openers"}, format="json",
                     **_org(world)).status_code == 200


# ---- every write that could change who played -------------------------------------------------------------------


@pytest.mark.parametrize(("method", "field"), [("patch", "player_1"), ("patch", "player_2"), ("patch", "club"),
                                               ("put", "player_1"), ("put", "club")])
def test_item03_a_pair_with_boards_keeps_its_players_and_club(api: Any, world: World, method: str,
                                                              field: str) -> None:
    pair = world.entries[0].pair  # seated on table 1 of round 1
    stranger = api.post("/api/v1/players/", {"name": "Stranger"}, format="json", **_org(world)).json()["id"]
    club = api.post("/api/v1/clubs/", {"name": "Other Club"}, format="json", **_org(world)).json()["id"]
    body = {"player_1": pair.player_1_id, "player_2": pair.player_2_id, "club": pair.club_id, "name": "",
            "seed": pair.seed} if method == "put" else {}
    body[field] = club if field == "club" else stranger
    response = getattr(api, method)(f"/api/v1/pairs/{pair.pk}/", body, format="json", **_org(world))
    _assert_error(response, 409, "pair_has_boards", field)
    fresh = Pair.objects.get(pk=pair.pk)
    assert (fresh.player_1_id, fresh.player_2_id, fresh.club_id) == (pair.player_1_id, pair.player_2_id, pair.club_id)


@pytest.mark.parametrize("method", ["patch", "put"])
def test_item03_an_entry_with_boards_keeps_its_pair(api: Any, world: World, method: str) -> None:
    entry = world.entries[1]  # pair B of table 1
    spare = _spare_pair(api, world)
    body = {"pair": spare["id"], "seed": entry.seed, "withdrawn": False}
    if method == "patch":
        body = {"pair": spare["id"]}
    response = getattr(api, method)(f"/api/v1/tournaments/{world.tournament.pk}/entries/{entry.pk}/", body,
                                    format="json", **_org(world))
    _assert_error(response, 409, "entry_has_boards", "pair")
    assert Entry.objects.get(pk=entry.pk).pair_id == entry.pair_id


def test_item03_a_pair_without_boards_changes_players_and_its_entries_follow(api: Any, world: World) -> None:
    spare = _spare_pair(api, world)
    entered = api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/", {"pair": spare["id"]}, format="json",
                       **_org(world))
    assert entered.status_code == 201, entered.content
    newcomer = api.post("/api/v1/players/", {"name": "Newcomer"}, format="json", **_org(world)).json()["id"]
    response = api.patch(f"/api/v1/pairs/{spare['id']}/", {"player_2": newcomer}, format="json", **_org(world))
    assert response.status_code == 200, response.content
    entry = Entry.objects.get(pk=entered.json()["id"])
    assert entry.player_2_id == newcomer  # nothing played yet: the entry takes the pair as it now is


# ---- one player, one entry per event --------------------------------------------------------------------------


def test_item03_the_same_player_in_two_entries_of_one_event_is_refused(api: Any, world: World) -> None:
    taken = world.entries[0].pair.player_1_id
    newcomer = api.post("/api/v1/players/", {"name": "Newcomer"}, format="json", **_org(world)).json()["id"]
    pair = api.post("/api/v1/pairs/", {"player_1": taken, "player_2": newcomer}, format="json", **_org(world))
    assert pair.status_code == 201, pair.content
    entries = f"/api/v1/tournaments/{world.tournament.pk}/entries/"
    _assert_error(api.post(entries, {"pair": pair.json()["id"]}, format="json", **_org(world)), 400,
                  "player_entered_twice", "pair")
    # Through a pair entered without boards, given a player of another entry.
    spare = _spare_pair(api, world)
    assert api.post(entries, {"pair": spare["id"]}, format="json", **_org(world)).status_code == 201
    _assert_error(api.patch(f"/api/v1/pairs/{spare['id']}/", {"player_1": taken}, format="json", **_org(world)),
                  400, "player_entered_twice", "player_1")
    # Through the CSV import into the event.
    player = Player.objects.get(pk=taken)
    csv = f"player_1,player_2,club,seed\n{player.name},Someone New,{player.club.name},9\n"
    response = api.post(f"/api/v1/pairs/import/?tournament={world.tournament.pk}", csv, content_type="text/csv",
                        **_org(world))
    assert response.status_code == 400, response.content
    assert "already plays" in response.json()["error"]["fields"]["line 2"]
    # Another event may have them both.
    other = api.post("/api/v1/tournaments/", {"name": "Second Cup", "slug": "second-cup"}, format="json",
                     **_org(world)).json()
    assert api.post(f"/api/v1/tournaments/{other['id']}/entries/", {"pair": pair.json()["id"]}, format="json",
                    **_org(world)).status_code == 201


# ---- the entry keeps the pair's people as entered ---------------------------------------------------------------


def test_item03_an_entry_records_the_pairs_club_and_players_at_entry(api: Any, world: World) -> None:
    spare = _spare_pair(api, world)
    entered = api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/", {"pair": spare["id"]}, format="json",
                       **_org(world))
    entry = Entry.objects.get(pk=entered.json()["id"])
    assert (getattr(entry, "player_1_id", None), getattr(entry, "player_2_id", None)) == (spare["player_1"],
                                                                                          spare["player_2"])
    assert getattr(entry, "club_id", "missing") is None
    played = world.entries[0]
    assert getattr(Entry.objects.get(pk=played.pk), "club_id", None) == played.pair.club_id


# ---- substitutes ------------------------------------------------------------------------------------------------


def _substitute(api: Any, world: World, entry: Entry, body: dict[str, Any], who: str = "organiser") -> Any:
    return api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/{entry.pk}/substitute/", body,
                    format="json", **world.auth(who))


def test_item03_a_substitute_is_recorded_seated_and_shown_from_its_round(api: Any, world: World) -> None:
    _confirmed_game(api, world)
    entry = world.entries[0]
    out = entry.pair.player_1
    sub = api.post("/api/v1/players/", {"name": "Ria Mohammed", "club": entry.pair.club_id}, format="json",
                   **_org(world)).json()
    response = _substitute(api, world, entry, {"out_player": out.pk, "in_player": sub["id"], "from_round": 2,
                                               "reason": "Kenrick's shift at work"})
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["from_round"], body["out_player"], body["in_player"]) == (2, out.pk, sub["id"])
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.CLOSED)
    round_2 = make_round(world.tournament, 2, world.entries)
    board_2 = round_2.boards.get(table=1)
    assert board_2.pair_a_id == entry.pk
    # The tablet seats the substitute in the out player's place; the out player no longer sits.
    seating = {"0": sub["id"], "1": board_2.pair_b.pair.player_1_id, "2": entry.pair.player_2_id,
               "3": board_2.pair_b.pair.player_2_id}
    stale = dict(seating, **{"0": out.pk})
    refused = post(api, world, f"/api/v1/tablet/boards/{board_2.pk}/seating/", {"seating": stale, "first_dealer": 0})
    _assert_error(refused, 400, "seating_invalid")
    seated = post(api, world, f"/api/v1/tablet/boards/{board_2.pk}/seating/", {"seating": seating, "first_dealer": 0})
    assert seated.status_code == 200, seated.content
    state = api.get("/api/v1/tablet/board/", **world.auth("tablet")).json()
    assert sub["id"] in [p["id"] for p in state["pairs"]["a"]["players"]]
    # The public scorecard of round 2 shows the substitute; round 1's is as it was.
    shown = _scorecard(api, world, board_2)
    assert "Ria Mohammed (sub for " + out.name + ")" in shown["pair_a"]["players"]
    assert shown["pair_a"]["substitutes"] == [{"in": "Ria Mohammed", "out": out.name, "from_round": 2}]
    first = _scorecard(api, world, world.board)
    assert first["pair_a"]["players"] == [out.name, entry.pair.player_2.name]
    assert "substitutes" not in first["pair_a"]
    from tournaments.selectors import seat_names

    assert seat_names(Board.objects.get(pk=board_2.pk))[0] == f"Ria Mohammed (sub for {out.name})"
    assert seat_names(Board.objects.get(pk=world.board.pk))[0] == out.name


def test_item03_substitutions_are_checked(api: Any, world: World) -> None:
    entry = world.entries[0]
    out, partner = entry.pair.player_1, entry.pair.player_2
    fresh = api.post("/api/v1/players/", {"name": "Fresh Sub"}, format="json", **_org(world)).json()["id"]
    elsewhere = world.entries[2].pair.player_1_id  # plays in another entry of the event
    cases = [
        ({"out_player": fresh, "in_player": fresh, "from_round": 2}, 400, "out_player_invalid", "out_player"),
        ({"out_player": out.pk, "in_player": partner.pk, "from_round": 2}, 400, "in_player_invalid", "in_player"),
        ({"out_player": out.pk, "in_player": elsewhere, "from_round": 2}, 400, "player_entered_twice", "in_player"),
        ({"out_player": out.pk, "in_player": fresh, "from_round": 0}, 400, "from_round_invalid", "from_round"),
    ]
    for body, status, code, field in cases:
        _assert_error(_substitute(api, world, entry, body), status, code, field)
    # Round 1 has hands on this entry's board: a substitute from round 1 would rewrite them.
    _confirmed_game(api, world)
    _assert_error(_substitute(api, world, entry, {"out_player": out.pk, "in_player": fresh, "from_round": 1}),
                  409, "round_played")
    # Another organiser may not; the substitute must be free in the event afterwards too.
    _assert_error(_substitute(api, world, entry, {"out_player": out.pk, "in_player": fresh, "from_round": 2},
                              who="other"), 403, "not_your_tournament")
    ok = _substitute(api, world, entry, {"out_player": out.pk, "in_player": fresh, "from_round": 2})
    assert ok.status_code == 201, ok.content
    again = _substitute(api, world, world.entries[3], {"out_player": world.entries[3].pair.player_1_id,
                                                       "in_player": fresh, "from_round": 2})
    _assert_error(again, 400, "player_entered_twice", "in_player")


# ---- the migration fills what an entry records -------------------------------------------------------------------

BEFORE = [("tournaments", "0007_owners_required")]


@pytest.mark.django_db(transaction=True)
def test_item03_the_migration_records_each_entrys_club_and_players_from_its_pair() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Tournament_, Club_ = old.get_model("tournaments", "Tournament"), old.get_model("tournaments", "Club")
    Player_, Pair_ = old.get_model("tournaments", "Player"), old.get_model("tournaments", "Pair")
    Entry_, Org_ = old.get_model("tournaments", "Entry"), old.get_model("tournaments", "Organisation")
    house, _ = Org_.objects.get_or_create(slug="house", defaults={"name": "House", "kind": "shared"})
    cup = Tournament_.objects.create(name="Cup", slug="cup")
    club = Club_.objects.create(name="Couva", owner=house)
    players = [Player_.objects.create(name=f"P{i}", owner=house) for i in range(4)]
    with_club = Pair_.objects.create(player_1=players[0], player_2=players[1], club=club, owner=house)
    without = Pair_.objects.create(player_1=players[2], player_2=players[3], owner=house)
    a = Entry_.objects.create(tournament=cup, pair=with_club)
    b = Entry_.objects.create(tournament=cup, pair=without)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tournaments"))
    rows = {e["pk"]: e for e in Entry.objects.values("pk", "player_1_id", "player_2_id", "club_id")}
    assert rows[a.pk] == {"pk": a.pk, "player_1_id": players[0].pk, "player_2_id": players[1].pk, "club_id": club.pk}
    assert rows[b.pk] == {"pk": b.pk, "player_1_id": players[2].pk, "player_2_id": players[3].pk, "club_id": None}
