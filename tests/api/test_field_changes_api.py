"""Issue 13 through the API: withdraw a pair (the report), forfeit a board after the grace time and cancel it,
a club's team forfeit, seat the Swiss look-ahead's proposal, late entries, and the settings (forfeit policy,
grace time, late entries and the bye), with the refusals in the one error shape: 409 ``grace_time`` with
``current.grace_ends``, 403 for another organiser's tournament or a scorekeeper, 400 with the field's name.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments import factories as tf
from tournaments import formats
from tournaments.models import Board, Entry, Pair, Player, Round, TeamMatch, TournamentRole
from tournaments.services import round_start
from tournaments.services.organisations import organisation_personal

from .conftest import World, make_user, token_for
from .helpers import play_game, seat

pytestmark = pytest.mark.django_db


def org(world: World, who: str = "organiser") -> dict[str, str]:
    return world.auth(who)


def error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]


def grace_over(round_: Round, minutes: int = 60) -> None:
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=minutes))


def role_token(world: World, role: str) -> dict[str, str]:
    user = make_user(f"a-{role}")
    TournamentRole.objects.create(tournament=world.tournament, user=user, role=role)
    return {"HTTP_AUTHORIZATION": f"Token {token_for(user)}"}


# ---- withdrawals -----------------------------------------------------------------------------------------


def test_withdrawing_a_pair_answers_the_report_and_mends_the_round(api: Any, world: World) -> None:
    entry = world.entries[0]
    opponent = world.board.pair_b_id
    response = api.post(f"/api/v1/entries/{entry.pk}/withdraw/", {}, format="json", **org(world))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["entry"]["id"] == entry.pk and body["entry"]["withdrawn"] is True
    assert body["entry"]["withdrawn_from"] == 1 and body["from_round"] == 1
    assert [a["round"] for a in body["actions"]] == [1]
    assert body["actions"][0]["kind"] == "bye" and "takes the bye" in body["summary"]
    board = Board.objects.get(pk=world.board.pk)
    assert (board.pair_a_id, board.pair_b_id, board.result_source) == (opponent, None, "bye")
    again = api.post(f"/api/v1/entries/{entry.pk}/withdraw/", {}, format="json", **org(world))
    assert again.status_code == 409 and error(again)["code"] == "entry_withdrawn"
    # the round says what changed
    round_ = api.get(f"/api/v1/rounds/{world.round.pk}/", **org(world)).json()
    assert round_["changes"][-1]["kind"] == "withdrawal" and "proposal" in round_


def test_withdrawing_during_play_forfeits_and_a_later_round_is_accepted(api: Any, world: World) -> None:
    seat(api, world)
    play_game(api, world, seed=3)
    entry = Entry.objects.get(pk=world.board.pair_a_id)
    response = api.post(f"/api/v1/entries/{entry.pk}/withdraw/", {"from_round": 1}, format="json", **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["actions"][0]["kind"] == "forfeit"
    board = Board.objects.get(pk=world.board.pk)
    assert (board.forfeited, board.result_source) == (0, "forfeit")
    later = api.post(f"/api/v1/entries/{world.entries[2].pk}/withdraw/", {"from_round": 4}, format="json",
                     **org(world))
    assert later.status_code == 200 and later.json()["actions"] == []
    assert later.json()["entry"]["withdrawn_from"] == 4


@pytest.mark.parametrize(("body", "field"), [({"from_round": 0}, "from_round"), ({"from_round": "x"}, "from_round"),
                                            ({"from_round": 1000}, "from_round")])
def test_a_bad_round_is_refused_400_with_its_field(api: Any, world: World, body: dict[str, Any], field: str) -> None:
    response = api.post(f"/api/v1/entries/{world.entries[0].pk}/withdraw/", body, format="json", **org(world))
    assert response.status_code == 400
    assert field in error(response)["fields"]
    assert not Entry.objects.get(pk=world.entries[0].pk).withdrawn


@pytest.mark.parametrize(("who", "status"), [("other", 403), ("anon", 401), ("tablet", 403)])
def test_only_the_tournaments_organisers_withdraw(api: Any, world: World, who: str, status: int) -> None:
    response = api.post(f"/api/v1/entries/{world.entries[0].pk}/withdraw/", {}, format="json", **world.auth(who))
    assert response.status_code == status, response.content
    assert "code" in error(response)
    assert not Entry.objects.get(pk=world.entries[0].pk).withdrawn


def test_a_co_organiser_may_withdraw_and_a_scorekeeper_may_not(api: Any, world: World) -> None:
    keeper = api.post(f"/api/v1/entries/{world.entries[0].pk}/withdraw/", {}, format="json",
                      **role_token(world, "scorekeeper"))
    assert keeper.status_code == 403 and error(keeper)["code"] == "role_not_allowed"
    co = api.post(f"/api/v1/entries/{world.entries[0].pk}/withdraw/", {}, format="json",
                  **role_token(world, "co_organiser"))
    assert co.status_code == 200, co.content


def test_patching_withdrawn_goes_through_the_withdrawal(api: Any, world: World) -> None:
    path = f"/api/v1/tournaments/{world.tournament.pk}/entries/{world.entries[1].pk}/"
    response = api.patch(path, {"withdrawn": True, "tags": ["seniors"]}, format="json", **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["withdrawn"] is True and response.json()["withdrawn_from"] == 1
    assert response.json()["tags"] == ["seniors"]
    assert Board.objects.get(pk=world.board.pk).pair_b_id is None  # its opponent took the bye
    back = api.patch(path, {"withdrawn": False}, format="json", **org(world))
    assert back.status_code == 200 and back.json()["withdrawn"] is False


# ---- late entries ------------------------------------------------------------------------------------------


def _my_pair(world: World, name: str) -> Pair:
    owner = organisation_personal(user=world.organiser).pk
    a = Player.objects.create(name=f"{name} one", owner_id=owner)
    b = Player.objects.create(name=f"{name} two", owner_id=owner)
    return Pair.objects.create(player_1=a, player_2=b, owner_id=owner)


def test_an_entry_made_once_play_has_begun_joins_the_next_round(api: Any, world: World) -> None:
    pair = _my_pair(world, "Late")
    response = api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/", {"pair": pair.pk}, format="json",
                        **org(world))
    assert response.status_code == 201, response.content
    assert response.json()["joins_from"] == 2 and response.json()["withdrawn_from"] is None
    assert Entry.objects.get(pk=response.json()["id"]).joins_from == 2


def test_before_play_an_entry_is_ordinary(api: Any, world: World) -> None:
    Board.objects.filter(round=world.round).delete()
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.PENDING)
    pair = _my_pair(world, "Early")
    response = api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/", {"pair": pair.pk}, format="json",
                        **org(world))
    assert response.status_code == 201 and response.json()["joins_from"] is None


def test_no_late_entry_once_a_knockouts_bracket_is_seated(api: Any, world: World) -> None:
    type(world.tournament).objects.filter(pk=world.tournament.pk).update(pairing_system="knockout")
    pair = _my_pair(world, "Knock")
    response = api.post(f"/api/v1/tournaments/{world.tournament.pk}/entries/", {"pair": pair.pk}, format="json",
                        **org(world))
    assert response.status_code == 409 and error(response)["code"] == "bracket_seated"


# ---- forfeits --------------------------------------------------------------------------------------------


def test_a_forfeit_before_the_grace_time_is_409_with_its_end(api: Any, world: World) -> None:
    Round.objects.filter(pk=world.round.pk).update(published_at=timezone.now())
    response = api.post(f"/api/v1/boards/{world.board.pk}/forfeit/", {"absent": "b"}, format="json", **org(world))
    assert response.status_code == 409
    body = error(response)
    assert body["code"] == "grace_time" and "The grace time runs until" in body["message"]
    assert body["current"]["grace_ends"]
    assert Board.objects.get(pk=world.board.pk).forfeited is None


def test_a_forfeit_after_the_grace_time_then_its_cancellation(api: Any, world: World) -> None:
    grace_over(world.round)
    path = f"/api/v1/boards/{world.board.pk}/forfeit/"
    response = api.post(path, {"absent": "b"}, format="json", **org(world))
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["result_source"], body["forfeited"], body["winner"]) == ("forfeited", "forfeit", 1, 0)
    assert (body["bullseyes_a"], body["bullseyes_b"]) == (2, 0) and body["grace_ends"]
    twice = api.post(path, {"absent": "a"}, format="json", **org(world))
    assert twice.status_code == 409 and error(twice)["code"] == "board_forfeited"
    # the round's boards and the public reads say it too
    listed = api.get(f"/api/v1/rounds/{world.round.pk}/boards/?table=1", **org(world)).json()["results"][0]
    assert (listed["status"], listed["result_source"], listed["forfeited"]) == ("forfeited", "forfeit", 1)
    public = api.get(f"/api/v1/public/tournaments/{world.tournament.slug}/rounds/1/").json()
    mine = next(b for b in public["boards"] if b["board"] == world.board.pk)
    assert (mine["result_source"], mine["forfeited"]) == ("forfeit", 1)
    assert mine["result"] == "forfeit: B did not play; A wins 2-0"
    card = api.get(f"/api/v1/public/tournaments/{world.tournament.slug}/boards/{world.board.pk}/").json()
    assert (card["result_source"], card["forfeited"], card["status"]) == ("forfeit", 1, "forfeited")

    cancelled = api.delete(path, **org(world))
    assert cancelled.status_code == 200, cancelled.content
    assert (cancelled.json()["forfeited"], cancelled.json()["result_source"]) == (None, "hands")
    again = api.delete(path, **org(world))
    assert again.status_code == 409 and error(again)["code"] == "not_forfeited"


def test_neither_pair_came(api: Any, world: World) -> None:
    grace_over(world.round)
    response = api.post(f"/api/v1/boards/{world.board_2.pk}/forfeit/", {"absent": "both"}, format="json",
                        **org(world))
    assert response.status_code == 200 and response.json()["forfeited"] == 2
    assert response.json()["winner"] is None


@pytest.mark.parametrize("body", [{"absent": "c"}, {}, {"absent": None}])
def test_who_is_absent_is_checked_400_with_its_field(api: Any, world: World, body: dict[str, Any]) -> None:
    grace_over(world.round)
    response = api.post(f"/api/v1/boards/{world.board.pk}/forfeit/", body, format="json", **org(world))
    assert response.status_code == 400 and "absent" in error(response)["fields"]


@pytest.mark.parametrize(("who", "status"), [("other", 403), ("anon", 401), ("tablet", 403)])
def test_only_the_tournaments_organisers_forfeit(api: Any, world: World, who: str, status: int) -> None:
    grace_over(world.round)
    path = f"/api/v1/boards/{world.board.pk}/forfeit/"
    assert api.post(path, {"absent": "a"}, format="json", **world.auth(who)).status_code == status
    assert api.delete(path, **world.auth(who)).status_code == status
    assert Board.objects.get(pk=world.board.pk).forfeited is None


def test_a_scorekeeper_may_not_forfeit(api: Any, world: World) -> None:
    grace_over(world.round)
    response = api.post(f"/api/v1/boards/{world.board.pk}/forfeit/", {"absent": "a"}, format="json",
                        **role_token(world, "scorekeeper"))
    assert response.status_code == 403 and error(response)["code"] == "role_not_allowed"


def test_a_drafted_round_has_no_forfeits(api: Any, world: World) -> None:
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.DRAFTED)
    response = api.post(f"/api/v1/boards/{world.board.pk}/forfeit/", {"absent": "a"}, format="json", **org(world))
    assert response.status_code == 409 and error(response)["code"] == "round_not_open"


# ---- team matches ---------------------------------------------------------------------------------------


@pytest.fixture
def team_match(db: Any) -> tuple[TeamMatch, Any, dict[str, str]]:
    tournament = tf.make_tournament(entrant_type="club_teams", team_format={"boards": 2, "kind": "games", "n": 1})
    clubs = [tf.make_club("Couva Jacks"), tf.make_club("Point Kickers")]
    for club in clubs:
        tf.make_entries(tournament, 2, club=club)
    organiser = tf.make_organiser(tournament)
    round_ = tf.make_team_round(tournament, clubs)
    grace_over(round_)
    return TeamMatch.objects.get(round=round_), organiser, {"HTTP_AUTHORIZATION": f"Token {token_for(organiser)}"}


def test_a_club_that_cannot_field_its_team_forfeits_every_board(api: Any, team_match: Any) -> None:
    match, _, headers = team_match
    response = api.post(f"/api/v1/team-matches/{match.pk}/forfeit/", {"club": match.club_b_id}, format="json",
                        **headers)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["decided"] is True and body["winner"] == 0 and len(body["boards"]) == 2
    assert all(b["result_source"] == "forfeit" for b in body["boards"])


def test_a_team_forfeit_names_a_club_of_the_match(api: Any, world: World, team_match: Any) -> None:
    match, _, headers = team_match
    path = f"/api/v1/team-matches/{match.pk}/forfeit/"
    stranger = tf.make_club("Elsewhere")
    wrong = api.post(path, {"club": stranger.pk}, format="json", **headers)
    assert wrong.status_code == 400 and error(wrong)["code"] == "not_in_match" and "club" in error(wrong)["fields"]
    missing = api.post(path, {}, format="json", **headers)
    assert missing.status_code == 400 and "club" in error(missing)["fields"]
    other = api.post(path, {"club": match.club_a_id}, format="json", **world.auth("other"))
    assert other.status_code == 403
    assert api.post("/api/v1/team-matches/999999/forfeit/", {"club": 1}, format="json", **headers).status_code == 404


# ---- the look-ahead's proposal ----------------------------------------------------------------------------


def test_the_proposed_draft_is_seated_through_the_api(api: Any, world: World) -> None:
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.CLOSED)
    organiser = world.organiser
    drafted = round_start(tournament=world.tournament, user=organiser)
    a, b, c, d = world.entries
    proposal = {"status": "proposed", "message": "Keeps a rematch-free finish.",
                "boards": [[a.pk, d.pk, "x"], [b.pk, c.pk, "y"]], "bye": None, "extra": {"score_difference": 2},
                "outlook": ["possible", "ok"]}
    Round.objects.filter(pk=drafted.pk).update(proposal=proposal)
    read = api.get(f"/api/v1/rounds/{drafted.pk}/", **org(world)).json()
    assert read["proposal"] == {  # the stored lists as named objects (clients generate types from them)
        "status": "proposed", "message": "Keeps a rematch-free finish.",
        "boards": [{"pair_a": a.pk, "pair_b": d.pk, "explanation": "x"},
                   {"pair_a": b.pk, "pair_b": c.pk, "explanation": "y"}],
        "bye": None, "extra": {"score_difference": 2}, "outlook": {"status": "possible", "reason": "ok"}}
    response = api.post(f"/api/v1/rounds/{drafted.pk}/adopt-proposal/", **org(world))
    assert response.status_code == 200, response.content
    assert response.json()["proposal"] is None and response.json()["changes"][-1]["kind"] == "adopt_proposal"
    seated = {frozenset((x.pair_a_id, x.pair_b_id)) for x in Board.objects.filter(round=drafted)}
    assert seated == {frozenset((a.pk, d.pk)), frozenset((b.pk, c.pk))}
    again = api.post(f"/api/v1/rounds/{drafted.pk}/adopt-proposal/", **org(world))
    assert again.status_code == 409 and error(again)["code"] == "no_proposal"
    assert api.post(f"/api/v1/rounds/{drafted.pk}/adopt-proposal/", **world.auth("other")).status_code == 403


def test_a_published_round_has_no_proposal_to_seat(api: Any, world: World) -> None:
    response = api.post(f"/api/v1/rounds/{world.round.pk}/adopt-proposal/", **org(world))
    assert response.status_code == 409 and error(response)["code"] == "round_not_draft"


# ---- settings --------------------------------------------------------------------------------------------


def test_the_tournament_carries_the_settings_of_issue_13(api: Any, world: World) -> None:
    path = f"/api/v1/tournaments/{world.tournament.pk}/"
    read = api.get(path, **org(world)).json()
    assert read["forfeit_policy"] == formats.DEFAULT_FORFEIT_POLICY.to_dict()
    assert (read["grace_minutes"], read["late_entry_bye"]) == (15, False)
    # any time: the grace time and the late entry's bye
    changed = api.patch(path, {"grace_minutes": 0, "late_entry_bye": True}, format="json", **org(world))
    assert changed.status_code == 200, changed.content
    assert (changed.json()["grace_minutes"], changed.json()["late_entry_bye"]) == (0, True)
    # the forfeit policy between rounds only (round 1 is published)
    refused = api.patch(path, {"forfeit_policy": "bare_win"}, format="json", **org(world))
    assert refused.status_code == 409 and error(refused)["code"] == "settings_between_rounds"
    assert "forfeit_policy" in error(refused)["fields"]
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.CLOSED)
    saved = api.patch(path, {"forfeit_policy": "bare_win"}, format="json", **org(world))
    assert saved.status_code == 200, saved.content
    assert saved.json()["forfeit_policy"] == formats.FORFEIT_PRESETS["bare_win"].policy.to_dict()


@pytest.mark.parametrize(("body", "field"), [
    ({"forfeit_policy": "coin_toss"}, "forfeit_policy"),
    ({"forfeit_policy": {"result": "draw"}}, "forfeit_policy.result"),
    ({"grace_minutes": -1}, "grace_minutes"),
    ({"grace_minutes": 241}, "grace_minutes"),
    ({"late_entry_bye": "perhaps"}, "late_entry_bye"),
])
def test_the_settings_are_checked_400_with_the_field(api: Any, world: World, body: dict[str, Any], field: str) -> None:
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.CLOSED)
    response = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", body, format="json", **org(world))
    assert response.status_code == 400, response.content
    assert field in error(response)["fields"], error(response)


def test_the_registry_lists_the_forfeit_presets(api: Any, db: Any) -> None:
    body = api.get("/api/v1/tournaments/formats/").json()
    assert [p["name"] for p in body["forfeit_presets"]] == list(formats.FORFEIT_PRESETS)
    assert all(p["explanation"] and p["policy"] for p in body["forfeit_presets"])
    assert body["defaults"]["forfeit_policy"] == "round_average"


# ---- the routes ------------------------------------------------------------------------------------------


def test_the_new_routes_are_walked_by_the_security_tests() -> None:
    from tests.hardening.test_item10_ids_and_sqlite_locks import APP_ROUTES

    templates = {r.template: r for r in APP_ROUTES}
    for template in ("/api/v1/entries/{pk}/withdraw/", "/api/v1/boards/{pk}/forfeit/",
                     "/api/v1/team-matches/{pk}/forfeit/", "/api/v1/rounds/{pk}/adopt-proposal/",
                     "/console/t/{slug}/entries/{entry_id}/withdraw/"):
        assert template in templates, template
        assert dict(templates[template].converters).get(templates[template].ids[-1]) == "IdConverter", template
