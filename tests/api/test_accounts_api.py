"""Accounts and roles over the API: invitations (create, accept, withdraw), a tournament's roles (list, give,
take away), password links (issue, use) and sign-up. Every endpoint with every wrong credential (anonymous,
a tablet, a revoked token, the organiser of another event, a scorekeeper, a co-organiser) and bad input:
one error shape, never a 500, and nothing changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone
from knox.models import AuthToken

from tournaments.models import AuditEvent, Invitation, TournamentRole
from tournaments.services import accounts

from .conftest import World, make_user, token_for

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Parang-Jack-2026"


@pytest.fixture
def people(world: World) -> dict[str, Any]:
    """Headers for every caller: the world's plus a co-organiser, a scorekeeper and a revoked token."""
    co = make_user("co")
    keeper = make_user("keeper")
    TournamentRole.objects.create(tournament=world.tournament, user=co, role="co_organiser")
    TournamentRole.objects.create(tournament=world.tournament, user=keeper, role="scorekeeper")
    revoked_user = make_user("gone")
    TournamentRole.objects.create(tournament=world.tournament, user=revoked_user, role="co_organiser")
    revoked = token_for(revoked_user)
    AuthToken.objects.filter(user=revoked_user).delete()
    headers = {who: world.auth(who) for who in ("organiser", "other", "staff", "tablet", "anon")}
    headers["co"] = {"HTTP_AUTHORIZATION": f"Token {token_for(co)}"}
    headers["keeper"] = {"HTTP_AUTHORIZATION": f"Token {token_for(keeper)}"}
    headers["revoked"] = {"HTTP_AUTHORIZATION": f"Token {revoked}"}
    return {"headers": headers, "co": co, "keeper": keeper}


def error_of(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def fingerprint() -> tuple[Any, ...]:
    return (
        list(Invitation.objects.order_by("pk").values_list("pk", "used_at", "revoked")),
        list(TournamentRole.objects.order_by("pk").values_list("pk", "role")),
        get_user_model().objects.count(),
        AuditEvent.objects.count(),
    )


# ---- invitations ----------------------------------------------------------------------------------------


def test_an_organiser_invites_a_scorekeeper_who_accepts(api: Any, world: World, people: dict[str, Any],
                                                        mailoutbox: list[Any]) -> None:
    body = {"kind": "role", "tournament": world.tournament.pk, "role": "scorekeeper", "email": "door@example.org"}
    made = api.post("/api/v1/invitations/", body, format="json", **people["headers"]["organiser"])
    assert made.status_code == 201, made.content
    link = made.json()
    assert link["link"].endswith(f"/accounts/invite/{link['token']}/") and link["mailed"] is True
    assert made["Cache-Control"] == "no-store"
    assert link["token"] in mailoutbox[0].body
    stored = Invitation.objects.get(pk=link["id"])
    assert link["token"] not in stored.token_hash
    accepted = api.post("/api/v1/invitations/accept/",
                        {"token": link["token"], "username": "door", "password": GOOD_PASSWORD}, format="json")
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["roles"] == [{"tournament": world.tournament.pk, "role": "scorekeeper"}]
    again = api.post("/api/v1/invitations/accept/",
                     {"token": link["token"], "username": "door2", "password": GOOD_PASSWORD}, format="json")
    error_of(again, 409, "invitation_used")


def test_staff_invite_an_organiser_and_a_signed_in_user_accepts_as_themselves(api: Any, world: World,
                                                                           people: dict[str, Any]) -> None:
    made = api.post("/api/v1/invitations/", {"kind": "organise"}, format="json", **people["headers"]["staff"])
    assert made.status_code == 201, made.content
    accepted = api.post("/api/v1/invitations/accept/", {"token": made.json()["token"]}, format="json",
                        **people["headers"]["other"])
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["username"] == "other" and accepted.json()["may_organise"] is True


@pytest.mark.parametrize(("who", "status", "code"), [
    ("anon", 401, None), ("tablet", 403, None), ("revoked", 401, None), ("other", 403, "not_organiser"),
    ("keeper", 403, "role_not_allowed"), ("co", 403, "role_not_allowed"),
])
def test_inviting_to_a_role_with_wrong_credentials(api: Any, world: World, people: dict[str, Any], who: str,
                                                   status: int, code: str | None) -> None:
    before = fingerprint()
    body = {"kind": "role", "tournament": world.tournament.pk, "role": "co_organiser"}
    error_of(api.post("/api/v1/invitations/", body, format="json", **people["headers"][who]), status, code)
    assert fingerprint() == before


@pytest.mark.parametrize("who", ["co", "keeper", "plain"])
def test_inviting_organisers_needs_may_organise(api: Any, world: World, people: dict[str, Any], who: str) -> None:
    # the world's organisers may organise (they create events); a role on an event alone does not give it
    headers = people["headers"].get(who) or {"HTTP_AUTHORIZATION": f"Token {token_for(make_user('plain'))}"}
    error_of(api.post("/api/v1/invitations/", {"kind": "organise"}, format="json", **headers), 403, "may_not_organise")


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "emperor"}, "kind"),
    ({"kind": "role", "role": "scorekeeper"}, "tournament"),
    ({"kind": "role", "tournament": 999999, "role": "scorekeeper"}, "tournament"),
    ({"kind": "role", "tournament": "T", "role": "scorekeeper"}, "tournament"),
    ({"kind": "role", "tournament": "self", "role": "referee"}, "role"),
    ({"kind": "organise", "tournament": "self"}, "tournament"),
    ({"kind": "organise", "days": 0}, "days"),
    ({"kind": "organise", "days": 10**30}, "days"),
    ({"kind": "organise", "email": "nope"}, "email"),
    ({}, "kind"),
])
def test_bad_invitations_are_400_with_the_field(api: Any, world: World, people: dict[str, Any],
                                                body: dict[str, Any], field: str) -> None:
    body = {k: (world.tournament.pk if v == "self" else v) for k, v in body.items()}
    error = error_of(api.post("/api/v1/invitations/", body, format="json", **people["headers"]["staff"]), 400)
    assert field in error.get("fields", {}), error


