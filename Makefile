# Hang Jack: two commands do all set-up.  `make run` serves the demo, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: install run test lint typecheck conformance drills load bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip setuptools wheel
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

test: install lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

conformance: install
	$(BIN)/python -m pytest tests/scoring/test_conformance.py

bench: install
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
