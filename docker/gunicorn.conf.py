"""gunicorn settings for the web container (``gunicorn --config docker/gunicorn.conf.py config.wsgi:application``).

Access lines go to stdout with the tablet pairing code in ``/tablet/pair/<code>`` (and the token of an
invitation, password or reset link under ``/accounts/``) replaced by ``…``: a code is single use and
short-lived, but no credential belongs in a log (docs/security.md).
"""

from __future__ import annotations

import os
import re
from typing import Any

from gunicorn.glogging import Logger

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Six processes of two threads on a 2-core box (3 x 4 until 2026-12-06): the same twelve requests at once, but
# fewer threads waiting for one process's GIL. A thread back from each PostgreSQL round trip waited for the
# GIL behind its process's busy threads, so a burst of hands made every request in a process slower, the
# threads filled, and requests queued: on the national day the tablets' p99 fell from 1.2 s to 0.36 s and
# gunicorn's CPU from 0.47 to 0.42 of a core with 6 x 2; 12 x 1 gave 0.56 s (a keep-alive connection waits
# for its process's one thread). docs/operations.md, "The fifth look".
workers = int(os.environ.get("WEB_CONCURRENCY", "6"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5  # Caddy closes its idle connections to us after 4 s (docker/Caddyfile): keep this above it
# A worker is replaced after this many requests (a guard against a slow leak). It was 2,000: at a national day's
# 64 tablet requests a second on 3 workers that replaced each worker every 95 s, and a new worker imports
# Django and opens its connections (about a second of CPU) while the others queue its share: the tablets' p99.
max_requests = 50000
max_requests_jitter = 5000
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")  # only Caddy reaches the container
control_socket_disable = True  # gunicorn >= 25 would open one in $HOME; not needed in a container
accesslog = "-"
errorlog = "-"
access_log_format = '%(t)s [%(p)s] %(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'

PAIRING_CODE = re.compile(r"(/tablet/pair/|/accounts/invite/|/accounts/password-link/)[^/?\s\"]+")
RESET_TOKEN = re.compile(r"(/accounts/password/reset/[^/?\s\"]+/)[^/?\s\"]+")


def redact(text: str) -> str:
    """Pairing codes and the tokens of invitation, password and reset links, out of a log line."""
    return RESET_TOKEN.sub(r"\1…", PAIRING_CODE.sub(r"\1…", text))


class RedactingLogger(Logger):
    """gunicorn's logger, with pairing codes taken out of the request line and path."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms


logger_class = RedactingLogger


def post_worker_init(worker: Any) -> None:
    """``GUNICORN_SWITCH_INTERVAL`` (seconds; unset: Python's own 0.005): the interpreter's GIL switch interval
    in each worker. A thread back from a PostgreSQL round trip waits up to this long for its process's GIL
    behind the other, busy thread. At 1 ms a five-minute national-day check gave a tablets' p99 of 240 ms
    (362 without), but the full run after it 503 ms (507 without): no measured gain, so it stays off
    (docs/operations.md, "The fifth look")."""
    import sys

    value = os.environ.get("GUNICORN_SWITCH_INTERVAL", "")
    if value:
        sys.setswitchinterval(float(value))
