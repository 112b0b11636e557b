#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on loopback for the Postgres saver tests.
# Exports nothing: tests read GRAPHC_PG_URL from .ci/pg.env when it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pg_ctlcluster >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
DATA=/tmp/graphc-pg-data
PORT=55432
if ! "$PGBIN/pg_isready" -h 127.0.0.1 -p "$PORT" >/dev/null 2>&1; then
  rm -rf "$DATA"; mkdir -p "$DATA"; chown postgres:postgres "$DATA" 2>/dev/null || true
  run_as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
  run_as_pg "$PGBIN/initdb -D $DATA -A trust -U postgres >/dev/null"
  run_as_pg "$PGBIN/pg_ctl -D $DATA -o '-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off' -l $DATA/log -w start >/dev/null"
fi
echo "GRAPHC_PG_URL=postgres://postgres@127.0.0.1:$PORT/postgres" > .ci/pg.env
