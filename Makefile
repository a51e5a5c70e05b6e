# Hang Jack: two commands do all set-up.  `make run` serves the demo, `make test` runs every test.
#
#   make install    the virtualenv in .venv with the project and its [test] extras (re-run when
#                   pyproject.toml changes)
#   make run        install, migrate, load the demo once (later starts refresh only the organiser's
#                   password and tokens), serve on http://127.0.0.1:$(PORT) with config.settings.local
#                   (SQLite and eager Celery unless DATABASE_URL / REDIS_URL are set)
#   make test       install, lint, typecheck, then the whole pytest suite ($(PYTEST_WORKERS) workers) but for
#                   the long browser scenarios (marker `scenario`)
#   make scenarios  the long browser scenarios: whole events walked in Chromium (the field changing during a
#                   Swiss, an organiser's first day, closing by the clock to the printed prizes, a chalk sheet
#                   through the league console, the wizard at tablet width); .ci/run runs them. make test keeps
#                   their short forms (the same services and pages without the whole walk)
#   make lint       ruff and lint-imports (the import contracts in .importlinter)
#   make typecheck  mypy --strict on scoring/ and the pure cores (tournaments/formats, pairing, ranking)
#   make load       the load harness (benchmarks/load): a compressed tournament day on a private stack;
#                   LOAD_ARGS="--duration 30" for a smoke run
#   make chaos      the tablet chaos test's long form (tests/web/test_tablet_chaos.py): CHAOS_STEPS random steps
#                   (3000: about 13 minutes here) on three tablets for each of CHAOS_SEEDS (comma-separated)
#                   in Chromium, the server a process of its own that the walk kills and restarts;
#                   make test runs a 120-step form on the in-process live server
#   make client-check  scripts/client_check.sh: the OpenAPI document generates a Python client with
#                   openapi-python-client (its own virtualenv) without one warning, and that client plays
#                   a tablet day (scripts/client_day.py) against a live server on a fresh SQLite database
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
# pytest-xdist workers: 2 cores here. Every worker gets its own test database (pytest-django) and its
# own live server port, so the suite is safe to split; PYTEST_WORKERS=0 runs it in one process.
# --dist loadfile sends each test file whole to one worker, so a module-scoped fixture (the demo, a
# browser, a live server) is built once. (--dist loadgroup does not group under pytest 9 + xdist 3.8.)
PYTEST_WORKERS ?= 2
PYTEST_ARGS ?=
LOAD_ARGS ?=

.PHONY: install run test lint typecheck conformance bench load client-check chaos clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip setuptools wheel
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: install
	DJANGO_SETTINGS_MODULE=config.settings.local $(BIN)/python manage.py migrate --noinput
	# the demo loads with publishing off (one render per change would cost minutes), then is published once
	PUBLISH_ENABLED=0 DJANGO_SETTINGS_MODULE=config.settings.local $(BIN)/python manage.py demo --port $(PORT)
	DJANGO_SETTINGS_MODULE=config.settings.local $(BIN)/python manage.py publish
	DJANGO_SETTINGS_MODULE=config.settings.local $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy

test: install lint typecheck
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile -m "not scenario" $(PYTEST_ARGS)

.PHONY: scenarios
scenarios: install
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile -m scenario -p no:cacheprovider $(PYTEST_ARGS)

conformance: install
	$(BIN)/python -m pytest tests/scoring/test_conformance.py

bench: install
	$(BIN)/python benchmarks/engine.py

load: install
	$(BIN)/python -m benchmarks.load.run $(LOAD_ARGS)

client-check: install
	bash scripts/client_check.sh

CHAOS_STEPS ?= 3000
CHAOS_SEEDS ?= 7
chaos: install
	CHAOS_SERVER=subprocess CHAOS_STEPS=$(CHAOS_STEPS) CHAOS_SEEDS=$(CHAOS_SEEDS) $(BIN)/python -m pytest tests/web/test_tablet_chaos.py -p no:cacheprovider

# The spectators' pages at 360, 390, 768 and 1366 px (make test runs 360 and 1366 only); KEEP_SCREENSHOTS=1
# writes the judged copies to docs/screenshots/public-phone/.
.PHONY: public-phone
public-phone: install
	PUBLIC_PHONE_WIDTHS=all $(BIN)/python -m pytest tests/web/test_public_phone_browser.py -p no:cacheprovider

# Fault drills (benchmarks/drills) on private PostgreSQL/Redis on free ports; non-zero on a failed check.
.PHONY: drills
drills: install
	$(BIN)/python -m benchmarks.drills.run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
