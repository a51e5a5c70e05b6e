"""Settings shared by every environment, read from the environment (twelve-factor).

DATABASE_URL: default an SQLite file in the project. REDIS_URL: default none, so Celery runs tasks
in-process (``task_always_eager``) and the cache is local memory; with it, Redis is Celery's broker and
the cache, failing open (django-redis IGNORE_EXCEPTIONS) so a Redis outage never fails a request.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return [v.strip() for v in value.split(",") if v.strip()] if value else default


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # runserver leaves static files to WhiteNoise's middleware (which refuses non-canonical paths such as
    # /static/../../etc/passwd: 404) instead of its own handler, which answered a traversal with a 500.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "formtools",
    "tournaments",
    "api",
    "web",
    "publishing",  # above api and web: renders their public views to files (docs/adr/0013)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    # last, so the headers above go on published files too: serves them where no proxy does (make run)
    "publishing.middleware.PublishedFilesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = 5
    # Server-side binding, and a statement run five times on a connection is prepared (psycopg's automatic
    # preparation): PostgreSQL plans it once per connection, not on every call. Django turns both off by
    # default for transaction-pooling proxies (PgBouncer); none stands between it and PostgreSQL here, and
    # on the national day planning was most of the database's time (the tablet's board read, a 13-table join,
    # about 10 ms to plan). DATABASE_PREPARE=off restores Django's defaults (behind such a proxy).
    # docs/adr/0016-postgresql-prepared-statements.md
    if os.environ.get("DATABASE_PREPARE", "on").lower() not in {"off", "0", "false", "no"}:
        DATABASES["default"]["OPTIONS"].update({"server_side_binding": True, "prepare_threshold": 5})
elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Every transaction takes the write lock when it begins (BEGIN IMMEDIATE) and waits up to 20 s for it:
    # two tablets writing at once queue instead of failing the lock upgrade of a deferred transaction
    # ("database is locked", issue 11 item 10). Django 5.1+ reads transaction_mode.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
else:
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DATABASES["default"]["ATOMIC_REQUESTS"] = False

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/console/"
LOGOUT_REDIRECT_URL = "/"

# ---- accounts (docs/decisions.md, "Accounts and roles") ------------------------------------------
# Self sign-up at /accounts/signup/ (the new account may organise events): off unless the server says so.
HANGJACK_ALLOW_SIGNUP = env_bool("HANGJACK_ALLOW_SIGNUP", False)
# Invitations and password resets are mailed when mail is configured (SMTP from the environment); the
# console always shows the link too, so a venue without mail still works. Development prints mail.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Hang Jack <hangjack@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link by mail works for a day

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "America/Port_of_Spain"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# ---- Redis: cache and Celery broker, both optional ---------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "CLIENT_CLASS": "django_redis.client.DefaultClient",
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
                "IGNORE_EXCEPTIONS": True,
            },
        }
    }
    DJANGO_REDIS_IGNORE_EXCEPTIONS = True
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "hangjack"}}

# Celery: JSON only, acks_late, reject on worker loss, a visibility timeout a little above the longest
# task's hard time limit (docs/decisions.md, resilience).
CELERY_TASK_HARD_TIME_LIMIT = 120
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = CELERY_TASK_HARD_TIME_LIMIT
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_HARD_TIME_LIMIT - 20
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_HARD_TIME_LIMIT + 60,
    "socket_connect_timeout": 1,
    "socket_timeout": 2,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
# A task's database connection lives as a request's does (CONN_MAX_AGE, health checks: config/celery.py)
# instead of being closed around every task: Celery's Django fix-up closes every connection before and after
# each task unless this is set (it then closes them every this many tasks). On the national day of
# 2026-12-06 the publisher and the worker opened two connections a second, and the PostgreSQL backends that
# exited took 0.1-0.3 of a core (each new backend reads its catalogues and plans its statements afresh:
# prepared statements never reached their fifth run). docs/operations.md, "The fifth look".
CELERY_DB_REUSE_MAX = 1000
# The published results' renders have a queue of their own, served by their own worker (docker/compose.yml
# "publisher"; docs/operations.md "Workers, beat and the outbox"), so the outbox sweep, the standings
# recomputations and the pairings on the default queue ("celery") never wait behind a render. Under eager
# (make run, tests) routes change nothing. The outbox publishes by task name, so its messages follow these.
# One render stays on the default queue: publishing.tasks.publish_standings, the standings' two files of a
# snapshot the worker just stored (a finished game's result waits for nothing else).
CELERY_TASK_DEFAULT_QUEUE = "celery"
PUBLISH_QUEUE = "publish"
CELERY_TASK_ROUTES = {
    name: {"queue": PUBLISH_QUEUE}
    for name in ("publishing.tasks.publish_event", "publishing.tasks.publish_results", "publishing.tasks.sweep")
}
CELERY_BEAT_SCHEDULE = {
    "outbox-sweep": {"task": "tournaments.tasks.outbox_sweep", "schedule": 15.0},
    "reconcile": {"task": "tournaments.tasks.reconcile", "schedule": 60.0},
    # published results: re-render where the stored fingerprint differs, withdraw what is unpublished
    "publish-sweep": {"task": "publishing.tasks.sweep", "schedule": 30.0},
}

# ---- published results (docs/adr/0013-published-results.md, docs/operations.md "Publishing") ----------
# Where the worker writes the public pages and JSON (Caddy serves them; Django too, under make run).
PUBLISH_ROOT = os.environ.get("PUBLISH_ROOT") or str(BASE_DIR / "published")
PUBLISH_ENABLED = env_bool("PUBLISH_ENABLED", True)
PUBLISH_SERVE = env_bool("PUBLISH_SERVE", True)
# Pair and club pages (the costliest: one per pair): a results pass at most this often per event (and no
# sooner than twice its own rendering time after the last one ended); the sweep catches up.
PUBLISH_RESULTS_SECONDS = float(os.environ.get("PUBLISH_RESULTS_SECONDS", "0" if CELERY_TASK_ALWAYS_EAGER else "10"))
# A results pass starts no sooner than this many times the last pass's work after it ended, and each slice of a
# pass this many times the slice's own time after it (publishing/results.py)
PUBLISH_RESULTS_PACE = float(os.environ.get("PUBLISH_RESULTS_PACE", "2"))
PUBLISH_RESULTS_SLICE_PACE = float(os.environ.get("PUBLISH_RESULTS_SLICE_PACE", "2"))
# Under a worker the results render apart from the changes, in slices of about this many seconds each.
PUBLISH_RESULTS_SLICE_SECONDS = float(os.environ.get("PUBLISH_RESULTS_SLICE_SECONDS", "1"))

# ---- REST framework ----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.auth.DeviceTokenAuthentication",
        "api.auth.OrganiserTokenAuthentication",  # knox's hashed tokens, refusing undecodable headers with 401
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_PARSER_CLASSES": ["api.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # login: attempts per client address; login_account: FAILED logins per account (any address, the API and
    # the session forms; "10/15m" is 10 per 15 minutes); pairing: FAILED code exchanges per address.
    "DEFAULT_THROTTLE_RATES": {"tablet_write": "120/min", "login": "10/min", "login_account": "10/15m",
                               "pairing": "20/min"},
    # X-Forwarded-For is trusted only behind a known number of proxies (DJANGO_NUM_PROXIES; production
    # sets 1, Caddy); unset, a client is its REMOTE_ADDR and the header is ignored (issue 11 item 7).
    "NUM_PROXIES": int(os.environ["DJANGO_NUM_PROXIES"]) if os.environ.get("DJANGO_NUM_PROXIES") else None,
}
REST_KNOX = {"TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token"}
SPECTACULAR_SETTINGS = {
    "TITLE": "Hang Jack API",
    "DESCRIPTION": "All Fours tournaments: score-entry tablets, organisers and the public.",
    "VERSION": "1.0.0",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.postprocess_schema"],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SWAGGER_UI_SETTINGS": {"persistAuthorization": False},
    # Swagger UI and Redoc served from our own static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "HandStatusEnum": "tournaments.models.Hand.Status",
        "GameStatusEnum": "tournaments.models.Game.Status",
        "TournamentRoleEnum": "api.serializers.accounts.ROLE_CHOICES",
        "AvailabilityStateEnum": "api.serializers.registration.STATES",
        "RoundFieldStateEnum": "api.serializers.registration.FIELD_STATES",
    },
    "TAGS": [
        {"name": "tablet", "description": "A scorer tablet: `Authorization: Device <token>`; every write needs an Idempotency-Key."},
        {"name": "auth", "description": "Organiser sign-in: knox tokens (`Authorization: Token <token>`) or the session."},
        {"name": "public", "description": "Published tournaments, read-only, no login; ETag and Cache-Control."},
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # A request with a foreign Host (a scanner, a misdirected client) is the client's mistake: one warning
    # line, never a traceback per request (issue 11 item 12).
    "filters": {"one_line": {"()": "config.middleware.OneLineFilter"}},
    "loggers": {
        "django.request": {"level": "ERROR"},
        "django.security.DisallowedHost": {"level": "WARNING", "filters": ["one_line"]},
    },
}

# Content-Security-Policy sent by config.middleware.SecurityHeadersMiddleware.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
