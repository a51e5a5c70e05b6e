"""Accounts and roles (docs/decisions.md, "Accounts and roles"): invitations, self sign-up, password links,
roles on a tournament and the account-level permission "may organise".

An **invitation** is a single-use link that expires (7 days by default): ``organise`` makes the account
that accepts it able to create events and invite organisers (``tournaments.organise_events``); ``role``
gives it a role on one tournament. A **password link** (an invitation of kind ``password``) lets the
holder set a new password for one account, for a venue without mail. The token is
``secrets.token_urlsafe`` (32 bytes), shown once and stored only as its SHA-256 digest; revoking or using
a link ends it. Who may do what on a tournament is ``tournaments.roles``.

Refusals (docs/services.md): 400 ``kind_invalid``, ``role_invalid``, ``tournament_required``,
``tournament_not_expected``, ``days_invalid``, ``email_invalid``, ``required``, ``username_invalid``,
``username_taken``, ``password_invalid`` (Django's password validators, every message in ``fields``);
403 ``not_signed_in``, ``may_not_organise``, ``not_organiser``, ``role_not_allowed``, ``staff_only``,
``signup_closed``, ``password_link_not_allowed``, ``not_your_invitation``; 404 ``invitation_unknown``,
``role_not_found``; 409 ``invitation_expired``, ``invitation_used``, ``invitation_revoked``,
``last_organiser``.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Permission
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import roles
from tournaments.actors import Actor
from tournaments.models import Invitation, Tournament, TournamentRole
from tournaments.selectors.organiser import role_on

from ._common import actor, require_role
from .audit import audit_record
from .errors import Conflict, NotAllowed, NotFound, ValidationFailed

log = logging.getLogger(__name__)

ORGANISE_PERMISSION = "tournaments.organise_events"
TOKEN_BYTES = 32
INVITATION_DAYS = 7
MAX_DAYS = 30
PASSWORD_LINK_DAYS = 1
USERNAME_MAX = 150


def token_digest(token: str) -> str:
    """SHA-256 hex digest of a link's token: what is stored instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _signed_in(user: Actor) -> Any:
    """The acting user, or 403 ``not_signed_in``."""
    who = actor(user)
    if who is None:
        raise NotAllowed("not_signed_in", "Sign in first.")
    return who


def _is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def may_organise(user: Actor) -> bool:
    """Whether ``user`` may create events and invite organisers: staff, or "may organise"."""
    who = actor(user)
    if who is None or not getattr(who, "is_active", True):
        return False
    return _is_staff(who) or bool(who.has_perm(ORGANISE_PERMISSION))  # type: ignore[union-attr]


def _organise_permission() -> Permission:
    app_label, codename = ORGANISE_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


def _grant_organise(account: Any) -> bool:
    """Give ``account`` "may organise"; False if it had it already."""
    permission = _organise_permission()
    if account.user_permissions.filter(pk=permission.pk).exists():
        return False
    account.user_permissions.add(permission)
    for cache in ("_perm_cache", "_user_perm_cache"):  # has_perm reads these once per object
        if hasattr(account, cache):
            delattr(account, cache)
    return True


def _days(days: Any, default: int) -> int:
    if days is None:
        return default
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        message = f"A link is valid from 1 to {MAX_DAYS} days."
        raise ValidationFailed("days_invalid", message, fields={"days": message})
    return days


def _email(email: str | None) -> str:
    email = (email or "").strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except DjangoValidationError:
        message = "Enter a valid e-mail address, or leave it empty."
        raise ValidationFailed("email_invalid", message, fields={"email": message}) from None
    return email


def _role(role: str) -> str:
    if role not in roles.ROLES:
        message = f"One of {', '.join(roles.ROLES)}."
        raise ValidationFailed("role_invalid", message, fields={"role": message})
    return role


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_digest(token)


# ---- accounts ---------------------------------------------------------------------------------------------


