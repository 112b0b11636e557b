#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on loopback (127.0.0.1:55432, trust auth, fsync off) for the
# Postgres saver tests, and writes GRAPHC_PG_URL to .ci/pg.env (tests read it from there).
# Idempotent: a running cluster is reused; concurrent calls wait for each other (flock).
# Works on a fresh Debian machine: installs Debian's `postgresql` with apt-get when no server is present.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=55432
DATA=/tmp/graphc-pg-data
LOCK=/tmp/graphc-pg.lock

exec 9>"$LOCK"
flock 9

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

find_pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

PGBIN=$(find_pgbin)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "services.sh: installing postgresql with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq postgresql >/dev/null
  PGBIN=$(find_pgbin)
  if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
    echo "services.sh: postgresql installed but no initdb under /usr/lib/postgresql/*/bin" >&2
    exit 1
  fi
fi

# the server refuses to run as root: run it as the "postgres" user then (apt creates it)
run_as_pg() {
  if [ "$(id -u)" = 0 ]; then
    (cd /tmp && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  # a stopped or half-made cluster from an earlier run is thrown away
  if [ -f "$DATA/postmaster.pid" ]; then run_as_pg "$PGBIN/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$DATA"
  mkdir -p "$DATA"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$DATA"; fi
  chmod 700 "$DATA"
  run_as_pg "$PGBIN/initdb" -D "$DATA" -A trust -U postgres -E UTF8 --no-sync >/dev/null
  # 9>&-: the server must not inherit the lock, or it would hold it for its whole life
  run_as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$DATA/log" -w -t 60 start \
    -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null 9>&-
fi

for _ in $(seq 1 60); do
  if "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then break; fi
  sleep 0.5
done
if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  echo "services.sh: PostgreSQL did not come up on 127.0.0.1:$PORT (log: $DATA/log)" >&2
  exit 1
fi

echo "GRAPHC_PG_URL=postgres://postgres@127.0.0.1:$PORT/postgres" > .ci/pg.env
