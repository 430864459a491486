#!/usr/bin/env bash
# Restores a backup made by pg-dump.sh into an empty database (create it first: createdb NAME),
# in one transaction: it is restored whole or not at all. Then start the service on that database.
#   usage: TARGET_URL=postgresql://.../new_db scripts/backup/pg-restore.sh FILE
set -euo pipefail
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
file="${1:?usage: pg-restore.sh FILE (TARGET_URL names an empty database)}"
: "${TARGET_URL:?TARGET_URL must name the empty database to restore into}"
[ -r "$file" ] || { echo "pg-restore.sh: cannot read $file" >&2; exit 1; }
tables="$(psql "$TARGET_URL" -XAtq -v ON_ERROR_STOP=1 -c "select count(*) from pg_tables where schemaname = current_schema()")"
if [ "$tables" != "0" ]; then
  echo "pg-restore.sh: the target database is not empty ($tables tables): restore into a new one" >&2
  exit 1
fi
# The application role the service switches to (the first migration makes it on a new cluster).
psql "$TARGET_URL" -XAtq -v ON_ERROR_STOP=1 <<'SQL'
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'bms_app') then
    create role bms_app nologin nosuperuser nobypassrls noinherit;
  end if;
  begin
    execute format('grant bms_app to %I', current_user);
  exception when others then null; -- a superuser needs no membership to switch roles
  end;
end $$;
SQL
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$TARGET_URL" "$file"
# The grants pg-dump.sh left out, as the service makes them at each start.
psql "$TARGET_URL" -XAtq -v ON_ERROR_STOP=1 -c "select bms_enable_rls()" >/dev/null
echo "{\"restored\":\"$file\"}"