def _account_create(*, username: str | None, password: str | None, email: str | None) -> Any:
    """A new active account, its password checked by Django's validators (AUTH_PASSWORD_VALIDATORS)."""
    user_model = get_user_model()
    username = (username or "").strip()
    missing = {name: "This field is required." for name, value in (("username", username), ("password", password))
               if not value}
    if missing:
        raise ValidationFailed("required", "Choose a username and a password.", fields=missing)
    assert password is not None
    if len(username) > USERNAME_MAX:
        message = f"At most {USERNAME_MAX} characters."
        raise ValidationFailed("username_invalid", message, fields={"username": message})
    try:
        UnicodeUsernameValidator()(username)
    except DjangoValidationError as exc:
        message = " ".join(exc.messages)
        raise ValidationFailed("username_invalid", message, fields={"username": message}) from None
    email = _email(email)
    if user_model.objects.filter(username__iexact=username).exists():
        message = "This username is taken; choose another."
        raise ValidationFailed("username_taken", message, fields={"username": message})
    candidate = user_model(username=username, email=email)
    _check_password(password, candidate)
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:  # the same username created meanwhile
        message = "This username is taken; choose another."
        raise ValidationFailed("username_taken", message, fields={"username": message}) from None
    return candidate


def _check_password(password: str | None, user: Any) -> None:
    if not password:
        raise ValidationFailed("required", "Choose a password.", fields={"password": "This field is required."})
    try:
        password_validation.validate_password(password, user=user)
    except DjangoValidationError as exc:
        message = " ".join(exc.messages)
        raise ValidationFailed("password_invalid", message, fields={"password": message}) from None


@transaction.atomic
def signup(*, username: str, password: str, email: str = "") -> Any:
    """A new account that may organise events, when the server allows self sign-up
    (``settings.HANGJACK_ALLOW_SIGNUP``, off by default: 403 ``signup_closed``)."""
    if not getattr(settings, "HANGJACK_ALLOW_SIGNUP", False):
        raise NotAllowed("signup_closed", "This server does not take sign-ups: ask an organiser for an invitation.")
    account = _account_create(username=username, password=password, email=email)
    _grant_organise(account)
    audit_record(action="account.signup", obj=account, tournament_id=None, user=account,
                 after={"username": account.get_username()})
    return account


@transaction.atomic
def organiser_grant(*, user: Any, by: Actor) -> Any:
    """Staff give an account "may organise" (403 ``staff_only``); giving it twice changes nothing."""
    who = _signed_in(by)
    if not _is_staff(who):
        raise NotAllowed("staff_only", "Only a staff member may do this.")
    if _grant_organise(user):
        audit_record(action="organiser.grant", obj=user, tournament_id=None, user=who,
                     after={"username": user.get_username()})
    return user


# ---- roles on a tournament -------------------------------------------------------------------------------


def _organisers(tournament_id: int) -> int:
    return TournamentRole.objects.filter(tournament_id=tournament_id, role=roles.ORGANISER).count()


@transaction.atomic
def role_grant(*, tournament: Tournament, user: Any, role: str, by: Actor) -> TournamentRole:
    """Give ``user`` a role on the tournament, or change the role they have (the organiser only: 403
    ``not_organiser``/``role_not_allowed``). The last organiser cannot step down (409 ``last_organiser``)."""
    role = _role(role)
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_role(by, locked.pk, "manage_roles")
    existing = TournamentRole.objects.filter(tournament=locked, user=user).first()
    if existing is not None and existing.role == role:
        return existing
    if existing is not None and existing.role == roles.ORGANISER and _organisers(locked.pk) <= 1:
        raise Conflict("last_organiser", "The tournament needs an organiser: make someone else organiser first.")
    before = {"role": existing.role} if existing is not None else None
    if existing is None:
        existing = TournamentRole.objects.create(tournament=locked, user=user, role=role)
    else:
        existing.role = role
        existing.save(update_fields=["role"])
    audit_record(action="role.grant", obj=existing, tournament_id=locked.pk, user=by, before=before,
                 after={"user": user.pk, "username": user.get_username(), "role": role})
    return existing


