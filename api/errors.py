"""The one error shape, in one place.

Every 4xx (and the 503 of a lost database) answers ``{"error": {"code", "message", "fields", "current"}}``
(docs/decisions.md, errors): ``fields`` maps a path to a message for validation errors (an engine refusal is
one entry, its path inside the hand prefixed ``hand.``), ``current`` carries the current state for 409
and 412. ``exception_handler`` maps DRF's exceptions, Django's, the database's and the services'
``DomainError`` family; ``page_not_found`` and friends make Django's own handlers answer JSON on /api/.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response

from config.middleware import database_error_reason
from scoring import InvalidHand
from tournaments.errors import DomainError

log = logging.getLogger(__name__)

API_PREFIX = "/api/"


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


class PreconditionRequired(exceptions.APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = "This request needs a precondition header."
    default_code = "precondition_required"


def error_body(
    code: str,
    message: str,
    fields: Mapping[str, str] | None = None,
    current: Any = None,
) -> dict[str, Any]:
    """The error document: ``fields`` and ``current`` only when they say something."""
    error: dict[str, Any] = {"code": code, "message": message}
    if fields:
        error["fields"] = dict(fields)
    if current is not None:
        error["current"] = current
    return {"error": error}


def flatten_errors(detail: Any, prefix: str = "") -> dict[str, str]:
    """DRF's nested validation detail as ``{path: first message}``: ``hand.low.card``, ``seating[2]``."""
    fields: dict[str, str] = {}
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = str(key)
            if name in ("non_field_errors", "__all__"):
                path = prefix
            else:
                path = f"{prefix}.{name}" if prefix else name
            for sub_path, message in flatten_errors(value, path).items():
                fields.setdefault(sub_path, message)
    elif isinstance(detail, list):
        if detail and all(not isinstance(item, (Mapping, list)) for item in detail):
            fields[prefix] = str(detail[0])
        else:
            for index, item in enumerate(detail):
                if item in ({}, [], None):
                    continue
                for sub_path, message in flatten_errors(item, f"{prefix}[{index}]").items():
                    fields.setdefault(sub_path, message)
    elif detail is not None:
        fields[prefix] = str(detail)
    return fields


def first_code(detail: Any, default: str) -> str:
    """The code of the first error in a DRF detail tree."""
    if isinstance(detail, Mapping):
        for value in detail.values():
            return first_code(value, default)
    elif isinstance(detail, list):
        for item in detail:
            return first_code(item, default)
    return getattr(detail, "code", None) or default


def engine_field_path(path: str) -> str:
    """The engine's path as the API names it: always under ``hand.`` (``hands[0].low`` -> ``hand.low``)."""
    if path.startswith("hands[") and "]" in path:
        path = path[path.index("]") + 1 :].lstrip(".")
    elif path == "hand" or path.startswith("hand.") or path.startswith("hand["):
        path = path[4:].lstrip(".")
    return f"hand.{path}" if path else "hand"


def _validation_response(exc: exceptions.ValidationError) -> Response:
    fields = flatten_errors(exc.detail)
    message = "The request is not valid."
    if "" in fields:
        message = fields.pop("")
    elif len(fields) == 1:
        message = next(iter(fields.values()))
    code = first_code(exc.detail, "invalid")
    if code in ("invalid", "required", "null", "blank", "does_not_exist", "incorrect_type"):
        code = "invalid" if fields else code
    return Response(error_body(code, message, fields), status=400)


def _api_exception_response(exc: exceptions.APIException) -> Response:
    detail = exc.detail
    code = getattr(detail, "code", None) or exc.default_code
    message = str(detail) if not isinstance(detail, (list, dict)) else str(exc.default_detail)
    response = Response(error_body(str(code), message), status=exc.status_code)
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        response["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait is not None:
        response["Retry-After"] = str(max(1, int(wait + 0.999)))
    return response


def domain_error_response(exc: DomainError) -> Response:
    """A service's refusal: its status, code, sentence, fields and current state, as they are."""
    status_code = int(getattr(exc, "status_code", 400))
    fields = getattr(exc, "fields", None) or None
    current = getattr(exc, "current", None)
    message = getattr(exc, "message", None) or str(exc)
    response = Response(error_body(exc.code, message, fields, current), status=status_code)
    if status_code == 401:
        response["WWW-Authenticate"] = "Device"
    return response


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every refusal in the one shape; None (a real 500) only for bugs."""
    if isinstance(exc, DomainError):
        return domain_error_response(exc)
    if isinstance(exc, InvalidHand):
        return Response(error_body(exc.code, exc.message, {engine_field_path(exc.path): exc.message}), status=400)
    if isinstance(exc, exceptions.ValidationError):
        return _validation_response(exc)
    if isinstance(exc, exceptions.APIException):
        return _api_exception_response(exc)
    if isinstance(exc, Http404):
        return Response(error_body("not_found", "Not found."), status=404)
    if isinstance(exc, DjangoPermissionDenied):
        return Response(error_body("permission_denied", "You may not do this."), status=403)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        return _validation_response(exceptions.ValidationError(detail))
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("payload_too_large", "The request body is too large."), status=413)
    if isinstance(exc, (ProtectedError, RestrictedError)):
        return Response(error_body("in_use", "Other records still refer to this one."), status=409)
    if isinstance(exc, IntegrityError):
        log.info("integrity error answered 409: %s", exc)
        return Response(error_body("conflict", "This conflicts with the current state; reload and retry."), status=409)
    if isinstance(exc, DataError):
        return Response(error_body("invalid_value", "A value is out of range or not storable."), status=400)
    if isinstance(exc, (OperationalError, InterfaceError)):
        code, message, retry_after = database_error_reason(exc)
        response = Response(error_body(code, message), status=503)
        response["Retry-After"] = str(retry_after)
        return response
    if isinstance(exc, SuspiciousOperation):
        return Response(error_body("bad_request", "The request was refused."), status=400)
    return None


# ---- Django's own handlers (config/urls.py): JSON on /api/, the default pages elsewhere ----------------


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _json(code: str, message: str, status_code: int) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status_code)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig):
            return _json("payload_too_large", "The request body is too large.", 413)
        return _json("bad_request", "The request was refused.", 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json("permission_denied", "You may not do this.", 403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json("not_found", "No such endpoint.", 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json("server_error", "Something went wrong on our side; it has been logged.", 500)
    return defaults.server_error(request)