@pytest.mark.parametrize("body", [[], "text", 7, None, {"kind": ["role"]}, {"kind": {"x": 1}}])
def test_junk_bodies_never_fail(api: Any, world: World, people: dict[str, Any], body: Any) -> None:
    for path in ("/api/v1/invitations/", "/api/v1/invitations/accept/", "/api/v1/password-links/",
                 "/api/v1/password-links/use/", "/api/v1/auth/signup/",
                 f"/api/v1/tournaments/{world.tournament.pk}/roles/"):
        response = api.post(path, body, format="json", **people["headers"]["organiser"])
        assert 400 <= response.status_code < 500, (path, response.content)
        error_of(response, response.status_code)
    raw = api.post("/api/v1/invitations/accept/", "token=x", content_type="text/plain")
    error_of(raw, 415)


def test_accepting_bad_and_dead_invitations(api: Any, world: World, people: dict[str, Any]) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=world.organiser, tournament=world.tournament,
                                                   role="scorekeeper")
    accept = "/api/v1/invitations/accept/"
    error_of(api.post(accept, {"token": "no-such-token", "username": "x", "password": GOOD_PASSWORD},
                      format="json"), 404, "invitation_unknown")
    error_of(api.post(accept, {"username": "x", "password": GOOD_PASSWORD}, format="json"), 400)
    weak = error_of(api.post(accept, {"token": token, "username": "newbie", "password": "newbie"}, format="json"),
                    400, "password_invalid")
    assert "password" in weak["fields"]
    error_of(api.post(accept, {"token": token, "username": "organiser", "password": GOOD_PASSWORD}, format="json"),
             400, "username_taken")
    error_of(api.post(accept, {"token": token}, format="json"), 400, "required")  # anonymous, no username
    error_of(api.post(accept, {"token": token, "username": "u", "password": GOOD_PASSWORD}, format="json",
                      **people["headers"]["tablet"]), 403, "tablet_not_allowed")
    error_of(api.post(accept, {"token": token}, format="json", **people["headers"]["revoked"]), 401)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    error_of(api.post(accept, {"token": token, "username": "late", "password": GOOD_PASSWORD}, format="json"),
             409, "invitation_expired")
    assert not get_user_model().objects.filter(username__in=["newbie", "late", "u", "x"]).exists()


@pytest.mark.parametrize(("who", "status", "code"), [
    ("anon", 401, None), ("tablet", 403, None), ("revoked", 401, None), ("other", 403, "not_your_invitation"),
    ("keeper", 403, "not_your_invitation"), ("co", 403, "not_your_invitation"),
])
def test_withdrawing_an_invitation_with_wrong_credentials(api: Any, world: World, people: dict[str, Any], who: str,
                                                          status: int, code: str | None) -> None:
    invitation, _ = accounts.invitation_create(kind="role", by=world.organiser, tournament=world.tournament,
                                               role="scorekeeper")
    before = fingerprint()
    error_of(api.delete(f"/api/v1/invitations/{invitation.pk}/", **people["headers"][who]), status, code)
    assert fingerprint() == before


