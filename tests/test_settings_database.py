"""PostgreSQL runs with server-side binding and psycopg's automatic preparation (config/settings/base.py).

On the national day PostgreSQL's time was mostly planning (the tablet's board read and a board's public
read are 13-table joins, about 10 ms to plan): a statement run five times on a connection is now prepared
and planned once per connection. ``DATABASE_PREPARE=off`` gives Django's defaults back, for a
transaction-pooling proxy that cannot keep a session's prepared statements.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ("import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default']['OPTIONS']))")


def _options(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    clean.update({"DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONPATH": str(ROOT),
                  "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/unused", **env})
    done = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_postgresql_prepares_what_it_runs_again_by_default() -> None:
    options = _options()
    assert options["server_side_binding"] is True and options["prepare_threshold"] == 5
    assert options["connect_timeout"] == 5


@pytest.mark.parametrize("value", ["off", "0", "false"])
def test_database_prepare_off_restores_djangos_defaults(value: str) -> None:
    options = _options(DATABASE_PREPARE=value)
    assert "server_side_binding" not in options and "prepare_threshold" not in options
