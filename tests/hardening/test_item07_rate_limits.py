"""Issue 11 item 7: rate limits that hold.

- Production refuses to start without a shared cache (a configuration check: a Redis cache is configured,
  never a ping at start; Redis down at run time still fails open), so every worker counts in one place.
- X-Forwarded-For is trusted only when a proxy count is configured (``DJANGO_NUM_PROXIES``; production: 1):
  without one, the address is REMOTE_ADDR and a new header value does not reset a limit.
- Logins are also counted per account: 10 failed logins of one account in 15 minutes, from any addresses,
  through the API or the session forms, and the next attempt is 429 with Retry-After. Only failures count.
- Tablet pairing counts failed exchanges per address only: a hall of 40 tablets behind one address pairs
  in a minute; guessing codes is still limited.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from tests.api.conftest import World, build_world, make_user, private_cache  # noqa: F401 (private_cache: autouse)
from tournaments.services.devices import pairing_code_create

ROOT = Path(__file__).resolve().parent.parent.parent
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"  # nothing listens there


def run_production(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in ("REDIS_URL",)}
    clean.update({"DJANGO_SETTINGS_MODULE": "config.settings.production",
                  "DJANGO_SECRET_KEY": "item07-" + "k" * 40, "ALLOWED_HOSTS": "example.org", **env})
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=180, check=False)


# ---- production needs a shared cache -----------------------------------------------------------------


def test_item07_production_refuses_to_start_without_a_shared_cache() -> None:
    done = run_production(["manage.py", "check"])
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "REDIS_URL" in done.stderr


def test_item07_production_checks_the_configuration_and_never_pings_redis_at_start() -> None:
    """A Redis cache configured but unreachable: production starts (the check is of the configuration)."""
    done = run_production(["manage.py", "check"], REDIS_URL=UNREACHABLE_REDIS)
    assert done.returncode == 0, done.stderr


def test_item07_production_with_redis_down_at_run_time_still_fails_open(tmp_path: Path) -> None:
    """Production settings, Redis unreachable: logins are answered (401 for a wrong password), never 500."""
    code = (
        "import django, json; django.setup(); from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); from django.test import Client; c = Client(); "
        "codes = [c.post('/api/v1/auth/login/', {'username': 'nobody', 'password': 'x'}, "
        "content_type='application/json', secure=True, HTTP_HOST='example.org').status_code for _ in range(3)]; "
        "codes.append(c.post('/api/v1/tablet/pair/', {'code': 'GUESS00000'}, content_type='application/json', "
        "secure=True, HTTP_HOST='example.org').status_code); print(json.dumps(codes))"
    )
    done = run_production(["-c", code], REDIS_URL=UNREACHABLE_REDIS, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [401, 401, 401, 401]


# ---- the client address: X-Forwarded-For only behind configured proxies --------------------------------


def test_item07_development_settings_trust_no_forwarded_address_unless_told() -> None:
    code = ("import django, json; django.setup(); from django.conf import settings; "
            "print(json.dumps(settings.REST_FRAMEWORK.get('NUM_PROXIES')))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    for value, expected in ((None, None), ("1", 1), ("2", 2)):
        run_env = {**env, "DJANGO_SETTINGS_MODULE": "config.settings.local"}
        if value is not None:
            run_env["DJANGO_NUM_PROXIES"] = value
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=run_env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout.strip().splitlines()[-1]) == expected, value


@pytest.fixture
def tight(settings: Any) -> None:
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "login": "3/min", "pairing": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def _login(client: Any, username: str, password: str, **extra: Any) -> Any:
    return client.post("/api/v1/auth/login/", {"username": username, "password": password}, format="json", **extra)


@pytest.mark.django_db
def test_item07_a_new_forwarded_for_does_not_reset_the_login_limit(tight: None) -> None:
    api = APIClient()
    codes = [
        _login(api, "nobody", "wrong", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
        for i in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]


@pytest.mark.django_db
def test_item07_a_new_forwarded_for_does_not_reset_the_pairing_limit(tight: None) -> None:
    api = APIClient()
    codes = [
        api.post("/api/v1/tablet/pair/", {"code": f"GUESS0000{i}"}, format="json", REMOTE_ADDR="198.51.100.7",
                 HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
        for i in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]


@pytest.mark.django_db
def test_item07_behind_a_configured_proxy_the_forwarded_address_counts(tight: None, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api = APIClient()
    proxy = "172.18.0.5"
    same = [_login(api, "nobody", "wrong", REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9").status_code
            for _ in range(4)]
    assert same == [401, 401, 401, 429]
    # Another client behind the same proxy has its own budget; a forged hop further left changes nothing.
    other = _login(api, "nobody-else", "wrong", REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="203.0.113.10")
    assert other.status_code == 401
    forged = _login(api, "nobody-else", "wrong", REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9")
    assert forged.status_code == 429


def test_item07_client_address_ignores_the_header_without_a_proxy_count(rf: Any) -> None:
    from config.middleware import client_address

    request = rf.get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.1")
    for rest in ({}, {"NUM_PROXIES": None}, {"NUM_PROXIES": 0}):
        with override_settings(REST_FRAMEWORK=rest):
            assert client_address(request) == "198.51.100.7", rest


# ---- per account: failed logins of one account, from anywhere -----------------------------------------


def _addresses(n: int) -> list[str]:
    return [f"192.0.2.{i + 1}" for i in range(n)]


@pytest.mark.django_db
def test_item07_ten_failed_api_logins_of_one_account_lock_it_for_fifteen_minutes() -> None:
    make_user("kavita")
    make_user("marcus")
    api = APIClient()
    codes = [_login(api, "kavita", "wrong", REMOTE_ADDR=ip).status_code for ip in _addresses(10)]
    assert codes == [401] * 10
    locked = _login(api, "kavita", "pw-kavita", REMOTE_ADDR="192.0.2.200")  # even the right password waits
    assert locked.status_code == 429, locked.content
    assert locked.json()["error"]["code"] == "throttled"
    assert 1 <= int(locked["Retry-After"]) <= 15 * 60
    assert _login(api, "KAVITA ", "wrong", REMOTE_ADDR="192.0.2.201").status_code == 429  # the same account
    # Another account is not locked, nor is the address of the last attempts.
    assert _login(api, "marcus", "pw-marcus", REMOTE_ADDR="192.0.2.200").status_code == 201


@pytest.mark.django_db
def test_item07_only_failures_count_toward_the_account() -> None:
    make_user("anand")
    api = APIClient()
    ok = [_login(api, "anand", "pw-anand", REMOTE_ADDR=ip).status_code for ip in _addresses(12)]
    assert ok == [201] * 12
    failed = [_login(api, "anand", "wrong", REMOTE_ADDR=ip).status_code for ip in _addresses(9)]
    assert failed == [401] * 9
    assert _login(api, "anand", "pw-anand", REMOTE_ADDR="192.0.2.99").status_code == 201


LOGIN_FORMS = ["/admin/login/", "/accounts/login/"]


def _with_form_limits(settings: Any) -> None:
    if "config.middleware.LoginRateLimitMiddleware" not in settings.MIDDLEWARE:  # production installs it
        settings.MIDDLEWARE = ["config.middleware.LoginRateLimitMiddleware", *settings.MIDDLEWARE]


@pytest.mark.django_db
@pytest.mark.parametrize("form", LOGIN_FORMS)
def test_item07_the_session_forms_count_failed_logins_per_account(settings: Any, form: str) -> None:
    _with_form_limits(settings)
    make_user("shiva")
    client = Client()
    codes = [client.post(form, {"username": "shiva", "password": "wrong"}, REMOTE_ADDR=ip).status_code
             for ip in _addresses(10)]
    assert codes == [200] * 10  # the form again, with its error
    locked = client.post(form, {"username": "shiva", "password": "pw-shiva"}, REMOTE_ADDR="192.0.2.250")
    assert locked.status_code == 429
    assert 1 <= int(locked["Retry-After"]) <= 15 * 60
    other = client.post(form, {"username": "someone-else", "password": "x"}, REMOTE_ADDR="192.0.2.250")
    assert other.status_code == 200


@pytest.mark.django_db
def test_item07_the_api_and_the_forms_share_the_account_counter(settings: Any) -> None:
    _with_form_limits(settings)
    make_user("rohan")
    api, client = APIClient(), Client()
    ips = _addresses(10)
    for ip in ips[:5]:
        assert _login(api, "rohan", "wrong", REMOTE_ADDR=ip).status_code == 401
    for ip in ips[5:]:
        assert client.post("/accounts/login/", {"username": "rohan", "password": "wrong"}, REMOTE_ADDR=ip).status_code == 200
    assert _login(api, "rohan", "pw-rohan", REMOTE_ADDR="192.0.2.240").status_code == 429
    assert client.post("/admin/login/", {"username": "rohan", "password": "pw-rohan"},
                       REMOTE_ADDR="192.0.2.241").status_code == 429


# ---- tablet pairing: failures only --------------------------------------------------------------------


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


def test_item07_forty_tablets_behind_one_address_pair_in_a_minute(world: World) -> None:
    """The default limit (20 a minute per address) is for failed exchanges: a hall of tablets pairs."""
    codes = [pairing_code_create(tournament=world.tournament, table=t, user=world.organiser)[1] for t in range(1, 41)]
    api = APIClient()
    answers = [api.post("/api/v1/tablet/pair/", {"code": code, "label": f"t{i}"}, format="json",
                        REMOTE_ADDR="198.51.100.20").status_code for i, code in enumerate(codes)]
    assert answers == [201] * 40


def test_item07_failed_exchanges_are_still_limited_and_successes_do_not_count(world: World, tight: None) -> None:
    api = APIClient()
    codes = [pairing_code_create(tournament=world.tournament, table=t, user=world.organiser)[1] for t in range(1, 7)]
    ip = {"REMOTE_ADDR": "198.51.100.30"}
    # Six good exchanges under a limit of three: successes do not count.
    assert [api.post("/api/v1/tablet/pair/", {"code": c}, format="json", **ip).status_code for c in codes] == [201] * 6
    # Three failures (a guess, a used code, a malformed code), then the address waits, good code or not.
    fresh = pairing_code_create(tournament=world.tournament, table=7, user=world.organiser)[1]
    failures = [
        api.post("/api/v1/tablet/pair/", {"code": "GUESS00000"}, format="json", **ip).status_code,
        api.post("/api/v1/tablet/pair/", {"code": codes[0]}, format="json", **ip).status_code,
        api.post("/api/v1/tablet/pair/", {"code": ""}, format="json", **ip).status_code,
    ]
    assert failures[:2] == [401, 401] and failures[2] == 400
    limited = api.post("/api/v1/tablet/pair/", {"code": fresh}, format="json", **ip)
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    # Another address is not limited.
    assert api.post("/api/v1/tablet/pair/", {"code": fresh}, format="json", REMOTE_ADDR="198.51.100.31").status_code == 201


@pytest.mark.redis
@pytest.mark.django_db
def test_item07_workers_share_the_account_counter_in_redis(settings: Any, tmp_path: Path) -> None:
    """Failures counted by another process (another gunicorn worker) lock the account here too."""
    worker = f"item07-{os.getpid()}-{tmp_path.name}"  # the test settings prefix Redis keys with test-<worker>
    redis = os.environ.get("REDIS_URL", "")
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": redis, "KEY_PREFIX": f"test-{worker}",
        "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient", "IGNORE_EXCEPTIONS": True},
    }}
    code = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); from django.test import Client; c = Client(); "
        "codes = {c.post('/api/v1/auth/login/', {'username': 'ghost', 'password': 'x'}, "
        "content_type='application/json', HTTP_HOST='localhost', REMOTE_ADDR=f'192.0.2.{i}').status_code "
        "for i in range(1, 11)}; print(sorted(codes))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", DATABASE_URL=f"sqlite:///{tmp_path / 'w.sqlite3'}",
               REDIS_URL=redis, PYTEST_XDIST_WORKER=worker)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[401]"
    assert _login(APIClient(), "ghost", "x", REMOTE_ADDR="192.0.2.99").status_code == 429
