#!/usr/bin/env bash
# The tablet page's first load, weighed and timed with Lighthouse's mobile profile (issue 16: "under
# 100 KB transferred on first load and interactive within 3 s"). Not part of `make test`; results are
# recorded in docs/pages.md ("Weight of the first load").
#
#   bash benchmarks/tablet_lighthouse.sh            # PORT=8793, Lighthouse from /tmp/lh (installed if missing)
#
# What it does: a fresh SQLite database in a temporary folder, `manage.py migrate` and `manage.py demo`
# (the demo event of `make run`, which prints a pairing link for table 1), `manage.py runserver` on
# 127.0.0.1:$PORT, then benchmarks/tablet_lighthouse.mjs: Chromium pairs through the link, everything but
# the device token is cleared (HTTP cache, service worker, its caches, the board kept offline), and
# Lighthouse (default config: mobile form factor, simulated throttling) loads /tablet/ once. It prints
# FCP, LCP, Time to Interactive, TBT and each response's bytes: as runserver sent them (plain) and
# compressed here with gzip -9 (as WhiteNoise stores static files for production) and brotli 11.
#
# Needs: node >= 18 and npm (the npm registry), Chromium at CHROME_PATH (default /usr/bin/chromium).
# Environment: RUNS (loads, default 1: the median run is reported), CPU_SLOWDOWN (instead of Lighthouse's
# 4x; see docs/pages.md on a slow host), PORT, LH_PREFIX (where lighthouse is installed, default /tmp/lh), CHROME_PATH, KEEP=1 to keep
# the temporary folder (database, server log, Lighthouse's JSON report).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8793}"
export LH_PREFIX="${LH_PREFIX:-/tmp/lh}" CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
PY="${PY:-.venv/bin/python}"
if [ ! -e "$LH_PREFIX/node_modules/lighthouse/package.json" ]; then
  npm install --prefix "$LH_PREFIX" --no-audit --no-fund lighthouse >/dev/null
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "port $PORT is taken: run with PORT=<a free port>" >&2; exit 1
fi
WORK="$(mktemp -d)"
export DATABASE_URL="sqlite:///$WORK/db.sqlite3" DJANGO_SETTINGS_MODULE=config.settings.local
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
"$PY" manage.py migrate --noinput >/dev/null
"$PY" manage.py demo --port "$PORT" >"$WORK/demo.txt" 2>&1
LINK="$(grep -o "http://[^ ]*/tablet/pair/[A-Z0-9]*" "$WORK/demo.txt" | head -1)"
[ -n "$LINK" ] || { cat "$WORK/demo.txt" >&2; echo "no pairing link from manage.py demo" >&2; exit 1; }
"$PY" manage.py runserver "127.0.0.1:$PORT" --noreload >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  sleep 0.2
done
node benchmarks/tablet_lighthouse.mjs "$LINK" "http://127.0.0.1:$PORT/tablet/" "$WORK/report.json"