@transaction.atomic
def role_revoke(*, tournament: Tournament, user: Any, by: Actor) -> None:
    """Take ``user``'s role on the tournament away (the organiser only). 404 ``role_not_found``; the last
    organiser cannot be removed (409 ``last_organiser``)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_role(by, locked.pk, "manage_roles")
    existing = TournamentRole.objects.filter(tournament=locked, user=user).first()
    if existing is None:
        raise NotFound("role_not_found", "This person has no role on this tournament.")
    if existing.role == roles.ORGANISER and _organisers(locked.pk) <= 1:
        raise Conflict("last_organiser", "The tournament needs an organiser: make someone else organiser first.")
    pk, role = existing.pk, existing.role
    existing.delete()
    existing.pk = pk
    audit_record(action="role.revoke", obj=existing, tournament_id=locked.pk, user=by,
                 before={"user": user.pk, "username": user.get_username(), "role": role})


def _role_apply(tournament: Tournament, account: Any, role: str) -> TournamentRole:
    """An accepted invitation's role: given, or raised to it; never lowered (an organiser who accepts a
    scorekeeper's link stays organiser)."""
    existing = TournamentRole.objects.filter(tournament=tournament, user=account).first()
    if existing is None:
        return TournamentRole.objects.create(tournament=tournament, user=account, role=role)
    if roles.rank(role) > roles.rank(existing.role):
        existing.role = role
        existing.save(update_fields=["role"])
    return existing


# ---- invitations -----------------------------------------------------------------------------------------


@transaction.atomic
def invitation_create(*, kind: str, by: Actor, tournament: Tournament | None = None, role: str = "",
                      email: str = "", days: int | None = INVITATION_DAYS) -> tuple[Invitation, str]:
    """A new invitation link; returns it and its token (shown once, stored as a digest).

    ``organise``: to create events and invite organisers (staff, or an account that may organise:
    403 ``may_not_organise``). ``role``: ``role`` on ``tournament`` (its organiser or staff:
    403 ``not_organiser``/``role_not_allowed``). Password links are ``password_link_issue``'s.
    """
    who = _signed_in(by)
    if kind == Invitation.Kind.ORGANISE:
        if tournament is not None or role:
            message = "An invitation to organise is for no particular tournament."
            raise ValidationFailed("tournament_not_expected", message, fields={"tournament": message})
        if not may_organise(who):
            raise NotAllowed("may_not_organise", "Only staff or an organiser who may create events may invite organisers.")
    elif kind == Invitation.Kind.ROLE:
        if tournament is None:
            message = "Say which tournament the role is on."
            raise ValidationFailed("tournament_required", message, fields={"tournament": message})
        role = _role(role)
        require_role(who, tournament.pk, "manage_roles")
    else:
        message = "One of organise, role (a password link is issued for an account)."
        raise ValidationFailed("kind_invalid", message, fields={"kind": message})
    valid_days = _days(days, INVITATION_DAYS)
    token, digest = _new_token()
    invitation = Invitation.objects.create(
        kind=kind, token_hash=digest, email=_email(email), tournament=tournament,
        role=role if kind == Invitation.Kind.ROLE else "", created_by=who,
        expires_at=timezone.now() + timedelta(days=valid_days),
    )
    audit_record(action="invitation.create", obj=invitation, tournament_id=tournament.pk if tournament else None,
                 user=who, after={"kind": kind, "role": invitation.role, "expires_at": invitation.expires_at.isoformat()})
    return invitation, token


def _link(token: str, kinds: tuple[str, ...]) -> Invitation:
    """The live link with this token, locked: 404 ``invitation_unknown``; 409 ``invitation_revoked``,
    ``invitation_used``, ``invitation_expired``."""
    token = (token or "").strip()
    invitation = None
    if token and len(token) <= 200:
        invitation = (Invitation.objects.select_for_update(of=("self",)).select_related("tournament")
                      .filter(token_hash=token_digest(token), kind__in=kinds).first())
    what = "password link" if kinds == (Invitation.Kind.PASSWORD,) else "invitation"
    if invitation is None:
        raise NotFound("invitation_unknown", f"This {what} is not known: check the link, or ask for a new one.")
    if invitation.revoked:
        raise Conflict("invitation_revoked", f"This {what} was withdrawn: ask for a new one.")
    if invitation.used_at is not None:
        raise Conflict("invitation_used", f"This {what} was already used: sign in, or ask for a new one.")
    if invitation.expires_at <= timezone.now():
        raise Conflict("invitation_expired", f"This {what} has expired: ask for a new one.")
    return invitation


