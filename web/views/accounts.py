"""Accounts without a shell (docs/decisions.md, "Accounts and roles"): accept an invitation, sign up (when
the server allows it), set a password from a password link, reset one by e-mail (Django's views, wired in
``web/urls.py``); and in the console, a tournament's People (roles, invitations, password links) and the
Organisers page (invite organisers, password links; staff: "may organise" for an existing account).

Every change is one service call (``tournaments.services.accounts``); the views only read forms and show
the answer. A link's token is shown once, on the page that made it, and never stored. A link that is
opened puts its token in the session and redirects to the same page without it, so the token leaves the
address bar, the history and any Referer at once (as Django's own password reset does).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from tournaments import roles
from tournaments.errors import DomainError
from tournaments.models import Invitation, Tournament
from tournaments.selectors import accounts as account_reads
from tournaments.services import accounts
from web.account_forms import (
    AccountForm,
    OrganiserInviteForm,
    RoleGrantForm,
    RoleInviteForm,
    SetPasswordForm,
    UsernameForm,
)
from web.http import found
from web.permissions import organiser_tournament
from web.qr import qr_svg

INVITE_SESSION_KEY = "hangjack_invitation"
PASSWORD_LINK_SESSION_KEY = "hangjack_password_link"


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def _link_problem(request: HttpRequest, exc: DomainError, what: str) -> HttpResponse:
    """An unknown, used, withdrawn or expired link: say so and what to do (404 or 409)."""
    return _no_store(render(request, "registration/link_problem.html", {"error": exc, "what": what},
                            status=exc.status_code))


def _new_link(request: HttpRequest, invitation: Invitation, token: str, url_name: str, label: str) -> dict[str, Any]:
    """The link to show once: absolute, with its QR code, and mailed if the invitation has an address."""
    link = request.build_absolute_uri(reverse(url_name, args=[token]))
    mailed = accounts.invitation_mail(invitation=invitation, link=link)
    return {"link": link, "qr": qr_svg(link, label=f"QR code of the {label}"), "label": label,
            "expires_at": invitation.expires_at, "email": invitation.email, "mailed": mailed}


# ---- sign in, sign up ------------------------------------------------------------------------------------


class LoginView(auth_views.LoginView):
    """Django's login, telling the page whether sign-up is open."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["allow_signup"] = getattr(settings, "HANGJACK_ALLOW_SIGNUP", False)
        return context


