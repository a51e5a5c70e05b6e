"""A private Hang Jack stack on free ports: PostgreSQL, Redis, gunicorn, Celery workers and beat.

Two workers, as docker/compose.yml runs them: ``worker`` on the default queue (the outbox sweep, standings,
pairings) and ``publisher`` on the "publish" queue (the published results' renders), so a render never
holds up the default queue's work. Like Docker's ``restart: unless-stopped``, a worker or publisher that
exits on its own is started again (``restarts`` counts them): Celery 5.7 / kombu 5.7 end a worker with
"Unrecoverable error: AttributeError(... 'hostname')" when Redis goes away while it holds an unacknowledged
message (docs/operations.md, "Drills"). One stopped or killed on purpose is not.

Never the machine's shared services (docs/decisions.md, "Tests: what runs where"): PostgreSQL gets a new
cluster in a temporary directory (``initdb`` refuses root, so it runs as the ``postgres`` user through
``runuser``), Redis a new process with nothing on disk, both on ports picked free on 127.0.0.1. The web
process is gunicorn with ``docker/gunicorn.conf.py`` and the production settings (DEBUG off, a throwaway
secret generated per run). Every process started here is stopped here, by its own process id (each runs in
its own session, so a worker's pool children go with it), and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


class StackError(RuntimeError):
    """A service did not start or stop in time."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_until(what: str, check: Callable[[], bool], timeout: float, interval: float = 0.2) -> None:
    """Poll ``check`` until it is true; StackError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(interval)
    raise StackError(f"{what} not ready after {timeout:.0f}s")


def pg_bin(name: str) -> str:
    """A PostgreSQL binary: the newest /usr/lib/postgresql/<version>/bin, else PATH."""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name or 0))
    for directory in reversed(versions):
        candidate = Path(directory) / name
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise StackError(f"{name} not found: PostgreSQL is not installed")
    return found


def _as_postgres(cmd: list[str]) -> list[str]:
    """Run ``cmd`` as the postgres user when we are root (initdb and the server refuse root)."""
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


@dataclass
class Postgres:
    """A private PostgreSQL cluster in a temporary directory, on a free port."""

    fast: bool = False  # drills: fsync off (a crash of this throwaway cluster loses nothing that matters)
    port: int = 0
    base: Path = field(default_factory=Path)
    log_file: Path = field(default_factory=Path)

    @property
    def data(self) -> Path:
        return self.base / "data"

    @property
    def url(self) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/hangjack"

    def init(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="hangjack-pg-"))
        if os.geteuid() == 0:
            pg = pwd.getpwnam("postgres")
            os.chown(self.base, pg.pw_uid, pg.pw_gid)
        self.log_file = self.base / "server.log"
        self.port = free_port()
        subprocess.run(
            _as_postgres([pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                          "--locale=C", "--no-sync"]),
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
        )

    def _options(self) -> str:
        opts = [f"-p {self.port}", f"-k {self.base}", f"-c listen_addresses={HOST}", "-c max_connections=200",
                # a wait for a lock longer than 200 ms is logged (with who held it), and every autovacuum: the
                # tails of a load run placed in time
                "-c log_lock_waits=on", "-c deadlock_timeout=200ms", "-c log_autovacuum_min_duration=0", "-c log_line_prefix='%m [%p] '"]
        if (Path(pg_bin("postgres")).parent.parent / "lib" / "pg_stat_statements.so").exists():
            # where the database's time goes, planning included
            opts += ["-c shared_preload_libraries=pg_stat_statements", "-c pg_stat_statements.track_planning=on"]
        if self.fast:
            opts += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        return " ".join(opts)

    def start(self) -> None:
        subprocess.run(
            _as_postgres([pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log_file), "-o", self._options(),
                          "-w", "-t", "60", "start"]),
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90,
        )

    def stop(self, mode: str = "fast") -> None:
        if not self.data.exists():
            return
        subprocess.run(
            _as_postgres([pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"]),
            check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=90,
        )

    def createdb(self) -> None:
        subprocess.run(
            [pg_bin("createdb"), "-h", HOST, "-p", str(self.port), "-U", "postgres", "hangjack"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
        )

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


@dataclass
class Redis:
    """A private redis-server on a free port; keeps nothing on disk."""

    port: int = 0
    base: Path = field(default_factory=Path)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        if not self.port:
            self.port = free_port()
            self.base = Path(tempfile.mkdtemp(prefix="hangjack-redis-"))
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise StackError("redis-server not found")
        self.process = subprocess.Popen(
            [redis_server, "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no",
             "--dir", str(self.base), "--logfile", str(self.base / "redis.log"), "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        wait_until("Redis", self.ping, 20)

    def ping(self) -> bool:
        with socket.create_connection((HOST, self.port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def remove(self) -> None:
        if self.base != Path():
            shutil.rmtree(self.base, ignore_errors=True)


def _stop_group(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
    """Stop a process we started in its own session, with everything in its process group."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def set_share(pid: int, nice: int) -> None:
    """Give the session led by ``pid`` the autogroup nice ``nice`` (every process of the session, its
    children included, shares one weight against the other sessions: 1024 at 0, 526 at 3, 335 at 5). Linux
    without autogroup has no such file: nothing is changed there."""
    with contextlib.suppress(FileNotFoundError):
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))