def invitation_peek(*, token: str) -> Invitation:
    """The live invitation (organise or role) behind a token, without using it (the accept page shows
    what it gives); the same refusals as ``invitation_accept``."""
    with transaction.atomic():
        return _link(token, (Invitation.Kind.ORGANISE, Invitation.Kind.ROLE))


def password_link_peek(*, token: str) -> Invitation:
    """The live password link behind a token, without using it."""
    with transaction.atomic():
        return _link(token, (Invitation.Kind.PASSWORD,))


@transaction.atomic
def invitation_accept(*, token: str, user: Actor = None, username: str | None = None, password: str | None = None,
                      email: str = "") -> Any:
    """Use an invitation: for the signed-in ``user``, or for a new account (``username``, ``password``,
    optional ``email``). Returns the account. Single use."""
    invitation = _link(token, (Invitation.Kind.ORGANISE, Invitation.Kind.ROLE))
    account = actor(user)
    created = account is None
    if account is None:
        account = _account_create(username=username, password=password, email=email)
    if invitation.kind == Invitation.Kind.ORGANISE:
        _grant_organise(account)
        given = "may organise"
    else:
        assert invitation.tournament is not None
        given = _role_apply(invitation.tournament, account, invitation.role).role
    invitation.used_at = timezone.now()
    invitation.used_by = account
    invitation.save(update_fields=["used_at", "used_by"])
    audit_record(action="invitation.accept", obj=invitation, tournament_id=invitation.tournament_id, user=account,
                 after={"kind": invitation.kind, "given": given, "username": account.get_username(),
                        "new_account": created})
    return account


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by: Actor) -> Invitation:
    """Withdraw an unused link: its creator, staff, or (an invitation to a tournament) its organiser
    (403 ``not_your_invitation``). A used one stays used (409 ``invitation_used``); twice changes nothing."""
    who = _signed_in(by)
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    allowed = _is_staff(who) or locked.created_by_id == who.pk
    if not allowed and locked.kind == Invitation.Kind.ROLE and locked.tournament_id is not None:
        allowed = roles.allows(role_on(who, locked.tournament_id), "manage_roles")
    if not allowed:
        raise NotAllowed("not_your_invitation", "Only whoever made this link, or the tournament's organiser, may withdraw it.")
    if locked.used_at is not None:
        raise Conflict("invitation_used", "This link was already used; take the role away instead.")
    if not locked.revoked:
        locked.revoked = True
        locked.save(update_fields=["revoked"])
        audit_record(action="invitation.revoke", obj=locked, tournament_id=locked.tournament_id, user=who,
                     after={"kind": locked.kind})
    return locked


def invitation_mail(*, invitation: Invitation, link: str) -> bool:
    """Mail the link to the invitation's address, if it has one (the console and the API show it anyway).
    Failing to send never fails the request: False, logged."""
    if not invitation.email:
        return False
    if invitation.kind == Invitation.Kind.PASSWORD:
        subject = "Hang Jack: set a new password"
        body = f"Open this link to set a new password (it works once):\n\n{link}\n"
    elif invitation.kind == Invitation.Kind.ROLE and invitation.tournament is not None:
        label = roles.ROLE_LABELS.get(invitation.role, invitation.role)
        subject = f"Hang Jack: you are invited as {label} of {invitation.tournament.name}"
        body = f"Open this link to accept (it works once):\n\n{link}\n"
    else:
        subject = "Hang Jack: you are invited to organise All Fours events"
        body = f"Open this link to accept (it works once):\n\n{link}\n"
    body += f"\nIt expires on {timezone.localtime(invitation.expires_at):%d %b %Y at %H:%M}.\n"
    try:
        send_mail(subject, body, None, [invitation.email])
    except Exception:  # noqa: BLE001 (no mail server at the venue: the link is on screen anyway)
        log.warning("could not mail invitation %s", invitation.pk, exc_info=True)
        return False
    return True


