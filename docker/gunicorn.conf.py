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
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))  # benchmarks/api.py: p99 aim holds at 4
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
