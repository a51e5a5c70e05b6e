"""Accounts and roles over the API: invitations (create, accept, withdraw), a tournament's roles (list, give,
take away), password links (issue, use) and self sign-up. Each write is one service call
(``tournaments.services.accounts``); who may is the services' and ``tournaments.roles``' business. A link's
token is in the answer that creates it, once, and never again."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import DomainError, ValidationFailed
from tournaments.models import Invitation, TournamentRole
from tournaments.selectors import accounts as account_reads
from tournaments.services import accounts

from ..permissions import IsOrganiser, IsSignedIn, organiser_user, tablet_device
from ..schema import error_responses
from ..serializers.accounts import (
    AccountSerializer,
    InvitationAcceptSerializer,
    InvitationCreateSerializer,
    NewLinkSerializer,
    PasswordLinkCreateSerializer,
    PasswordLinkUseSerializer,
    RoleGrantSerializer,
    SignupSerializer,
    TournamentRoleSerializer,
)
from ..throttles import LoginThrottle
from .scoping import TournamentScopedMixin, get_or_404

INVITE_PATH = "/accounts/invite/"
PASSWORD_LINK_PATH = "/accounts/password-link/"
TOKEN_EXAMPLE = "Xq3v9PzL0cT2mB7nR4sW8yD1fH6jK5aE0uG3iO9pQ2w"
INVITATION_EXAMPLE = {
    "id": 7, "kind": "role", "tournament": 1, "role": "scorekeeper", "email": "door@example.org", "user": None,
    "created_at": "2026-02-10T18:00:00-04:00", "expires_at": "2026-02-17T18:00:00-04:00", "used_at": None,
    "revoked": False,
}
NEW_LINK_EXAMPLE = {**INVITATION_EXAMPLE, "token": TOKEN_EXAMPLE,
                    "link": f"https://hangjack.example.org{INVITE_PATH}{TOKEN_EXAMPLE}/", "mailed": True}
ACCOUNT_EXAMPLE = {"id": 12, "username": "kerwin", "may_organise": False,
                   "roles": [{"tournament": 1, "role": "scorekeeper"}]}
ROLE_EXAMPLE = {"user": 12, "username": "kerwin", "tournament": 1, "role": "scorekeeper"}


def _error(status_code: int, code: str, message: str) -> OpenApiExample:
    """An example refusal of this operation, in the one error shape."""
    return OpenApiExample(code, value={"error": {"code": code, "message": message}}, response_only=True,
                          status_codes=[str(status_code)])


def _not_a_tablet(request: Request) -> None:
    if tablet_device(request) is not None:
        raise exceptions.PermissionDenied("A scoring tablet cannot do this.", code="tablet_not_allowed")


def _not_stored(data: Any, status_code: int = status.HTTP_200_OK) -> Response:
    """An answer that carries a secret or an account: never kept by a cache."""
    response = Response(data, status=status_code)
    response["Cache-Control"] = "no-store"
    return response


def _new_link(request: Request, invitation: Invitation, token: str, path: str) -> Response:
    link = request.build_absolute_uri(f"{path}{token}/")
    mailed = accounts.invitation_mail(invitation=invitation, link=link)
    invitation.token, invitation.link, invitation.mailed = token, link, mailed  # type: ignore[attr-defined]
    return _not_stored(NewLinkSerializer(invitation).data, status.HTTP_201_CREATED)


def _account(user: Any) -> dict[str, Any]:
    body = {"id": user.pk, "username": user.get_username(), "may_organise": accounts.may_organise(user),
            "roles": list(TournamentRole.objects.filter(user=user).order_by("tournament_id"))}
    return dict(AccountSerializer(body).data)


def _user_named(username: str, field: str = "username") -> Any:
    """The account, or 400 ``user_unknown`` on the field (the caller typed it)."""
    try:
        return account_reads.user_by_username(username)
    except DomainError as exc:
        raise ValidationFailed(exc.code, exc.message, fields={field: exc.message}) from None


# ---- invitations ----------------------------------------------------------------------------------------


class InvitationCreateView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(
        operation_id="invitations_create", tags=["accounts"],
        summary="Make an invitation link (shown once): to organise events (staff or an account that may "
                "organise), or a role on one tournament (its organiser)",
        request=InvitationCreateSerializer,
        responses={201: NewLinkSerializer, **error_responses(400, 403)},
        examples=[
            OpenApiExample("A scorekeeper", value={"kind": "role", "tournament": 1, "role": "scorekeeper",
                                                   "email": "door@example.org", "days": 7}, request_only=True),
            OpenApiExample("An organiser", value={"kind": "organise", "email": ""}, request_only=True),
            OpenApiExample("The link", value=NEW_LINK_EXAMPLE, response_only=True, status_codes=["201"]),
            _error(403, "role_not_allowed", "A co-organiser may not give or take away roles, or invite people; "
                                            "ask the tournament's organiser."),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = InvitationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        invitation, token = accounts.invitation_create(
            kind=data["kind"], by=organiser_user(request), tournament=data["tournament"], role=data["role"],
            email=data["email"], days=data["days"])
        return _new_link(request, invitation, token, INVITE_PATH)


class InvitationAcceptView(APIView):
    """No credentials needed: the token is the credential. Signed in and no username: accept as yourself."""

    throttle_classes = [LoginThrottle]

    @extend_schema(
        operation_id="invitations_accept", tags=["accounts"],
        summary="Accept an invitation: a new account (username, password) or, signed in, your own. "
                "Unknown token 404; expired, used or withdrawn 409",
        request=InvitationAcceptSerializer,
        responses={201: AccountSerializer, **error_responses(400, 404, 409, 429)},
        auth=[],
        examples=[
            OpenApiExample("New account", value={"token": TOKEN_EXAMPLE, "username": "kerwin",
                                                 "password": "Parang-Jack-2026", "email": ""}, request_only=True),
            OpenApiExample("Signed in", value={"token": TOKEN_EXAMPLE}, request_only=True),
            OpenApiExample("The account", value=ACCOUNT_EXAMPLE, response_only=True, status_codes=["201"]),
            _error(409, "invitation_expired", "This invitation has expired: ask for a new one."),
            _error(400, "password_invalid", "This password is too common."),
        ],
    )
    def post(self, request: Request) -> Response:
        _not_a_tablet(request)
        serializer = InvitationAcceptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = organiser_user(request) if not data["username"] else None
        account = accounts.invitation_accept(token=data["token"], user=user, username=data["username"] or None,
                                             password=data["password"] or None, email=data["email"])
        return _not_stored(_account(account), status.HTTP_201_CREATED)


class InvitationDetailView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(
        operation_id="invitations_revoke", tags=["accounts"],
        summary="Withdraw an unused invitation or password link (its maker, the tournament's organiser, or "
                "staff); a used one: 409",
        request=None,
        responses={204: None, **error_responses(403, 404, 409)},
    )
    def delete(self, request: Request, pk: int) -> Response:
        invitation = get_or_404(Invitation.objects.all(), pk=pk)
        accounts.invitation_revoke(invitation=invitation, by=organiser_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---- a tournament's roles -----------------------------------------------------------------------------------


class RolesView(TournamentScopedMixin, APIView):
    """Reading: any role on the tournament; giving a role: its organiser (``tournaments.roles``)."""

    permission_classes = [IsOrganiser]

    @property
    def tournament_action(self) -> str:  # type: ignore[override]
        return "read" if self.request.method in SAFE_METHODS else "manage_roles"

    @extend_schema(
        operation_id="roles_list", tags=["accounts"],
        summary="Who holds which role on the tournament (organisers first)",
        responses={200: TournamentRoleSerializer(many=True)},
        examples=[OpenApiExample("Roles", value=[{**ROLE_EXAMPLE, "user": 3, "username": "organiser",
                                                  "role": "organiser"}, ROLE_EXAMPLE], response_only=True)],
    )
    def get(self, request: Request, tournament_pk: int) -> Response:
        return Response(TournamentRoleSerializer(account_reads.tournament_people(self.tournament), many=True).data)

    @extend_schema(
        operation_id="roles_grant", tags=["accounts"],
        summary="Give an existing account a role on the tournament, or change its role (the organiser only; "
                "the last organiser cannot step down: 409)",
        request=RoleGrantSerializer,
        responses={201: TournamentRoleSerializer, **error_responses(403, 409)},
        examples=[
            OpenApiExample("A scorekeeper", value={"username": "kerwin", "role": "scorekeeper"}, request_only=True),
            OpenApiExample("Given", value=ROLE_EXAMPLE, response_only=True, status_codes=["201"]),
            _error(409, "last_organiser", "The tournament needs an organiser: make someone else organiser first."),
        ],
    )
    def post(self, request: Request, tournament_pk: int) -> Response:
        tournament = self.tournament
        serializer = RoleGrantSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _user_named(serializer.validated_data["username"])
        granted = accounts.role_grant(tournament=tournament, user=user, role=serializer.validated_data["role"],
                                      by=organiser_user(request))
        return Response(TournamentRoleSerializer(granted).data, status=status.HTTP_201_CREATED)


class RoleDetailView(TournamentScopedMixin, APIView):
    permission_classes = [IsOrganiser]
    tournament_action = "manage_roles"

    @extend_schema(
        operation_id="roles_revoke", tags=["accounts"],
        summary="Take an account's role on the tournament away (the organiser only; never the last organiser)",
        request=None,
        responses={204: None, **error_responses(403, 404, 409)},
    )
    def delete(self, request: Request, tournament_pk: int, user_id: int) -> Response:
        tournament = self.tournament
        user = account_reads.user_by_id(user_id)
        accounts.role_revoke(tournament=tournament, user=user, by=organiser_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---- password links and sign-up --------------------------------------------------------------------------------


class PasswordLinkCreateView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(
        operation_id="password_links_create", tags=["accounts"],
        summary="A single-use link to set a new password for an account (a venue without mail): staff, or "
                "the organiser of every tournament the account works on. Shown once",
        request=PasswordLinkCreateSerializer,
        responses={201: NewLinkSerializer, **error_responses(400, 403)},
        examples=[
            OpenApiExample("For kerwin", value={"username": "kerwin", "days": 1}, request_only=True),
            OpenApiExample("The link", value={**NEW_LINK_EXAMPLE, "kind": "password", "tournament": None, "role": "",
                                              "user": 12, "email": "", "mailed": False,
                                              "link": f"https://hangjack.example.org{PASSWORD_LINK_PATH}{TOKEN_EXAMPLE}/"},
                           response_only=True, status_codes=["201"]),
            _error(403, "password_link_not_allowed",
                   "You may issue a password link only for someone who works on your tournaments alone."),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordLinkCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _user_named(serializer.validated_data["username"])
        link, token = accounts.password_link_issue(user=user, by=organiser_user(request),
                                                   days=serializer.validated_data["days"])
        return _new_link(request, link, token, PASSWORD_LINK_PATH)


class PasswordLinkUseView(APIView):
    """No credentials needed: the token is the credential."""

    throttle_classes = [LoginThrottle]

    @extend_schema(
        operation_id="password_links_use", tags=["accounts"],
        summary="Set a new password from a password link (single use; the account's API tokens are revoked)",
        request=PasswordLinkUseSerializer,
        responses={200: AccountSerializer, **error_responses(400, 404, 409, 429)},
        auth=[],
        examples=[
            OpenApiExample("New password", value={"token": TOKEN_EXAMPLE, "password": "Parang-Jack-2026"},
                           request_only=True),
            OpenApiExample("The account", value=ACCOUNT_EXAMPLE, response_only=True, status_codes=["200"]),
            _error(409, "invitation_used", "This password link was already used: sign in, or ask for a new one."),
        ],
    )
    def post(self, request: Request) -> Response:
        _not_a_tablet(request)
        serializer = PasswordLinkUseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        account = accounts.password_link_use(token=serializer.validated_data["token"],
                                             password=serializer.validated_data["password"])
        return _not_stored(_account(account))


class SignupView(APIView):
    throttle_classes = [LoginThrottle]

    @extend_schema(
        operation_id="auth_signup", tags=["auth"],
        summary="Self sign-up: an account that may organise events, when the server allows it "
                "(HANGJACK_ALLOW_SIGNUP; otherwise 403 signup_closed)",
        request=SignupSerializer,
        responses={201: AccountSerializer, **error_responses(400, 403, 429)},
        auth=[],
        examples=[
            OpenApiExample("Sign up", value={"username": "marcia", "password": "Parang-Jack-2026",
                                             "email": "marcia@example.org"}, request_only=True),
            OpenApiExample("The account", value={**ACCOUNT_EXAMPLE, "username": "marcia", "may_organise": True,
                                                 "roles": []}, response_only=True, status_codes=["201"]),
            _error(403, "signup_closed", "This server does not take sign-ups: ask an organiser for an invitation."),
        ],
    )
    def post(self, request: Request) -> Response:
        _not_a_tablet(request)
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        account = accounts.signup(**serializer.validated_data)
        return Response(_account(account), status=status.HTTP_201_CREATED)
