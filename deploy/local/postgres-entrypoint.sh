#!/bin/sh
# First start: a cluster owned by POSTGRES_USER with POSTGRES_DB, password auth from other hosts; then
# Postgres itself as PID 1 (SIGTERM = smart shutdown).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  psql -U "$POSTGRES_USER" -d postgres -qc "CREATE DATABASE \"$POSTGRES_DB\""
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@" -c listen_addresses='*' -c unix_socket_directories=/tmp
