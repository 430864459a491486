#!/usr/bin/env bash
# A restore drill: backs up the database at DATABASE_URL with pg-dump.sh, restores it with
# pg-restore.sh into a scratch database on the same server, and compares the two: the same tables,
# the same last migration, and no table with more rows in the copy than in the live database (the
# live one may have grown since the backup). Drops the scratch database unless KEEP=1.
#   usage: DATABASE_URL=postgresql://... scripts/backup/prove-pg-dump.sh
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL must name the database to prove the backup of}"
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
scratch="bms_restore_drill_$(date +%s)_$$"
admin="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/postgres")))' "$DATABASE_URL")"
target="$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' "$DATABASE_URL" "$scratch")"
cleanup() {
  rm -rf -- "$work"
  if [ "${KEEP:-0}" != "1" ]; then psql "$admin" -XAtq -c "drop database if exists \"$scratch\" with (force)" >/dev/null || true; fi
}
trap cleanup EXIT
"$here/pg-dump.sh" "$work/backup.dump" >/dev/null
psql "$admin" -XAtq -v ON_ERROR_STOP=1 -c "create database \"$scratch\"" >/dev/null
TARGET_URL="$target" "$here/pg-restore.sh" "$work/backup.dump" >/dev/null
counts='select string_agg(format($f$%s=%s$f$, table_name, (xpath($x$/row/n/text()$x$, query_to_xml(format($q$select count(*) as n from %I$q$, table_name), false, true, $e$$e$)))[1]::text), $s$ $s$ order by table_name) from information_schema.tables where table_schema = current_schema() and table_type = $t$BASE TABLE$t$'
live="$(psql "$DATABASE_URL" -XAtq -v ON_ERROR_STOP=1 -c "$counts")"
copy="$(psql "$target" -XAtq -v ON_ERROR_STOP=1 -c "$counts")"
last='select name from mikro_orm_migrations order by id desc limit 1'
[ "$(psql "$DATABASE_URL" -XAtq -c "$last")" = "$(psql "$target" -XAtq -c "$last")" ] || { echo "prove-pg-dump.sh: the copy's schema version differs" >&2; exit 1; }
python3 - "$live" "$copy" <<'PY'
import json, sys
live = dict(kv.split("=") for kv in sys.argv[1].split())
copy = dict(kv.split("=") for kv in sys.argv[2].split())
if set(live) != set(copy):
    sys.exit(f"prove-pg-dump.sh: the tables differ: {sorted(set(live) ^ set(copy))}")
grown = {t: (int(copy[t]), int(live[t])) for t in live if int(copy[t]) > int(live[t])}
if grown:
    sys.exit(f"prove-pg-dump.sh: the copy has more rows than the live database in {grown}")
print(json.dumps({"proved": True, "tables": len(live), "rows": sum(int(n) for n in copy.values())}))
PY
