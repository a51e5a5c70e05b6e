"""A deadlock is not an outage: the client is told to send the same request again, soon."""

from __future__ import annotations

import json

from django.db import OperationalError

from config.middleware import database_error_reason, database_unavailable_response


class DeadlockDetected(Exception):
    """Stands in for psycopg.errors.DeadlockDetected (matched by name, psycopg may be absent)."""


def wrapped(cause: Exception) -> OperationalError:
    try:
        raise OperationalError("wrapped") from cause
    except OperationalError as exc:
        return exc


def test_a_deadlock_answers_503_database_busy_with_a_short_retry_after():
    response = database_unavailable_response(wrapped(DeadlockDetected("deadlock detected")))
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert json.loads(response.content)["error"]["code"] == "database_busy"


def test_a_lost_connection_answers_503_database_unavailable():
    code, _message, retry_after = database_error_reason(wrapped(ConnectionRefusedError()))
    assert code == "database_unavailable" and retry_after == 5
