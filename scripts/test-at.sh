#!/usr/bin/env bash
# Runs the suite as if it were another moment: `scripts/test-at.sh '2027-01-01 00:00:40' [jest args]`.
# The tests and a throwaway PostgreSQL 15 cluster both run under libfaketime (Debian's `faketime`
# package) shifted by the same offset, so the service's clock and the database's now() agree; a
# test that writes a date and reads it as the future or the past shows here the day it would turn.
# The run just after a midnight, a month's or a year's end is the one to try.
set -euo pipefail
when=${1:?usage: scripts/test-at.sh 'YYYY-MM-DD HH:MM:SS' [jest args]}
shift
lib=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
bin=/usr/lib/postgresql/15/bin
[ -f "$lib" ] || { echo "needs libfaketime: apt-get install faketime" >&2; exit 2; }
[ -x "$bin/initdb" ] || { echo "needs PostgreSQL 15's server binaries in $bin" >&2; exit 2; }
port=${TEST_AT_PORT:-5439}
dir=$(mktemp -d)
chmod 755 "$dir"
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
stop() { as_postgres "$bin/pg_ctl -D $dir/data -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
offset="+$(( $(date -u -d "$when UTC" +%s) - $(date -u +%s) ))"
fake="LD_PRELOAD=$lib FAKETIME=$offset FAKETIME_DONT_FAKE_MONOTONIC=1"
as_postgres "$bin/initdb -D $dir/data -A trust -U postgres" >/dev/null
as_postgres "env $fake $bin/pg_ctl -D $dir/data -w -l $dir/log -o '-p $port -k $dir -c max_connections=200' start" >/dev/null
echo "database and tests at $(env $fake date -u '+%F %T') UTC" >&2
cd "$(dirname "$0")/.."
env $fake DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" npx jest "$@"