def test_withdrawing_an_invitation(api: Any, world: World, people: dict[str, Any]) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=world.organiser, tournament=world.tournament,
                                                   role="scorekeeper")
    assert api.delete(f"/api/v1/invitations/{invitation.pk}/", **people["headers"]["organiser"]).status_code == 204
    error_of(api.post("/api/v1/invitations/accept/", {"token": token, "username": "x", "password": GOOD_PASSWORD},
                      format="json"), 409, "invitation_revoked")
    error_of(api.delete("/api/v1/invitations/999999/", **people["headers"]["organiser"]), 404)
    error_of(api.delete(f"/api/v1/invitations/{10**30}/", **people["headers"]["organiser"]), 404)
    used, used_token = accounts.invitation_create(kind="role", by=world.organiser, tournament=world.tournament,
                                                  role="scorekeeper")
    accounts.invitation_accept(token=used_token, username="quick", password=GOOD_PASSWORD)
    error_of(api.delete(f"/api/v1/invitations/{used.pk}/", **people["headers"]["organiser"]), 409, "invitation_used")


# ---- roles ----------------------------------------------------------------------------------------------


def roles_path(world: World) -> str:
    return f"/api/v1/tournaments/{world.tournament.pk}/roles/"


@pytest.mark.parametrize("who", ["organiser", "co", "keeper", "staff"])
def test_every_role_reads_the_roles(api: Any, world: World, people: dict[str, Any], who: str) -> None:
    listed = api.get(roles_path(world), **people["headers"][who])
    assert listed.status_code == 200, listed.content
    assert [r["role"] for r in listed.json()][:1] == ["organiser"]
    assert {r["username"] for r in listed.json()} >= {"organiser", "co", "keeper"}


@pytest.mark.parametrize(("who", "status"), [("anon", 401), ("tablet", 403), ("revoked", 401), ("other", 403)])
def test_reading_roles_with_wrong_credentials(api: Any, world: World, people: dict[str, Any], who: str,
                                              status: int) -> None:
    error_of(api.get(roles_path(world), **people["headers"][who]), status)


def test_giving_changing_and_taking_roles(api: Any, world: World, people: dict[str, Any]) -> None:
    helper = make_user("helper")
    given = api.post(roles_path(world), {"username": "Helper", "role": "scorekeeper"}, format="json",
                     **people["headers"]["organiser"])
    assert given.status_code == 201, given.content
    assert given.json() == {"user": helper.pk, "username": "helper", "tournament": world.tournament.pk,
                            "role": "scorekeeper"}
    changed = api.post(roles_path(world), {"username": "helper", "role": "co_organiser"}, format="json",
                       **people["headers"]["organiser"])
    assert changed.json()["role"] == "co_organiser"
    assert api.delete(f"{roles_path(world)}{helper.pk}/", **people["headers"]["organiser"]).status_code == 204
    assert not TournamentRole.objects.filter(user=helper).exists()
    error_of(api.delete(f"{roles_path(world)}{helper.pk}/", **people["headers"]["organiser"]), 404, "role_not_found")
    error_of(api.delete(f"{roles_path(world)}999999/", **people["headers"]["organiser"]), 404, "user_unknown")


@pytest.mark.parametrize(("who", "status", "code"), [
    ("anon", 401, None), ("tablet", 403, None), ("revoked", 401, None), ("other", 403, "not_your_tournament"),
    ("keeper", 403, "role_not_allowed"), ("co", 403, "role_not_allowed"),
])
def test_giving_and_taking_roles_with_wrong_credentials(api: Any, world: World, people: dict[str, Any], who: str,
                                                        status: int, code: str | None) -> None:
    make_user("helper")
    before = fingerprint()
    headers = people["headers"][who]
    error_of(api.post(roles_path(world), {"username": "helper", "role": "organiser"}, format="json", **headers),
             status, code)
    error_of(api.delete(f"{roles_path(world)}{people['keeper'].pk}/", **headers), status, code)
    assert fingerprint() == before


def test_bad_role_requests(api: Any, world: World, people: dict[str, Any]) -> None:
    headers = people["headers"]["organiser"]
    error = error_of(api.post(roles_path(world), {"username": "nobody-here", "role": "scorekeeper"}, format="json",
                              **headers), 400, "user_unknown")
    assert "username" in error["fields"]
    error_of(api.post(roles_path(world), {"username": "co", "role": "referee"}, format="json", **headers), 400)
    error_of(api.post(roles_path(world), {"role": "scorekeeper"}, format="json", **headers), 400)
    error_of(api.post(roles_path(world), {"username": "organiser", "role": "scorekeeper"}, format="json", **headers),
             409, "last_organiser")
    error_of(api.delete(f"{roles_path(world)}{world.organiser.pk}/", **headers), 409, "last_organiser")
    error_of(api.get("/api/v1/tournaments/999999/roles/", **headers), 404)


# ---- password links ------------------------------------------------------------------------------------


