"""The Docker deployment (docker/): the compose file's services, health checks and dependencies, and that
every command a container runs exists in this project (manage.py commands, the WSGI app, the Celery
app and its scheduled tasks, the gunicorn config). No Docker engine runs here, so the files are read and
their commands resolved; gunicorn is started for real with the container's config."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
COMPOSE = DOCKER / "compose.yml"

APP_SERVICES = {"migrate", "web", "worker", "publisher", "beat"}
LONG_RUNNING = {"postgres", "redis", "web", "worker", "publisher", "beat", "caddy"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict[str, dict[str, Any]]:
    return compose["services"]


def argv(command: Any) -> list[str]:
    return list(command) if isinstance(command, list) else shlex.split(command)


def test_compose_has_the_services(services):
    assert set(services) == {"postgres", "redis", "migrate", "web", "worker", "publisher", "beat", "caddy"}


@pytest.mark.parametrize("name", sorted(LONG_RUNNING))
def test_every_long_running_service_has_a_health_check(services, name):
    check = services[name].get("healthcheck")
    assert check and check.get("test"), f"{name} has no healthcheck"
    assert check["test"][0] in {"CMD", "CMD-SHELL"}
    for key in ("interval", "timeout", "retries"):
        assert key in check, f"{name} healthcheck lacks {key}"


@pytest.mark.parametrize("name", sorted(APP_SERVICES))
def test_app_services_share_one_image_and_wait_for_healthy_services(services, name):
    service = services[name]
    assert service["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
    assert (DOCKER / service["build"]["context"] / service["build"]["dockerfile"]).resolve() == DOCKER / "Dockerfile"
    assert service["environment"]["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert service["environment"]["DATABASE_URL"].startswith("postgres://hangjack:${POSTGRES_PASSWORD")
    assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    depends = service["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"
    if name != "migrate":
        assert depends["migrate"]["condition"] == "service_completed_successfully"


def test_only_the_https_front_publishes_ports(services):
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"caddy"}
    assert "443:443" in services["caddy"]["ports"]
    assert services["caddy"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_caddy_proxies_to_web_with_its_caddyfile(services):
    mounts = services["caddy"]["volumes"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in mounts
    caddyfile = (DOCKER / "Caddyfile").read_text()
    assert re.search(r"reverse_proxy\s+web:8000", caddyfile)
    assert "health_uri /healthz" in caddyfile


# ---- every command resolves in this project ---------------------------------------------------------


def check_command(args: list[str]) -> None:
    """Fail unless ``args`` names something that exists here."""
    program, rest = args[0], args[1:]
    if program == "python" and rest[:1] == ["manage.py"]:
        from django.core.management import get_commands

        assert rest[1] in get_commands(), f"no manage.py command {rest[1]!r}"
    elif program == "python" and rest[:1] == ["-c"]:
        compile(rest[1], "<healthcheck>", "exec")
    elif program == "gunicorn":
        config = rest[rest.index("--config") + 1]
        assert (ROOT / config).is_file(), config
        module, _, attribute = rest[-1].partition(":")
        import importlib

        assert callable(getattr(importlib.import_module(module), attribute))
    elif program == "celery":
        from celery import Celery

        app_path = rest[rest.index("--app") + 1]
        module, _, attribute = app_path.partition(":")
        import importlib

        app = getattr(importlib.import_module(module), attribute)
        assert isinstance(app, Celery)
        subcommand = next(a for a in rest if not a.startswith("-") and a != app_path)
        assert subcommand in {"worker", "beat", "inspect"}
    elif program in {"redis-cli", "redis-server", "pg_isready", "wget"}:
        pass  # in the official images
    else:
        raise AssertionError(f"unknown program {program!r} in {args}")


def service_commands(services) -> list[tuple[str, list[str]]]:
    found = []
    for name, service in services.items():
        if "command" in service:
            found.append((name, argv(service["command"])))
        test = service.get("healthcheck", {}).get("test")
        if test:
            found.append((f"{name} healthcheck", argv(test[1]) if test[0] == "CMD-SHELL" else list(test[1:])))
    return found


def test_every_command_and_health_check_exists_here(services):
    commands = service_commands(services)
    assert {name for name, _ in commands} >= {"migrate", "web", "worker", "publisher", "beat", "web healthcheck"}
    for name, args in commands:
        try:
            check_command(args)
        except Exception as exc:  # noqa: BLE001 (name the service in the failure)
            raise AssertionError(f"{name}: {args}: {exc}") from exc


def test_the_beat_schedule_names_registered_tasks():
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, f"beat schedules {entry['task']}, which no module registers"


# ---- the image ----------------------------------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (DOCKER / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_dockerfile_is_slim_non_root_and_collects_static():
    instructions = dockerfile_instructions()
    assert instructions[0] == ("FROM", "python:3.11-slim")
    users = [value for op, value in instructions if op == "USER"]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    runs = " ".join(value for op, value in instructions if op == "RUN")
    assert "manage.py collectstatic --noinput" in runs
    assert "DJANGO_SETTINGS_MODULE=config.settings.production" in " ".join(v for op, v in instructions if op == "ENV")
    cmd = next(value for op, value in instructions if op == "CMD")
    assert cmd.startswith('["gunicorn"') and "config.wsgi:application" in cmd
    healthcheck = next(value for op, value in instructions if op == "HEALTHCHECK")
    assert "/healthz" in healthcheck
    ignore = (DOCKER / "Dockerfile.dockerignore").read_text().split()
    assert {".git", ".venv", ".env", "db.sqlite3"} <= set(ignore)


def test_whitenoise_serves_static_files_in_production():
    from config.settings import base

    assert "whitenoise.middleware.WhiteNoiseMiddleware" in base.MIDDLEWARE
    assert base.STORAGES["staticfiles"]["BACKEND"].startswith("whitenoise.")


def test_env_example_names_every_variable_and_holds_only_placeholders():
    compose_text = COMPOSE.read_text()
    required = set(re.findall(r"\$\{([A-Z_]+):\?", compose_text))
    example = {}
    for line in (DOCKER / ".env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            example[key] = value
    assert required <= set(example), required - set(example)
    assert {"DJANGO_SECRET_KEY", "ALLOWED_HOSTS", "POSTGRES_PASSWORD", "SITE_ADDRESS"} <= set(example)
    for secret in ("DJANGO_SECRET_KEY", "POSTGRES_PASSWORD"):
        assert example[secret].startswith("<") and example[secret].endswith(">"), f"{secret} is not a placeholder"


# ---- gunicorn, started as the web container starts it ------------------------------------------------


def test_gunicorn_redacts_pairing_codes():
    import runpy

    config = runpy.run_path(str(DOCKER / "gunicorn.conf.py"))
    assert config["redact"]('"GET /tablet/pair/Kx7Q2mP9 HTTP/1.1"') == '"GET /tablet/pair/… HTTP/1.1"'
    assert config["redact"]("/tablet/pair/abc?x=1") == "/tablet/pair/…?x=1"
    from gunicorn.glogging import Logger

    assert issubclass(config["logger_class"], Logger)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_web_command_serves_healthz_and_logs_no_pairing_code(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 10 + os.urandom(20).hex(),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
    )
    env["REDIS_URL"] = "redis://127.0.0.1:1/0"  # production needs a shared cache configured; nobody listens
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "docker/gunicorn.conf.py", "config.wsgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    assert response.status == 200
                    assert response.read() == b'{"status": "ok"}'
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError("gunicorn did not answer /healthz:\n" + log.read_text()) from None
                time.sleep(0.2)
        with contextlib.suppress(OSError):  # whatever the page answers, its code must not reach the log
            urllib.request.urlopen(
                urllib.request.Request(
                    f"http://127.0.0.1:{port}/tablet/pair/SeCrEtPaIrInGcOdE", headers={"X-Forwarded-Proto": "https"}
                ),
                timeout=5,
            )
    finally:
        process.terminate()
        process.wait(timeout=20)
    text = log.read_text()
    assert "/healthz" in text  # access lines are written
    assert "/tablet/pair/…" in text
    assert "SeCrEtPaIrInGcOdE" not in text


def test_the_worker_and_the_publisher_serve_the_two_queues(services):
    """The default queue and the published results' queue ("publish", CELERY_TASK_ROUTES) each have a worker:
    a render never holds up the outbox sweep, a recomputation or a pairing (docs/operations.md)."""
    from django.conf import settings

    def queues(name: str) -> list[str]:
        args = argv(services[name]["command"])
        assert args[:4] == ["celery", "--app", "config.celery:app", "worker"]
        return args[args.index("--queues") + 1].split(",")

    assert queues("worker") == ["celery"]
    assert queues("publisher") == [settings.PUBLISH_QUEUE]
    assert {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} == {settings.PUBLISH_QUEUE}


def test_background_work_yields_the_cpu_to_the_requests(services):
    """The worker and the publisher have a third of the CPU weight of web and Caddy when the box is busy
    (compose's cpu_shares, the default being 1024), as the load harness's ``--background-nice 5`` gives their
    sessions (335 against 1024):
    a render or a recomputation waits a moment, a scorer's tap does not (docs/operations.md, "The sixth look")."""
    from benchmarks.load.national_run import parse

    assert services["worker"]["cpu_shares"] == services["publisher"]["cpu_shares"] == 341
    assert all("cpu_shares" not in services[name] for name in ("web", "caddy", "postgres", "redis"))
    assert parse([]).background_nice == 5
