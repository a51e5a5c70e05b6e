#!/usr/bin/env bash
# make client-check: the OpenAPI document makes a clean Python client, and that client plays a tablet day.
#
#   1. a virtualenv of its own ($CLIENT_VENV, default /tmp/hangjack-client-venv) with openapi-python-client
#      (pinned: $OPENAPI_PYTHON_CLIENT_VERSION) and ruff (its post-generation hooks); never a dependency of
#      the project;
#   2. the document as `manage.py spectacular --validate --fail-on-warn` writes it;
#   3. the client, generated with scripts/openapi-python-client.yaml: ANY output of the generator besides
#      its "Generating ..." line (a warning, a schema it skipped, a hook it could not run) fails;
#   4. the client installed into that virtualenv;
#   5. a live server on a free port of 127.0.0.1 with config.settings.local, a fresh SQLite database in a
#      temporary folder (DATABASE_URL and REDIS_URL of the caller ignored), migrated, the demo loaded
#      (`manage.py demo`, as `make run` does), served by runserver;
#   6. scripts/client_day.py, which uses only the generated client: sign in, pair a tablet, seat, preview,
#      a tally hand with a jack, a card-by-card hand, undo, play the game out, confirm, public standings.
# Exits non-zero at the first failure; the server is stopped and the temporary folder removed either way.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
PROJECT_PY=${PROJECT_PY:-$ROOT/.venv/bin/python}
CLIENT_VENV=${CLIENT_VENV:-/tmp/hangjack-client-venv}
OPENAPI_PYTHON_CLIENT_VERSION=${OPENAPI_PYTHON_CLIENT_VERSION:-0.29.1}
BASE_PY=${BASE_PY:-python3}

log() { printf '[client-check] %s\n' "$*"; }
die() { printf '[client-check] FAILED: %s\n' "$*" >&2; exit 1; }

[ -x "$PROJECT_PY" ] || die "$PROJECT_PY not found: run make install first"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/hangjack-client-check.XXXXXX")
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 1. the generator's own virtualenv ----------------------------------------------------------
if ! "$CLIENT_VENV/bin/openapi-python-client" --version 2>/dev/null | grep -qF "version: $OPENAPI_PYTHON_CLIENT_VERSION" \
  || [ ! -x "$CLIENT_VENV/bin/ruff" ]; then
  log "creating $CLIENT_VENV with openapi-python-client $OPENAPI_PYTHON_CLIENT_VERSION"
  rm -rf "$CLIENT_VENV"
  "$BASE_PY" -m venv "$CLIENT_VENV"
  "$CLIENT_VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION" ruff
fi
log "$("$CLIENT_VENV/bin/openapi-python-client" --version)"

# ---- 2. the document ----------------------------------------------------------------------------
# Django settings of a developer's `make run`, on a database of our own (CI exports PostgreSQL and Redis).
export DJANGO_SETTINGS_MODULE=config.settings.local
export DATABASE_URL="sqlite:///$WORK/db.sqlite3"
export REDIS_URL=
export DJANGO_DEBUG=true  # the demo command loads only under DEBUG (it prints credentials)
log "manage.py spectacular --file $WORK/openapi.json"
"$PROJECT_PY" manage.py spectacular --format openapi-json --validate --fail-on-warn --file "$WORK/openapi.json"

# ---- 3. the client: no warning accepted ---------------------------------------------------------
log "openapi-python-client generate"
set +e
PATH="$CLIENT_VENV/bin:$PATH" "$CLIENT_VENV/bin/openapi-python-client" generate \
  --path "$WORK/openapi.json" --output-path "$WORK/client" --meta setup \
  --config "$ROOT/scripts/openapi-python-client.yaml" >"$WORK/generate.log" 2>&1
status=$?
set -e
sed 's/^/  | /' "$WORK/generate.log"
[ "$status" -eq 0 ] || die "openapi-python-client exited $status"
unexpected=$(grep -vE '^(Generating .*)?[[:space:]]*$' "$WORK/generate.log" || true)
[ -z "$unexpected" ] || die "openapi-python-client reported more than 'Generating' (warnings above)"
log "generated with no warning: $(find "$WORK/client/hang_jack_api_client/models" -name '*.py' | wc -l) model modules"

# ---- 4. the client in the same virtualenv -------------------------------------------------------
"$CLIENT_VENV/bin/python" -m pip uninstall -q -y hang-jack-api-client >/dev/null 2>&1 || true
"$CLIENT_VENV/bin/python" -m pip install -q --disable-pip-version-check "$WORK/client"
log "installed $("$CLIENT_VENV/bin/python" -m pip show hang-jack-api-client | grep -E '^(Name|Version):' | tr '\n' ' ')"

# ---- 5. a live server ---------------------------------------------------------------------------
PORT=$("$PROJECT_PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log "migrate and load the demo into $WORK/db.sqlite3"
"$PROJECT_PY" manage.py migrate --noinput >"$WORK/migrate.log" 2>&1 || { cat "$WORK/migrate.log"; die "migrate"; }
"$PROJECT_PY" manage.py demo --port "$PORT" >"$WORK/demo.log" 2>&1 || { cat "$WORK/demo.log"; die "manage.py demo"; }
PASSWORD=$(sed -n 's/^organiser login: organiser //p' "$WORK/demo.log")
[ -n "$PASSWORD" ] || { cat "$WORK/demo.log"; die "the demo printed no organiser password"; }

log "runserver 127.0.0.1:$PORT"
"$PROJECT_PY" manage.py runserver "127.0.0.1:$PORT" --noreload >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
up=
for _ in $(seq 60); do
  if "$PROJECT_PY" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
    "http://127.0.0.1:$PORT/api/v1/public/tournaments/" >/dev/null 2>&1; then
    up=yes
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; die "the server stopped"; }
  sleep 1
done
[ -n "$up" ] || { cat "$WORK/server.log"; die "the server did not answer in 60 s"; }

# ---- 6. the tablet day, through the generated client only ---------------------------------------
if ! HANGJACK_ORGANISER_PASSWORD="$PASSWORD" "$CLIENT_VENV/bin/python" "$ROOT/scripts/client_day.py" \
  "http://127.0.0.1:$PORT"; then
  log "server log (last 40 lines):"
  tail -n 40 "$WORK/server.log" >&2
  die "the client day"
fi
log "ok: a clean client, and a tablet day played with it"
