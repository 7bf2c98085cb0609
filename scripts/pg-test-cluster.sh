#!/bin/sh
# A throw-away PostgreSQL cluster for tests, from the system's PostgreSQL (Debian's `postgresql`):
# nothing is downloaded. It listens only on a unix socket in its own temporary directory, so
# clusters of several test runs never meet, and it trusts local connections as `judge`, a superuser.
#
#   scripts/pg-test-cluster.sh start [--watch PID]   prints the URL, e.g.
#                                                     postgresql://judge@localhost/postgres?host=/tmp/judge-pg.XXXX
#   scripts/pg-test-cluster.sh stop URL|DIR           stops it and removes its directory
#
# --watch PID stops and removes the cluster once that process has ended, however it ended.
# Tests given the URL as JUDGE_TEST_DATABASE make their databases in it (packages/server/test/pg-cluster.ts).
# Run as root, the server runs as the `postgres` system user (PostgreSQL refuses to run as root).
set -eu

bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then echo "$PG_BINDIR"; return; fi
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || { echo "no PostgreSQL found under /usr/lib/postgresql (apt-get install postgresql)" >&2; exit 1; }
  echo "$dir"
}

# Runs a PostgreSQL program as the owner of the cluster.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  watch=""
  if [ "${1:-}" = "--watch" ]; then watch="$2"; fi
  bin=$(bindir)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/judge-pg.XXXXXX")
  chmod 700 "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
  # C locale and UTF-8: the judge compares and sorts text as SQLite does (docs/storage.md)
  as_owner "$bin/initdb" -D "$dir/data" -U judge --auth=trust --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
  # durability is worth nothing in a throw-away cluster; a short deadlock timeout keeps tests that
  # provoke deadlocks quick; a whole test run's databases share one predicate-lock table, sized by
  # max_pred_locks_per_transaction (the default 64 ran out with every worker's writes at once); a
  # test server's pool may open up to databasePoolSize (40) connections in a burst
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -s \
    -o "-c listen_addresses= -c unix_socket_directories=$dir -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c deadlock_timeout=100ms -c max_connections=400 -c max_pred_locks_per_transaction=512" \
    start >/dev/null || { cat "$dir/server.log" >&2; rm -rf "$dir"; exit 1; }
  if [ -n "$watch" ]; then
    # detached from this shell and its output, so that the caller's pipes close when start returns
    nohup setsid sh -c "while kill -0 $watch 2>/dev/null; do sleep 1; done; '$0' stop '$dir'" >/dev/null 2>&1 &
  fi
  echo "postgresql://judge@localhost/postgres?host=$dir"
}

stop() {
  dir=${1##*host=}
  dir=${dir%%&*}
  case "$dir" in
    */judge-pg.*) ;;
    *) echo "not a test cluster: $1" >&2; exit 1 ;;
  esac
  [ -d "$dir" ] || return 0
  if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m immediate -w -s stop >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop "${2:?stop needs the URL or directory start printed}" ;;
  *) echo "usage: $0 start [--watch PID] | stop URL|DIR" >&2; exit 2 ;;
esac