@dataclass
class Stack:
    """PostgreSQL + Redis + gunicorn + Celery worker and beat, all private; ``with Stack(...) as stack:``."""

    settings: str = "config.settings.production"
    web_workers: int = 3
    web_threads: int = 1
    worker_concurrency: int = 2
    publish_concurrency: int | None = None  # the publisher's processes; None: as many as the worker's
    # the Celery worker's and publisher's share of a busy CPU: their sessions' autogroup nice (0: the same
    # as the rest; 5: about a third of gunicorn's weight, 335 against 1024, as compose's cpu_shares 341)
    background_nice: int = 0
    fast_db: bool = False
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="hangjack-stack-")))
    pg: Postgres = field(default_factory=Postgres)
    redis: Redis = field(default_factory=Redis)
    web_port: int = 0
    web: subprocess.Popen[bytes] | None = None
    worker: subprocess.Popen[bytes] | None = None
    publisher: subprocess.Popen[bytes] | None = None
    beat: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    extra_env: dict[str, str] = field(default_factory=dict)  # e.g. PUBLISH_ROOT for the national day
    extra_pids: dict[str, int] = field(default_factory=dict)  # processes started beside the stack (Caddy)
    _worker_logs: int = 0
    _publisher_logs: int = 0
    restarts: dict[str, int] = field(default_factory=dict)  # worker or publisher exited and started again
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _watching: threading.Event = field(default_factory=threading.Event)

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.web_port}"

    # ---- lifecycle --------------------------------------------------------------------------------
    def __enter__(self) -> Stack:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.pg.fast = self.fast_db
        self.pg.init()
        self.pg.start()
        self.pg.createdb()
        self.redis.start()
        self.web_port = free_port()
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
            "DJANGO_SETTINGS_MODULE": self.settings,
            "DATABASE_URL": self.pg.url,
            "REDIS_URL": self.redis.url,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # throwaway, this run only
            "ALLOWED_HOSTS": f"{HOST},localhost",
            "PYTHONPATH": str(REPO),
            "LOG_LEVEL": "WARNING",
            "GUNICORN_BIND": f"{HOST}:{self.web_port}",
            "WEB_CONCURRENCY": str(self.web_workers),
            "GUNICORN_THREADS": str(self.web_threads),
            **self.extra_env,
        }
        self.manage("migrate", "--noinput")
        self.start_web()
        self.start_worker()
        self.start_publisher()
        self.start_beat()
        self._watching.set()
        threading.Thread(target=self._supervise, name="stack-supervisor", daemon=True).start()

    def _supervise(self) -> None:
        """Start again a worker or publisher that exited by itself (Docker's restart policy)."""
        while self._watching.is_set():
            with self._lock:
                for name, start in (("worker", self.start_worker), ("publisher", self.start_publisher)):
                    process = getattr(self, name)
                    if self._watching.is_set() and process is not None and process.poll() is not None:
                        self.restarts[name] = self.restarts.get(name, 0) + 1
                        print(f"[stack] the {name} exited ({process.returncode}); starting it again", flush=True)
                        with contextlib.suppress(StackError):
                            start()
            time.sleep(0.5)

    def stop(self) -> None:
        self._watching.clear()
        with self._lock:
            self._stop_all()

    def _stop_all(self) -> None:
        for process in (self.beat, self.worker, self.publisher, self.web):
            _stop_group(process)
        self.beat = self.worker = self.publisher = self.web = None
        self.redis.stop()
        self.pg.stop()
        with contextlib.suppress(OSError):  # keep the server's log (deadlocks, slow statements) with the others
            shutil.copyfile(self.pg.log_file, self.log_dir / "postgresql.log")
        self.pg.remove()
        self.redis.remove()

    def use_here(self) -> None:
        """Point this process's Django at the stack (for setup and checks through the ORM)."""
        for key in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "ALLOWED_HOSTS",
                    *self.extra_env):
            os.environ[key] = self.env[key]
        import django

        django.setup()

    # ---- processes ----------------------------------------------------------------------------------
    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, str(REPO / "manage.py"), *args], cwd=REPO, env=self.env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)

    def _log(self, name: str) -> int:
        return os.open(self.log_dir / name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def _spawn(self, cmd: list[str], log: str) -> subprocess.Popen[bytes]:
        fd = self._log(log)
        try:
            # each process's PostgreSQL sessions carry its name (pg_stat_activity.application_name): whose
            # backend spends the database's CPU, in a run's diagnosis
            env = {**self.env, "PGAPPNAME": Path(log).stem}
            return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=fd, stderr=fd, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
        finally:
            os.close(fd)

    def start_web(self) -> None:
        self.web = self._spawn([str(VENV_BIN / "gunicorn"), "--config", str(REPO / "docker/gunicorn.conf.py"),
                                "config.wsgi:application"], "gunicorn.log")
        wait_until("gunicorn", self.healthy, 60)

    def healthy(self) -> bool:
        response = httpx.get(f"{self.base_url}/healthz", timeout=2)
        return response.status_code == 200

    def _celery_worker(self, queue: str, concurrency: int, hostname: str, log: str) -> subprocess.Popen[bytes]:
        process = self._spawn(
            [str(VENV_BIN / "celery"), "--app", "config.celery:app", "worker", "--loglevel", "INFO",
             "--queues", queue, "--concurrency", str(concurrency), "--without-gossip", "--without-mingle",
             "--hostname", hostname], log)
        try:
            wait_until(f"Celery worker ({queue})", lambda: b" ready." in (self.log_dir / log).read_bytes(), 60)
        except StackError:
            _stop_group(process, signal.SIGKILL, timeout=10)  # never left running unowned
            raise
        if self.background_nice:
            set_share(process.pid, self.background_nice)
        return process

    def start_worker(self) -> None:
        """The worker of the default queue (outbox sweep, standings, pairings, reconcile)."""
        with self._lock:
            self._worker_logs += 1
            self.worker = self._celery_worker("celery", self.worker_concurrency, f"load{self._worker_logs}@%h",
                                              f"worker-{self._worker_logs}.log")

    def start_publisher(self) -> None:
        """The worker of the "publish" queue (the published results' renders, the publishing sweep)."""
        with self._lock:
            self._publisher_logs += 1
            # each process here leads a session of its own, and Linux shares the CPU between sessions
            # (autogroup) as it does between containers, so a process's nice value would not count against
            # gunicorn's; ``background_nice`` sets the session's (docs/operations.md, "The sixth look")
            self.publisher = self._celery_worker(
                "publish", self.publish_concurrency or self.worker_concurrency, f"publish{self._publisher_logs}@%h",
                f"publisher-{self._publisher_logs}.log")

    @property
    def publisher_log(self) -> Path:
        """The log of the publisher started last."""
        return self.log_dir / f"publisher-{self._publisher_logs}.log"

    def stop_publisher(self) -> None:
        with self._lock:
            _stop_group(self.publisher, signal.SIGTERM, timeout=30)
            self.publisher = None

    def kill_publisher(self) -> None:
        """SIGKILL the publisher and its pool children at once."""
        with self._lock:
            _stop_group(self.publisher, signal.SIGKILL, timeout=10)
            self.publisher = None

    @property
    def worker_log(self) -> Path:
        """The log of the worker started last."""
        return self.log_dir / f"worker-{self._worker_logs}.log"

    def kill_worker(self) -> None:
        """SIGKILL the worker and its pool children at once: no warm shutdown, no ack, no requeue."""
        with self._lock:
            _stop_group(self.worker, signal.SIGKILL, timeout=10)
            self.worker = None

    def stop_worker(self) -> None:
        with self._lock:
            _stop_group(self.worker, signal.SIGTERM, timeout=30)
            self.worker = None

    def start_beat(self) -> None:
        self.beat = self._spawn(
            [str(VENV_BIN / "celery"), "--app", "config.celery:app", "beat", "--loglevel", "INFO",
             "--schedule", str(self.log_dir / "beat-schedule")], "beat.log")

    def pids(self) -> dict[str, int]:
        """Root process ids per service, for CPU accounting."""
        found = {"gunicorn": self.web.pid if self.web else 0, "celery worker": self.worker.pid if self.worker else 0,
                 "celery publisher": self.publisher.pid if self.publisher else 0,
                 "celery beat": self.beat.pid if self.beat else 0,
                 "redis": self.redis.process.pid if self.redis.process else 0,
                 "postgresql": self.pg.postmaster_pid() or 0}
        return {name: pid for name, pid in found.items() if pid}


@contextlib.contextmanager
def sigterm_as_exit() -> Iterator[None]:
    """Turn SIGTERM into SystemExit so ``with Stack()`` cleans up when the harness is stopped."""

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
