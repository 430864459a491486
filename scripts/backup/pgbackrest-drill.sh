#!/usr/bin/env bash
# A point-in-time recovery drill with pgBackRest (Debian's pgbackrest package), on a throw-away
# PostgreSQL cluster of its own (never the server the service uses): archive the write-ahead log,
# take a full backup, write more, note a moment, write more again, then restore to that moment and
# check that exactly the rows written before it are there. docs/operations.md ("Backups") gives the
# same steps for the real server.
#   usage: scripts/backup/pgbackrest-drill.sh      (as root it runs itself as the postgres user)
# Settings: PG_BIN (the server's programs; default: the newest under /usr/lib/postgresql), KEEP=1.
set -euo pipefail
if [ "$(id -u)" = "0" ]; then
  # PostgreSQL refuses to run as root.
  exec runuser -u postgres -- env PG_BIN="${PG_BIN:-}" KEEP="${KEEP:-0}" bash "$(readlink -f "${BASH_SOURCE[0]}")" "$@"
fi
command -v pgbackrest >/dev/null || { echo "pgbackrest-drill.sh: pgbackrest is not installed (apt-get install pgbackrest)" >&2; exit 1; }
bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
[ -x "$bin/initdb" ] || { echo "pgbackrest-drill.sh: no PostgreSQL server programs in '$bin' (set PG_BIN)" >&2; exit 1; }

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
conf="$work/pgbackrest.conf"
stanza=drill
cleanup() {
  "$bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" != "1" ]; then rm -rf -- "$work"; else echo "kept $work" >&2; fi
}
trap cleanup EXIT

"$bin/initdb" -D "$work/pg" -U postgres --auth=trust >/dev/null
cat > "$conf" <<CONF
[global]
repo1-path=$work/repo
repo1-retention-full=1
log-path=$work/log
lock-path=$work/lock
log-level-console=warn
start-fast=y
archive-async=n

[$stanza]
pg1-path=$work/pg
pg1-port=$port
pg1-socket-path=$work
CONF
cat >> "$work/pg/postgresql.conf" <<CONF
port = $port
listen_addresses = ''
unix_socket_directories = '$work'
wal_level = replica
archive_mode = on
archive_command = 'pgbackrest --config=$conf --stanza=$stanza archive-push %p'
CONF
mkdir -p "$work/log" "$work/lock" "$work/repo"
pgb() { pgbackrest --config="$conf" --stanza="$stanza" "$@"; }
sql() { "$bin/psql" -h "$work" -p "$port" -U postgres -d postgres -XAtq -v ON_ERROR_STOP=1 -c "$1"; }

"$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w start >/dev/null
pgb stanza-create
pgb check
sql "create table drill (n int primary key)"
sql "insert into drill select generate_series(1, 100)"
pgb --type=full backup
sql "insert into drill select generate_series(101, 200)"
sleep 1
target="$(sql "select now()")"
sleep 1
sql "insert into drill select generate_series(201, 300)"
# Archive the segment holding the last writes, as the server would once it fills.
sql "select pg_switch_wal()" >/dev/null
pgb check
"$bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null

pgb --delta --type=time "--target=$target" --target-action=promote restore
"$bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w start >/dev/null
for _ in $(seq 1 100); do
  [ "$(sql "select pg_is_in_recovery()")" = "f" ] && break
  sleep 0.2
done
[ "$(sql "select pg_is_in_recovery()")" = "f" ] || { echo "pgbackrest-drill.sh: the restored cluster did not finish recovery" >&2; exit 1; }
got="$(sql "select count(*) || ' ' || max(n) from drill")"
if [ "$got" != "200 200" ]; then
  echo "pgbackrest-drill.sh: restored to $target, expected rows 1-200, found: $got (count max)" >&2
  exit 1
fi
echo "{\"proved\":true,\"target\":\"$target\",\"rows\":200}"
