"""A second PostgreSQL connection beside Django's, for tests that hold a row lock or run the statement another
transaction would (tests/publishing/test_publish_lock.py, tests/tournaments/test_standings_lock.py)."""

from __future__ import annotations

import psycopg
from django.db import connection


def second_connection() -> psycopg.Connection:
    """A plain psycopg connection to the test database Django uses (its own session and transaction)."""
    s = connection.settings_dict
    return psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432, user=s["USER"],
                           password=s["PASSWORD"] or None, dbname=s["NAME"])