@never_cache
@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """A new account that may organise events, when ``HANGJACK_ALLOW_SIGNUP`` is on (403 page otherwise)."""
    if not getattr(settings, "HANGJACK_ALLOW_SIGNUP", False):
        return render(request, "registration/signup.html", {"closed": True}, status=403)
    form = AccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            account = accounts.signup(username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                                      email=form.cleaned_data["email"])
        except DomainError as exc:
            form.add_refusal(exc)
        else:
            login(request, account, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {account.get_username()}. Your account may organise events.")
            return HttpResponseRedirect(reverse("web:console"))
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


# ---- invitations ---------------------------------------------------------------------------------------


@never_cache
def invite_link(request: HttpRequest, token: str) -> HttpResponse:
    """The link as sent: keep the token in the session, go to the page without it."""
    request.session[INVITE_SESSION_KEY] = token
    return HttpResponseRedirect(reverse("web:invite"))


def _invitation_gives(invitation: Invitation) -> str:
    if invitation.kind == Invitation.Kind.ORGANISE:
        return "an account that may create All Fours events and invite other organisers"
    assert invitation.tournament is not None
    label = roles.ROLE_LABELS.get(invitation.role, invitation.role)
    what = roles.ROLE_EXPLANATIONS[invitation.role].rstrip(".").lower()
    return f"the role of {label} of {invitation.tournament.name} ({what})"


def _after_accepting(invitation: Invitation) -> str:
    if invitation.kind == Invitation.Kind.ROLE and invitation.tournament is not None:
        return reverse("web:console_tournament", args=[invitation.tournament.slug])
    return reverse("web:console")


@never_cache
@sensitive_post_parameters("password1", "password2")
def invite(request: HttpRequest) -> HttpResponse:
    """Accept an invitation: create an account (username, password twice, e-mail optional), or accept it
    as the signed-in user."""
    token = request.session.get(INVITE_SESSION_KEY, "")
    try:
        invitation = accounts.invitation_peek(token=token)
    except DomainError as exc:
        return _link_problem(request, exc, "invitation")
    form = AccountForm(request.POST if request.method == "POST" and request.POST.get("action") != "accept_signed_in"
                       else None)
    if request.method == "POST":
        signed_in = request.POST.get("action") == "accept_signed_in"
        try:
            if signed_in:
                if not request.user.is_authenticated:
                    raise PermissionDenied("Sign in first.")
                account = accounts.invitation_accept(token=token, user=request.user)
            elif form.is_valid():
                account = accounts.invitation_accept(
                    token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                    email=form.cleaned_data["email"])
            else:
                account = None
        except DomainError as exc:
            if exc.code.startswith("invitation_"):
                return _link_problem(request, exc, "invitation")
            form.add_refusal(exc)
            account = None
        if account is not None:
            request.session.pop(INVITE_SESSION_KEY, None)
            if not signed_in:
                login(request, account, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {account.get_username()}: you now have {_invitation_gives(invitation)}.")
            return HttpResponseRedirect(_after_accepting(invitation))
    response = render(request, "registration/invite.html", {
        "invitation": invitation, "gives": _invitation_gives(invitation), "form": form,
    }, status=400 if form.errors else 200)
    return _no_store(response)


# ---- password links ------------------------------------------------------------------------------------


@never_cache
def password_link(request: HttpRequest, token: str) -> HttpResponse:
    request.session[PASSWORD_LINK_SESSION_KEY] = token
    return HttpResponseRedirect(reverse("web:password_link_set"))


@never_cache
@sensitive_post_parameters("password1", "password2")
def password_link_set(request: HttpRequest) -> HttpResponse:
    """Set a new password from a password link (single use), then sign in with it."""
    token = request.session.get(PASSWORD_LINK_SESSION_KEY, "")
    try:
        link = accounts.password_link_peek(token=token)
    except DomainError as exc:
        return _link_problem(request, exc, "password link")
    form = SetPasswordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            account = accounts.password_link_use(token=token, password=form.cleaned_data["password1"])
        except DomainError as exc:
            if exc.code.startswith("invitation_"):
                return _link_problem(request, exc, "password link")
            form.add_refusal(exc)
        else:
            request.session.pop(PASSWORD_LINK_SESSION_KEY, None)
            messages.success(request, f"The password of {account.get_username()} is set: sign in with it.")
            return HttpResponseRedirect(reverse("web:login"))
    return _no_store(render(request, "registration/password_link.html", {"form": form, "account": link.user},
                            status=400 if form.errors else 200))


# ---- the console: a tournament's people ----------------------------------------------------------------------


def _people_page(request: HttpRequest, tournament: Tournament, *, grant: RoleGrantForm | None = None,
                 invite_form: RoleInviteForm | None = None, new_link: dict[str, Any] | None = None,
                 status: int = 200) -> HttpResponse:
    may_manage = "manage_roles" in getattr(tournament, "allowed_actions", ())
    people = account_reads.tournament_people(tournament)
    for person in people:
        person.can_reset = may_manage and person.user_id != request.user.pk and accounts.password_link_allowed(  # type: ignore[attr-defined]
            user=person.user, by=request.user)
        person.label = roles.ROLE_LABELS.get(person.role, person.role)  # type: ignore[attr-defined]
    invitations = account_reads.tournament_invitations(tournament) if may_manage else []
    for invitation in invitations:
        invitation.role_label = roles.ROLE_LABELS.get(invitation.role, invitation.role)  # type: ignore[attr-defined]
    context = {
        "tournament": tournament, "cnav": "people", "people": people, "may_manage": may_manage,
        "invitations": invitations,
        "grant": grant or RoleGrantForm(prefix="grant"),
        "invite": invite_form or RoleInviteForm(prefix="invite"),
        "new_link": new_link, "explanations": [(roles.ROLE_LABELS[r], roles.ROLE_EXPLANATIONS[r]) for r in roles.ROLES],
        "organisers": sum(1 for p in people if p.role == roles.ORGANISER),
    }
    return _no_store(render(request, "console/people.html", context, status=status))


@login_required
@never_cache
def people(request: HttpRequest, slug: str) -> HttpResponse:
    """Who works on the tournament; its organiser gives and takes roles, makes invitation and password links."""
    if request.method != "POST":
        return _people_page(request, organiser_tournament(request.user, slug))
    tournament = organiser_tournament(request.user, slug, "manage_roles")
    action = request.POST.get("action", "")
    back = HttpResponseRedirect(reverse("web:console_people", args=[slug]))
    user = request.user
    try:
        if action == "grant":
            form = RoleGrantForm(request.POST, prefix="grant")
            if not form.is_valid():
                return _people_page(request, tournament, grant=form, status=400)
            try:
                person = account_reads.user_by_username(form.cleaned_data["username"])
                accounts.role_grant(tournament=tournament, user=person, role=form.cleaned_data["role"], by=user)
            except DomainError as exc:
                form.add_refusal(exc)
                return _people_page(request, tournament, grant=form, status=_form_status(exc))
            messages.success(request, f"{person.get_username()} is now "
                             f"{roles.ROLE_LABELS[form.cleaned_data['role']]} of {tournament.name}.")
            return back
        if action == "invite":
            invite_form = RoleInviteForm(request.POST, prefix="invite")
            if not invite_form.is_valid():
                return _people_page(request, tournament, invite_form=invite_form, status=400)
            try:
                invitation, token = accounts.invitation_create(
                    kind=Invitation.Kind.ROLE, by=user, tournament=tournament, role=invite_form.cleaned_data["role"],
                    email=invite_form.cleaned_data["email"] or "", days=invite_form.cleaned_data["days"])
            except DomainError as exc:
                invite_form.add_refusal(exc)
                return _people_page(request, tournament, invite_form=invite_form, status=_form_status(exc))
            label = f"invitation as {roles.ROLE_LABELS[invitation.role]}"
            return _people_page(request, tournament, new_link=_new_link(request, invitation, token, "web:invite_link", label))
        if action == "revoke_role":
            person = found(account_reads.user_by_id, _int(request.POST.get("user")))
            accounts.role_revoke(tournament=tournament, user=person, by=user)
            messages.success(request, f"{person.get_username()} no longer has a role on {tournament.name}.")
            return back
        if action == "revoke_invitation":
            invitation = found(account_reads.invitation_by_id, _int(request.POST.get("invitation")))
            if invitation.tournament_id != tournament.pk:
                raise PermissionDenied("This invitation is not for this tournament.")
            accounts.invitation_revoke(invitation=invitation, by=user)
            messages.success(request, "The invitation link no longer works.")
            return back
        if action == "password_link":
            person = found(account_reads.user_by_id, _int(request.POST.get("user")))
            link, token = accounts.password_link_issue(user=person, by=user)
            new = _new_link(request, link, token, "web:password_link", f"password link for {person.get_username()}")
            return _people_page(request, tournament, new_link=new)
    except DomainError as exc:
        messages.error(request, exc.message)
        return back
    messages.error(request, "Unknown action.")
    return back


def _form_status(exc: DomainError) -> int:
    """A form shown again with a refusal: 403 when the caller may not, 400 for anything to correct."""
    return 403 if exc.status_code == 403 else 400


def _int(value: Any) -> int:
    """A posted id, or 0 (finds nothing) when it is not one a database row could have."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return 0
    return number if 0 < number < 2**63 else 0


# ---- the console: organisers ------------------------------------------------------------------------------


def _organisers_page(request: HttpRequest, *, invite_form: OrganiserInviteForm | None = None,
                     reset: UsernameForm | None = None, grant: UsernameForm | None = None,
                     new_link: dict[str, Any] | None = None, status: int = 200) -> HttpResponse:
    staff = bool(request.user.is_staff or request.user.is_superuser)
    context = {
        "cnav": "organisers", "staff": staff,
        "invitations": account_reads.organise_invitations(request.user, every=staff),
        "links": account_reads.password_links(request.user, every=staff),
        "invite": invite_form or OrganiserInviteForm(prefix="invite"),
        "reset": reset or UsernameForm(prefix="reset"),
        "grant": grant or UsernameForm(prefix="grant"),
        "new_link": new_link,
    }
    return _no_store(render(request, "console/organisers.html", context, status=status))


@login_required
@never_cache
def organisers(request: HttpRequest) -> HttpResponse:
    """For accounts that may organise: invite organisers, issue password links; staff also give "may organise"."""
    if not accounts.may_organise(request.user):
        raise PermissionDenied("Only an account that may organise events can invite organisers.")
    if request.method != "POST":
        return _organisers_page(request)
    action = request.POST.get("action", "")
    user = request.user
    back = HttpResponseRedirect(reverse("web:console_organisers"))
    if action == "invite":
        invite_form = OrganiserInviteForm(request.POST, prefix="invite")
        if not invite_form.is_valid():
            return _organisers_page(request, invite_form=invite_form, status=400)
        try:
            invitation, token = accounts.invitation_create(kind=Invitation.Kind.ORGANISE, by=user,
                                                           email=invite_form.cleaned_data["email"] or "",
                                                           days=invite_form.cleaned_data["days"])
        except DomainError as exc:
            invite_form.add_refusal(exc)
            return _organisers_page(request, invite_form=invite_form, status=_form_status(exc))
        return _organisers_page(request, new_link=_new_link(request, invitation, token, "web:invite_link",
                                                             "invitation to organise"))
    if action in ("password_link", "grant"):
        form = UsernameForm(request.POST, prefix="reset" if action == "password_link" else "grant")
        forms_ = {"reset": form} if action == "password_link" else {"grant": form}
        if not form.is_valid():
            return _organisers_page(request, **forms_, status=400)  # type: ignore[arg-type]
        try:
            person = account_reads.user_by_username(form.cleaned_data["username"])
            if action == "grant":
                accounts.organiser_grant(user=person, by=user)
            else:
                link, token = accounts.password_link_issue(user=person, by=user)
        except DomainError as exc:
            form.add_refusal(exc)
            return _organisers_page(request, **forms_, status=_form_status(exc))  # type: ignore[arg-type]
        if action == "grant":
            messages.success(request, f"{person.get_username()} may now create events and invite organisers.")
            return back
        return _organisers_page(request, new_link=_new_link(request, link, token, "web:password_link",
                                                             f"password link for {person.get_username()}"))
    if action == "revoke_invitation":
        invitation = found(account_reads.invitation_by_id, _int(request.POST.get("invitation")))
        try:
            accounts.invitation_revoke(invitation=invitation, by=user)
        except DomainError as exc:
            messages.error(request, exc.message)
            return back
        messages.success(request, "The link no longer works.")
        return back
    messages.error(request, "Unknown action.")
    return back
