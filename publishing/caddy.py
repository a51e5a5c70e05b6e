"""A private Caddy (Debian's 2.6, ``/usr/bin/caddy``) on a free port, in front of the published files and a
Django upstream: for the tests, the benchmark and the load harness. Standard library only (no Django).

It serves the production rules themselves: the generated Caddyfile imports ``docker/published.caddy`` (the
same file ``docker/Caddyfile`` imports), then hands the rest to ``upstream``. No admin endpoint, no HTTPS,
its state in a temporary folder; stopped by its own process id. ``static_root`` adds ``/_static/*``
served from that folder with the same ``file_server`` (the benchmark's yardstick).

    with Caddy(root=Path("/tmp/published"), upstream="127.0.0.1:8000") as caddy:
        httpx.get(f"{caddy.url}/t/carnival-open/standings/")
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SNIPPET = REPO / "docker" / "published.caddy"
HOST = "127.0.0.1"


def caddy_binary() -> str | None:
    for candidate in (os.environ.get("CADDY"), "/usr/bin/caddy", shutil.which("caddy")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def caddyfile(*, port: int, upstream: str, static_root: Path | None = None) -> str:
    """The Caddyfile of a private front: the published files (docker/published.caddy), then Django."""
    static = ""
    if static_root is not None:
        static = (f"\thandle_path /_static/* {{\n\t\troot * {static_root}\n"
                  "\t\tfile_server {\n\t\t\tprecompressed gzip\n\t\t}\n\t}\n")
    return (
        "{\n\tadmin off\n\tauto_https off\n}\n\n"
        f"http://{HOST}:{port} {{\n"
        "\tencode zstd gzip\n"
        f"{static}"
        f"\timport {SNIPPET}\n"
        # idle upstream connections close before gunicorn's keep-alive (5 s): see docker/Caddyfile
        f"\thandle {{\n\t\treverse_proxy {upstream} {{\n\t\t\ttransport http {{\n\t\t\t\tkeepalive 4s\n"
        "\t\t\t}\n\t\t}\n\t}\n"
        "\theader -Server\n"
        "}\n"
    )


@dataclass
class Caddy:
    """``with Caddy(root=..., upstream="127.0.0.1:8000") as caddy:`` serves ``caddy.url``."""

    root: Path
    upstream: str
    static_root: Path | None = None
    port: int = 0
    base: Path = field(default_factory=Path)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def config_file(self) -> Path:
        return self.base / "Caddyfile"

    def __enter__(self) -> Caddy:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def env(self) -> dict[str, str]:
        return {**os.environ, "PUBLISH_ROOT": str(self.root), "HOME": str(self.base),
                "XDG_DATA_HOME": str(self.base / "data"), "XDG_CONFIG_HOME": str(self.base / "config")}

    def write_config(self) -> Path:
        if self.base == Path():
            self.base = Path(tempfile.mkdtemp(prefix="hangjack-caddy-"))
        self.port = self.port or free_port()
        self.config_file.write_text(caddyfile(port=self.port, upstream=self.upstream, static_root=self.static_root))
        return self.config_file

    def validate(self) -> subprocess.CompletedProcess[str]:
        binary = caddy_binary()
        if binary is None:
            raise RuntimeError("caddy not found (apt-get install caddy)")
        self.write_config()
        return subprocess.run([binary, "validate", "--config", str(self.config_file), "--adapter", "caddyfile"],
                              env=self.env(), capture_output=True, text=True, timeout=60)

    def start(self, timeout: float = 20) -> None:
        binary = caddy_binary()
        if binary is None:
            raise RuntimeError("caddy not found (apt-get install caddy)")
        self.write_config()
        log = open(self.base / "caddy.log", "wb")  # noqa: SIM115 - closed with the process
        try:
            self.process = subprocess.Popen(
                [binary, "run", "--config", str(self.config_file), "--adapter", "caddyfile"],
                env=self.env(), stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"caddy exited: {(self.base / 'caddy.log').read_text()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), timeout=0.5):
                return
            time.sleep(0.05)
        raise RuntimeError(f"caddy not listening on {self.port} after {timeout:.0f}s")

    def pid(self) -> int:
        return self.process.pid if self.process is not None else 0

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        if self.base != Path():
            shutil.rmtree(self.base, ignore_errors=True)
            self.base = Path()