def test_a_password_link_for_a_scorekeeper(api: Any, world: World, people: dict[str, Any]) -> None:
    made = api.post("/api/v1/password-links/", {"username": "keeper"}, format="json", **people["headers"]["organiser"])
    assert made.status_code == 201, made.content
    link = made.json()
    assert link["kind"] == "password" and link["user"] == people["keeper"].pk
    assert link["link"].endswith(f"/accounts/password-link/{link['token']}/")
    use = "/api/v1/password-links/use/"
    error_of(api.post(use, {"token": link["token"], "password": "keeper"}, format="json"), 400, "password_invalid")
    error_of(api.post(use, {"token": link["token"], "password": GOOD_PASSWORD}, format="json",
                      **people["headers"]["tablet"]), 403, "tablet_not_allowed")
    done = api.post(use, {"token": link["token"], "password": GOOD_PASSWORD}, format="json")
    assert done.status_code == 200, done.content
    error_of(api.get("/api/v1/auth/me/", **people["headers"]["keeper"]), 401)  # its old token is revoked
    error_of(api.post(use, {"token": link["token"], "password": GOOD_PASSWORD}, format="json"), 409, "invitation_used")
    error_of(api.post(use, {"token": "x" * 43, "password": GOOD_PASSWORD}, format="json"), 404, "invitation_unknown")
    login = api.post("/api/v1/auth/login/", {"username": "keeper", "password": GOOD_PASSWORD}, format="json")
    assert login.status_code == 201


@pytest.mark.parametrize(("who", "status", "code"), [
    ("anon", 401, None), ("tablet", 403, None), ("revoked", 401, None), ("other", 403, "password_link_not_allowed"),
    ("keeper", 403, "password_link_not_allowed"), ("co", 403, "password_link_not_allowed"),
])
def test_password_links_with_wrong_credentials(api: Any, world: World, people: dict[str, Any], who: str, status: int,
                                               code: str | None) -> None:
    before = fingerprint()
    target = "organiser" if who in ("keeper", "co") else "keeper"
    error_of(api.post("/api/v1/password-links/", {"username": target}, format="json", **people["headers"][who]),
             status, code)
    assert fingerprint() == before


def test_bad_password_link_requests(api: Any, world: World, people: dict[str, Any]) -> None:
    headers = people["headers"]["organiser"]
    error_of(api.post("/api/v1/password-links/", {"username": "nobody"}, format="json", **headers), 400, "user_unknown")
    error_of(api.post("/api/v1/password-links/", {"username": "keeper", "days": 99}, format="json", **headers), 400)
    error_of(api.post("/api/v1/password-links/", {"username": "staff"}, format="json", **headers), 403,
             "password_link_not_allowed")


# ---- sign-up ---------------------------------------------------------------------------------------------


def test_sign_up_is_closed_by_default(api: Any) -> None:
    error_of(api.post("/api/v1/auth/signup/", {"username": "solo", "password": GOOD_PASSWORD}, format="json"), 403,
             "signup_closed")


@override_settings(HANGJACK_ALLOW_SIGNUP=True)
def test_sign_up_when_allowed(api: Any, world: World) -> None:
    made = api.post("/api/v1/auth/signup/", {"username": "solo", "password": GOOD_PASSWORD}, format="json")
    assert made.status_code == 201 and made.json()["may_organise"] is True
    error_of(api.post("/api/v1/auth/signup/", {"username": "solo", "password": GOOD_PASSWORD}, format="json"), 400,
             "username_taken")
    error_of(api.post("/api/v1/auth/signup/", {"username": "duo", "password": "123"}, format="json"), 400,
             "password_invalid")
    error_of(api.post("/api/v1/auth/signup/", {"username": "trio", "password": GOOD_PASSWORD}, format="json",
                      **world.auth("tablet")), 403, "tablet_not_allowed")


# ---- the role policy elsewhere in the API ----------------------------------------------------------------


def test_a_scorekeeper_reads_and_pairs_tablets_but_changes_nothing(api: Any, world: World,
                                                                  people: dict[str, Any]) -> None:
    keeper = people["headers"]["keeper"]
    assert api.get(f"/api/v1/tournaments/{world.tournament.pk}/", **keeper).status_code == 200
    codes = api.post(f"/api/v1/tournaments/{world.tournament.pk}/pairing-codes/", {"tables": [1]}, format="json",
                     **keeper)
    assert codes.status_code == 201, codes.content
    error_of(api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"venue": "Arima"}, format="json", **keeper),
             403, "role_not_allowed")
    error_of(api.post(f"/api/v1/rounds/{world.round.pk}/confirm-all/", {}, format="json", **keeper), 403,
             "role_not_allowed")


def test_a_co_organiser_runs_the_event_but_does_not_delete_it(api: Any, world: World, people: dict[str, Any]) -> None:
    co = people["headers"]["co"]
    changed = api.patch(f"/api/v1/tournaments/{world.tournament.pk}/", {"venue": "Arima"}, format="json", **co)
    assert changed.status_code == 200, changed.content
    error_of(api.delete(f"/api/v1/tournaments/{world.tournament.pk}/", **co), 403, "role_not_allowed")
