"""Accounts and roles (tournaments/services/accounts.py, tournaments/roles.py): every service, good and bad.

Invitations (organise, role) hashed and single use, expired, used, withdrawn; accepting with a new account
(weak password, taken username) or as the signed-in user; sign-up behind HANGJACK_ALLOW_SIGNUP; password
links for a venue without mail (who may issue them); roles given and taken (never the last organiser);
"may organise"; and the role policy the other services check (require_role, require_organiser).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone
from knox.models import AuthToken

from tournaments import roles
from tournaments.errors import DomainError
from tournaments.models import AuditEvent, Invitation, TournamentRole
from tournaments.services import accounts
from tournaments.services._common import is_organiser, require_organiser, require_role
from tournaments.services.devices import device_revoke, pairing_code_create
from tournaments.services.events import tournament_delete, tournament_update

from .factories import make_tournament, make_user

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Parang-Jack-2026"


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, (caught.value.code, caught.value.message)
    return caught.value


def role(tournament: Any, user: Any, name: str) -> TournamentRole:
    return TournamentRole.objects.create(tournament=tournament, user=user, role=name)


@pytest.fixture
def event() -> Any:
    return make_tournament()


@pytest.fixture
def owner(event: Any) -> Any:
    return role(event, make_user("owner"), roles.ORGANISER).user


@pytest.fixture
def co(event: Any) -> Any:
    return role(event, make_user("co"), roles.CO_ORGANISER).user


@pytest.fixture
def keeper(event: Any) -> Any:
    return role(event, make_user("keeper"), roles.SCOREKEEPER).user


@pytest.fixture
def organiser_account() -> Any:
    user = make_user("may-organise")
    accounts.organiser_grant(user=user, by=make_user("boss", staff=True))
    return get_user_model().objects.get(pk=user.pk)


# ---- the role policy -----------------------------------------------------------------------------------


def test_the_policy_names_the_stored_roles_and_every_action() -> None:
    assert set(roles.ROLES) == set(TournamentRole.Role.values)
    table = {action: sorted(roles.POLICY[action]) for action in roles.ACTIONS}
    assert table == {
        "read": ["co_organiser", "organiser", "scorekeeper"],
        "check_in": ["co_organiser", "organiser", "scorekeeper"],
        "pair_tablets": ["co_organiser", "organiser", "scorekeeper"],
        "manage": ["co_organiser", "organiser"],
        "tournament_delete": ["organiser"],
        "manage_roles": ["organiser"],
    }
    assert roles.allowed_actions(roles.STAFF) == frozenset(roles.ACTIONS)
    assert roles.allowed_actions(None) == frozenset()
    with pytest.raises(ValueError):
        roles.allows(roles.ORGANISER, "fly")


def test_require_role_per_role(event: Any, owner: Any, co: Any, keeper: Any) -> None:
    stranger = make_user("stranger")
    staff = make_user("staff", staff=True)
    for action in roles.ACTIONS:
        require_role(owner, event.pk, action)
        require_role(staff, event.pk, action)
        refused("not_organiser", require_role, stranger, event.pk, action)
        refused("not_organiser", require_role, None, event.pk, action)
    for action in ("read", "check_in", "pair_tablets", "manage"):
        require_role(co, event.pk, action)
    for action in ("tournament_delete", "manage_roles"):
        error = refused("role_not_allowed", require_role, co, event.pk, action)
        assert error.status_code == 403 and "co-organiser" in error.message
    for action in ("read", "check_in", "pair_tablets"):
        require_role(keeper, event.pk, action)
    for action in ("manage", "tournament_delete", "manage_roles"):
        refused("role_not_allowed", require_role, keeper, event.pk, action)


def test_require_organiser_keeps_organisers_and_co_organisers_and_refuses_a_scorekeeper(
    event: Any, owner: Any, co: Any, keeper: Any
) -> None:
    require_organiser(owner, event.pk)
    require_organiser(co, event.pk)
    assert is_organiser(co, event.pk) and not is_organiser(keeper, event.pk)
    refused("role_not_allowed", require_organiser, keeper, event.pk)
    tournament_update(tournament=event, user=co, venue="Couva")
    refused("role_not_allowed", tournament_update, tournament=event, user=keeper, venue="Arima")


def test_only_the_organiser_deletes_the_tournament(event: Any, owner: Any, co: Any) -> None:
    refused("role_not_allowed", tournament_delete, tournament=event, user=co)
    tournament_delete(tournament=event, user=owner)


def test_a_scorekeeper_pairs_tablets(event: Any, keeper: Any) -> None:
    code, _ = pairing_code_create(tournament=event, table=1, user=keeper)
    assert code.table == 1
    refused("not_organiser", pairing_code_create, tournament=event, table=1, user=make_user("nobody"))


def test_a_scorekeeper_revokes_a_tablet_of_their_event_only(event: Any, keeper: Any) -> None:
    from tournaments.services.devices import device_pair

    _, code = pairing_code_create(tournament=event, table=2, user=keeper)
    device, _ = device_pair(code=code)
    refused("not_organiser", device_revoke, device=device, user=make_user("nobody"))
    assert device_revoke(device=device, user=keeper).revoked_at is not None


# ---- invitations ----------------------------------------------------------------------------------------


def test_an_invitation_to_organise_is_hashed_single_use_and_makes_an_account(organiser_account: Any) -> None:
    invitation, token = accounts.invitation_create(kind="organise", by=organiser_account, email="ria@example.org")
    assert len(token) >= 40 and token not in invitation.token_hash
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert invitation.expires_at - timezone.now() > timedelta(days=6, hours=23)
    account = accounts.invitation_accept(token=token, username="ria", password=GOOD_PASSWORD, email="ria@example.org")
    assert account.check_password(GOOD_PASSWORD) and account.email == "ria@example.org"
    assert accounts.may_organise(get_user_model().objects.get(pk=account.pk))
    invitation.refresh_from_db()
    assert invitation.used_by == account and invitation.used_at is not None
    assert AuditEvent.objects.filter(action="invitation.accept", object_id=str(invitation.pk)).exists()
    refused("invitation_used", accounts.invitation_accept, token=token, username="ria2", password=GOOD_PASSWORD)
    assert not get_user_model().objects.filter(username="ria2").exists()


def test_a_role_invitation_gives_the_role(event: Any, owner: Any) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    account = accounts.invitation_accept(token=token, username="door", password=GOOD_PASSWORD)
    assert TournamentRole.objects.get(tournament=event, user=account).role == "scorekeeper"
    assert not accounts.may_organise(account)
    assert AuditEvent.objects.filter(action="invitation.create", tournament_id=event.pk).exists()


def test_accepting_as_the_signed_in_user_never_lowers_a_role(event: Any, owner: Any, co: Any) -> None:
    _, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    assert accounts.invitation_accept(token=token, user=co) == co
    assert TournamentRole.objects.get(tournament=event, user=co).role == "co_organiser"
    _, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="organiser")
    accounts.invitation_accept(token=token, user=co)
    assert TournamentRole.objects.get(tournament=event, user=co).role == "organiser"


@pytest.mark.parametrize("state", ["expired", "used", "revoked", "unknown", "password kind"])
def test_a_dead_invitation_is_refused(event: Any, owner: Any, state: str) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    if state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif state == "used":
        accounts.invitation_accept(token=token, username="first", password=GOOD_PASSWORD)
    elif state == "revoked":
        accounts.invitation_revoke(invitation=invitation, by=owner)
    elif state == "unknown":
        token = token[:-2] + "xx"
    else:
        _, token = accounts.password_link_issue(user=make_user("lost"), by=make_user("admin", staff=True))
    code = {"expired": "invitation_expired", "used": "invitation_used", "revoked": "invitation_revoked",
            "unknown": "invitation_unknown", "password kind": "invitation_unknown"}[state]
    error = refused(code, accounts.invitation_accept, token=token, username="late", password=GOOD_PASSWORD)
    assert error.status_code == (404 if code == "invitation_unknown" else 409)
    assert not get_user_model().objects.filter(username="late").exists()
    refused(code, accounts.invitation_peek, token=token)


@pytest.mark.parametrize(("username", "password", "email", "code", "field"), [
    ("", GOOD_PASSWORD, "", "required", "username"),
    ("newbie", "", "", "required", "password"),
    ("newbie", "short", "", "password_invalid", "password"),
    ("newbie", "12345678901", "", "password_invalid", "password"),
    ("newbie", "password123", "", "password_invalid", "password"),
    ("newbie", "newbie12", "", "password_invalid", "password"),
    ("new bie!", GOOD_PASSWORD, "", "username_invalid", "username"),
    ("x" * 151, GOOD_PASSWORD, "", "username_invalid", "username"),
    ("OWNER", GOOD_PASSWORD, "", "username_taken", "username"),
    ("newbie", GOOD_PASSWORD, "not-an-address", "email_invalid", "email"),
])
def test_a_new_account_is_checked_and_the_invitation_stays_unused(
    event: Any, owner: Any, username: str, password: str, email: str, code: str, field: str
) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="co_organiser")
    error = refused(code, accounts.invitation_accept, token=token, username=username, password=password, email=email)
    assert error.status_code == 400 and field in (error.fields or {})
    invitation.refresh_from_db()
    assert invitation.used_at is None
    assert accounts.invitation_accept(token=token, username="newbie", password=GOOD_PASSWORD)


def test_who_may_invite(event: Any, owner: Any, co: Any, keeper: Any, organiser_account: Any) -> None:
    plain = make_user("plain")
    refused("may_not_organise", accounts.invitation_create, kind="organise", by=plain)
    refused("may_not_organise", accounts.invitation_create, kind="organise", by=owner)  # a role is not "may organise"
    refused("not_signed_in", accounts.invitation_create, kind="organise", by=None)
    accounts.invitation_create(kind="organise", by=make_user("staffer", staff=True))
    for who, code in ((co, "role_not_allowed"), (keeper, "role_not_allowed"), (organiser_account, "not_organiser")):
        refused(code, accounts.invitation_create, kind="role", by=who, tournament=event, role="scorekeeper")
    accounts.invitation_create(kind="role", by=owner, tournament=event, role="co_organiser")


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"kind": "emperor"}, "kind_invalid"),
    ({"kind": "password"}, "kind_invalid"),
    ({"kind": "role", "role": "scorekeeper"}, "tournament_required"),
    ({"kind": "role", "role": "referee", "tournament": True}, "role_invalid"),
    ({"kind": "organise", "tournament": True}, "tournament_not_expected"),
    ({"kind": "organise", "days": 0}, "days_invalid"),
    ({"kind": "organise", "days": 31}, "days_invalid"),
    ({"kind": "organise", "days": "7"}, "days_invalid"),
    ({"kind": "organise", "email": "nope"}, "email_invalid"),
])
def test_bad_invitations_are_refused(event: Any, kwargs: dict[str, Any], code: str) -> None:
    staff = make_user("staffer", staff=True)
    if kwargs.get("tournament") is True:
        kwargs = {**kwargs, "tournament": event}
    assert refused(code, accounts.invitation_create, by=staff, **kwargs).status_code == 400
    assert not Invitation.objects.exists()


def test_revoking_an_invitation(event: Any, owner: Any, co: Any, organiser_account: Any) -> None:
    invitation, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    refused("not_your_invitation", accounts.invitation_revoke, invitation=invitation, by=co)
    assert accounts.invitation_revoke(invitation=invitation, by=owner).revoked
    assert accounts.invitation_revoke(invitation=invitation, by=owner).revoked  # twice: nothing more
    assert AuditEvent.objects.filter(action="invitation.revoke").count() == 1
    other, other_token = accounts.invitation_create(kind="organise", by=organiser_account)
    refused("not_your_invitation", accounts.invitation_revoke, invitation=other, by=owner)
    accounts.invitation_accept(token=other_token, username="quick", password=GOOD_PASSWORD)
    refused("invitation_used", accounts.invitation_revoke, invitation=other, by=organiser_account)
    assert accounts.invitation_revoke(invitation=Invitation.objects.create(
        kind="organise", token_hash="0" * 64, expires_at=timezone.now(), created_by=organiser_account),
        by=make_user("admin", staff=True)).revoked


def test_an_invitation_is_mailed_when_it_has_an_address(mailoutbox: list[Any], organiser_account: Any) -> None:
    invitation, token = accounts.invitation_create(kind="organise", by=organiser_account, email="kay@example.org")
    assert accounts.invitation_mail(invitation=invitation, link=f"http://testserver/accounts/invite/{token}/")
    assert mailoutbox[0].to == ["kay@example.org"] and token in mailoutbox[0].body
    silent, _ = accounts.invitation_create(kind="organise", by=organiser_account)
    assert not accounts.invitation_mail(invitation=silent, link="http://testserver/x")
    assert len(mailoutbox) == 1


# ---- sign-up and "may organise" ---------------------------------------------------------------------------


def test_sign_up_is_closed_by_default() -> None:
    refused("signup_closed", accounts.signup, username="solo", password=GOOD_PASSWORD)
    assert not get_user_model().objects.filter(username="solo").exists()


@override_settings(HANGJACK_ALLOW_SIGNUP=True)
def test_sign_up_when_allowed_makes_an_organiser() -> None:
    account = accounts.signup(username="solo", password=GOOD_PASSWORD, email="")
    assert accounts.may_organise(get_user_model().objects.get(pk=account.pk))
    assert AuditEvent.objects.filter(action="account.signup").exists()
    refused("username_taken", accounts.signup, username="Solo", password=GOOD_PASSWORD)
    refused("password_invalid", accounts.signup, username="duo", password="duo")


def test_only_staff_grant_may_organise(owner: Any) -> None:
    target = make_user("target")
    refused("staff_only", accounts.organiser_grant, user=target, by=owner)
    refused("not_signed_in", accounts.organiser_grant, user=target, by=None)
    staff = make_user("staffer", staff=True)
    accounts.organiser_grant(user=target, by=staff)
    accounts.organiser_grant(user=target, by=staff)
    assert AuditEvent.objects.filter(action="organiser.grant").count() == 1
    assert accounts.may_organise(get_user_model().objects.get(pk=target.pk))
    assert accounts.may_organise(staff) and not accounts.may_organise(None)


# ---- roles ----------------------------------------------------------------------------------------------


def test_granting_and_changing_roles(event: Any, owner: Any) -> None:
    helper = make_user("helper")
    granted = accounts.role_grant(tournament=event, user=helper, role="scorekeeper", by=owner)
    assert granted.role == "scorekeeper"
    assert accounts.role_grant(tournament=event, user=helper, role="co_organiser", by=owner).role == "co_organiser"
    assert accounts.role_grant(tournament=event, user=helper, role="co_organiser", by=owner).role == "co_organiser"
    assert AuditEvent.objects.filter(action="role.grant", tournament_id=event.pk).count() == 2
    refused("role_invalid", accounts.role_grant, tournament=event, user=helper, role="boss", by=owner)


def test_co_organisers_and_scorekeepers_do_not_manage_roles(event: Any, co: Any, keeper: Any, owner: Any) -> None:
    helper = make_user("helper")
    for who in (co, keeper):
        refused("role_not_allowed", accounts.role_grant, tournament=event, user=helper, role="scorekeeper", by=who)
        refused("role_not_allowed", accounts.role_revoke, tournament=event, user=owner, by=who)
    refused("not_organiser", accounts.role_grant, tournament=event, user=helper, role="scorekeeper",
            by=make_user("outsider"))
    refused("not_organiser", accounts.role_grant, tournament=event, user=helper, role="scorekeeper", by=None)
    accounts.role_grant(tournament=event, user=helper, role="organiser", by=make_user("staffer", staff=True))


def test_the_last_organiser_stays(event: Any, owner: Any, co: Any) -> None:
    refused("last_organiser", accounts.role_revoke, tournament=event, user=owner, by=owner)
    error = refused("last_organiser", accounts.role_grant, tournament=event, user=owner, role="scorekeeper", by=owner)
    assert error.status_code == 409
    accounts.role_grant(tournament=event, user=co, role="organiser", by=owner)
    accounts.role_revoke(tournament=event, user=owner, by=co)
    assert not TournamentRole.objects.filter(tournament=event, user=owner).exists()
    refused("role_not_found", accounts.role_revoke, tournament=event, user=owner, by=co)
    refused("last_organiser", accounts.role_grant, tournament=event, user=co, role="co_organiser", by=co)
    assert AuditEvent.objects.filter(action="role.revoke", tournament_id=event.pk).count() == 1


# ---- password links -------------------------------------------------------------------------------------


def test_a_password_link_sets_a_new_password_once(event: Any, owner: Any, keeper: Any) -> None:
    AuthToken.objects.create(keeper)
    link, token = accounts.password_link_issue(user=keeper, by=owner)
    assert link.kind == "password" and link.user == keeper
    assert link.expires_at - timezone.now() <= timedelta(days=1)
    refused("password_invalid", accounts.password_link_use, token=token, password="keeper")
    account = accounts.password_link_use(token=token, password=GOOD_PASSWORD)
    assert account.check_password(GOOD_PASSWORD)
    assert not AuthToken.objects.filter(user=keeper).exists()
    refused("invitation_used", accounts.password_link_use, token=token, password=GOOD_PASSWORD + "x")
    assert AuditEvent.objects.filter(action="password_link.use").count() == 1


def test_a_new_password_link_withdraws_the_old_one(event: Any, owner: Any, keeper: Any) -> None:
    _, first = accounts.password_link_issue(user=keeper, by=owner)
    _, second = accounts.password_link_issue(user=keeper, by=owner)
    refused("invitation_revoked", accounts.password_link_use, token=first, password=GOOD_PASSWORD)
    accounts.password_link_use(token=second, password=GOOD_PASSWORD)


@pytest.mark.parametrize("state", ["expired", "revoked", "invitation token", "unknown"])
def test_a_dead_password_link_is_refused(event: Any, owner: Any, keeper: Any, state: str) -> None:
    link, token = accounts.password_link_issue(user=keeper, by=owner)
    if state == "expired":
        Invitation.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    elif state == "revoked":
        accounts.invitation_revoke(invitation=link, by=owner)
    elif state == "invitation token":
        _, token = accounts.invitation_create(kind="role", by=owner, tournament=event, role="scorekeeper")
    else:
        token = "nothing-like-a-token"
    code = {"expired": "invitation_expired", "revoked": "invitation_revoked"}.get(state, "invitation_unknown")
    refused(code, accounts.password_link_use, token=token, password=GOOD_PASSWORD)
    keeper.refresh_from_db()
    assert not keeper.check_password(GOOD_PASSWORD)


def test_who_may_issue_a_password_link(event: Any, owner: Any, co: Any, keeper: Any) -> None:
    staff = make_user("staffer", staff=True)
    other_event = make_tournament()
    elsewhere = make_user("elsewhere")
    role(event, elsewhere, roles.SCOREKEEPER)
    role(other_event, elsewhere, roles.ORGANISER)  # has a role I do not run: not mine to take over
    boss = get_user_model().objects.create_superuser("root", password="x")
    role(event, boss, roles.SCOREKEEPER)
    staff_keeper = make_user("staff-keeper", staff=True)
    role(event, staff_keeper, roles.SCOREKEEPER)
    nobody = make_user("no-roles")
    for target in (elsewhere, boss, staff_keeper, nobody):
        refused("password_link_not_allowed", accounts.password_link_issue, user=target, by=owner)
    refused("password_link_not_allowed", accounts.password_link_issue, user=keeper, by=co)  # co-organisers: no
    refused("password_link_not_allowed", accounts.password_link_issue, user=keeper, by=make_user("stranger"))
    refused("not_signed_in", accounts.password_link_issue, user=keeper, by=None)
    refused("password_link_not_allowed", accounts.password_link_issue, user=boss, by=staff)
    accounts.password_link_issue(user=elsewhere, by=staff)
    accounts.password_link_issue(user=boss, by=get_user_model().objects.create_superuser("root2", password="x"))
    accounts.password_link_issue(user=co, by=owner)
    refused("days_invalid", accounts.password_link_issue, user=co, by=owner, days=99)


def test_an_account_that_may_organise_is_reset_only_by_one_that_may_too(event: Any, owner: Any, co: Any) -> None:
    accounts.organiser_grant(user=co, by=make_user("staffer", staff=True))
    refused("password_link_not_allowed", accounts.password_link_issue, user=co, by=owner)
    accounts.organiser_grant(user=owner, by=make_user("staffer2", staff=True))
    owner = get_user_model().objects.get(pk=owner.pk)
    accounts.password_link_issue(user=co, by=owner)
