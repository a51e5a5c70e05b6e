"""Organiser sign-in for the API: a throttled login that issues a knox token (stored hashed), logout, me."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import authenticate, logout
from drf_spectacular.utils import OpenApiExample, extend_schema
from knox.models import AuthToken
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..permissions import IsSignedIn, organiser_user
from ..schema import error_responses
from ..serializers.auth import LoginSerializer, TokenSerializer, UserSerializer
from ..throttles import LoginAccountThrottle, LoginThrottle

TOKEN_LIFETIME = timedelta(hours=24)


class InvalidCredentials(APIException):
    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = "Wrong username or password."
    default_code = "invalid_credentials"
    auth_header = "Token"


def _user_body(user: Any) -> dict[str, Any]:
    return dict(UserSerializer(user).data)


class LoginView(APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes = [LoginThrottle, LoginAccountThrottle]

    @extend_schema(
        operation_id="auth_login",
        tags=["auth"],
        summary="Sign in as an organiser: a knox token for `Authorization: Token <token>`",
        request=LoginSerializer,
        responses={201: TokenSerializer, **error_responses(400, 401, 429)},
        auth=[],
        examples=[
            OpenApiExample("Login", value={"username": "organiser", "password": "correct horse"}, request_only=True),
            OpenApiExample(
                "Token",
                value={
                    "token": "9f3c0d1e6b2a4c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d",
                    "expiry": "2026-12-01T09:00:00-04:00",
                    "user": {"id": 3, "username": "organiser", "is_staff": False,
                             "roles": [{"tournament": 1, "tournament_name": "Carnival Open", "role": "organiser"}]},
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise InvalidCredentials()
        instance, token = AuthToken.objects.create(user, expiry=TOKEN_LIFETIME)
        body = {"token": token, "expiry": instance.expiry, "user": user}
        return Response(TokenSerializer(body).data, status=status.HTTP_201_CREATED)


class LogoutView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(
        operation_id="auth_logout",
        tags=["auth"],
        summary="Sign out: the token used (or the session) stops working",
        request=None,
        responses={204: None, **error_responses(401, 403)},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [IsSignedIn]

    @extend_schema(
        operation_id="auth_me",
        tags=["auth"],
        summary="Who is signed in, and the tournaments they organise",
        responses={200: UserSerializer, **error_responses(401, 403)},
        examples=[
            OpenApiExample(
                "Organiser",
                value={"id": 3, "username": "organiser", "is_staff": False,
                       "roles": [{"tournament": 1, "tournament_name": "Carnival Open", "role": "organiser"}]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(_user_body(organiser_user(request)))