# ---- password links (a venue without mail) ----------------------------------------------------------------


def password_link_allowed(*, user: Any, by: Actor) -> bool:
    """Whether ``by`` may issue a password link for ``user``: staff for anyone (only a superuser for a
    superuser); an organiser for an account whose every role is on a tournament they are organiser of
    (so nobody takes over an account with roles elsewhere), never a staff account, and an account that may
    organise only if they may too."""
    who = actor(by)
    if who is None:
        return False
    if getattr(user, "is_superuser", False):
        return bool(getattr(who, "is_superuser", False))
    if _is_staff(who):
        return True
    if _is_staff(user):
        return False
    theirs = set(TournamentRole.objects.filter(user=user).values_list("tournament_id", flat=True))
    if not theirs:
        return False
    mine = set(TournamentRole.objects.filter(user=who, role=roles.ORGANISER, tournament_id__in=theirs)
               .values_list("tournament_id", flat=True))
    if theirs - mine:
        return False
    return not may_organise(user) or may_organise(who)


@transaction.atomic
def password_link_issue(*, user: Any, by: Actor, days: int | None = PASSWORD_LINK_DAYS) -> tuple[Invitation, str]:
    """A single-use link to set a new password for ``user`` (403 ``password_link_not_allowed``: see
    ``password_link_allowed``). Earlier unused links for the account are withdrawn."""
    who = _signed_in(by)
    if not password_link_allowed(user=user, by=who):
        raise NotAllowed("password_link_not_allowed",
                         "You may issue a password link only for someone who works on your tournaments alone.")
    valid_days = _days(days, PASSWORD_LINK_DAYS)
    Invitation.objects.filter(kind=Invitation.Kind.PASSWORD, user=user, used_at__isnull=True,
                              revoked=False).update(revoked=True)
    token, digest = _new_token()
    invitation = Invitation.objects.create(
        kind=Invitation.Kind.PASSWORD, token_hash=digest, user=user, email=getattr(user, "email", "") or "",
        created_by=who, expires_at=timezone.now() + timedelta(days=valid_days),
    )
    audit_record(action="password_link.create", obj=invitation, tournament_id=None, user=who,
                 after={"user": user.pk, "username": user.get_username(), "expires_at": invitation.expires_at.isoformat()})
    return invitation, token


@transaction.atomic
def password_link_use(*, token: str, password: str) -> Any:
    """Set the account's new password from a password link (single use; the password checked by Django's
    validators). Its API tokens are revoked and its other sessions end. Returns the account."""
    invitation = _link(token, (Invitation.Kind.PASSWORD,))
    account = invitation.user
    if account is None:  # the account was deleted: the link cascades away, so this is belt and braces
        raise NotFound("invitation_unknown", "This password link is not known: ask for a new one.")
    _check_password(password, account)
    account.set_password(password)
    account.save(update_fields=["password"])
    from knox.models import AuthToken

    AuthToken.objects.filter(user=account).delete()
    now = timezone.now()
    invitation.used_at = now
    invitation.used_by = account
    invitation.save(update_fields=["used_at", "used_by"])
    audit_record(action="password_link.use", obj=invitation, tournament_id=None, user=account,
                 after={"user": account.pk})
    return account


__all__ = [
    "INVITATION_DAYS", "ORGANISE_PERMISSION", "PASSWORD_LINK_DAYS", "invitation_accept", "invitation_create",
    "invitation_mail", "invitation_peek", "invitation_revoke", "may_organise", "organiser_grant",
    "password_link_allowed", "password_link_issue", "password_link_peek", "password_link_use", "role_grant",
    "role_revoke", "signup", "token_digest",
]
