"""The chaos walk's server as a process of its own (issue 16: "restarts use a server subprocess").

``ChaosServer`` starts ``python -m tests.web.chaos_server <port> <down-flag>`` on the test database (an
SQLite file or the PostgreSQL test database: a database another process can open), kills it (SIGKILL: a
crash, requests in flight included) and starts it again on the same port, so the tablets' origin, storage
and service worker stay theirs. The process serves the app and its static files as the live server does;
while the flag file exists, every API request answers 503 (the walk's "server down for a while").
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str | None:
    """The test database as a URL another process can open, or None (SQLite in memory)."""
    from django.db import connection

    sd = connection.settings_dict
    if connection.vendor == "sqlite":
        return None if connection.is_in_memory_db() else f"sqlite:///{sd['NAME']}"
    if connection.vendor == "postgresql":
        auth = quote(sd.get("USER") or "") + (":" + quote(sd["PASSWORD"]) if sd.get("PASSWORD") else "")
        return f"postgres://{auth}@{sd.get('HOST') or 'localhost'}:{sd.get('PORT') or 5432}/{sd['NAME']}"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ChaosServer:
    def __init__(self, db_url: str, folder: Path) -> None:
        self.db_url, self.port = db_url, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        self.flag = folder / f"down-{self.port}"
        self.log = folder / f"server-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.launched = 0.0

    @property
    def running(self) -> bool:
        """The process is alive (it may still be starting)."""
        return self.proc is not None and self.proc.poll() is None

    @property
    def answering(self) -> bool:
        if not self.running:
            return False
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def launch(self) -> None:
        """Start the process without waiting for it (the tablets meet a refused connection meanwhile)."""
        env = {**os.environ, "DATABASE_URL": self.db_url, "DJANGO_SETTINGS_MODULE": "config.settings.test",
               "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "tests.web.chaos_server", str(self.port), str(self.flag)],
                                         cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        self.launched = time.monotonic()

    def start(self, wait: float = 60) -> float:
        """Start the process (unless it is starting) and wait until it answers; returns the seconds since launch."""
        if not self.running:
            self.launch()
        assert self.proc is not None
        deadline = time.monotonic() + wait  # from now: the process may have been launched long ago
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the chaos server exited ({self.proc.returncode}); see {self.log}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return time.monotonic() - self.launched
            time.sleep(0.05)
        raise RuntimeError(f"the chaos server did not answer within {wait} s; see {self.log}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def down(self, down: bool) -> None:
        if down:
            self.flag.touch()
        else:
            self.flag.unlink(missing_ok=True)


def main() -> None:  # pragma: no cover (runs in the subprocess)
    port, flag = int(sys.argv[1]), sys.argv[2]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    import rest_framework.views as drf_views
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import WSGIServer, run
    from django.core.wsgi import get_wsgi_application
    from django.http import HttpResponse

    original = drf_views.APIView.dispatch

    def dispatch(view, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.exists(flag):
            return HttpResponse(b'{"error": {"code": "down", "message": "down"}}', status=503,
                                content_type="application/json")
        return original(view, request, *args, **kwargs)

    drf_views.APIView.dispatch = dispatch
    run("127.0.0.1", port, StaticFilesHandler(get_wsgi_application()), threading=True, server_cls=WSGIServer)


if __name__ == "__main__":
    main()
