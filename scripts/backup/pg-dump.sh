#!/usr/bin/env bash
# A logical backup of the service's PostgreSQL database, consistent while the service runs
# (pg_dump reads one snapshot), in pg_dump's custom format.
#   usage: DATABASE_URL=postgresql://... scripts/backup/pg-dump.sh FILE
# docs/operations.md ("Backups") says how to restore it (pg-restore.sh) and how to prove it (prove-pg-dump.sh).
set -euo pipefail
out="${1:?usage: pg-dump.sh FILE (DATABASE_URL names the database)}"
: "${DATABASE_URL:?DATABASE_URL must name the database to back up}"
dir="$(dirname -- "$out")"
if [ ! -d "$dir" ] || [ ! -w "$dir" ]; then
  echo "pg-dump.sh: cannot write the backup to $out: its folder does not exist or is not writable" >&2
  exit 1
fi
if [ -e "$out" ]; then
  echo "pg-dump.sh: $out already exists: name a new file for the backup" >&2
  exit 1
fi
partial="$out.partial-$$"
trap 'rm -f -- "$partial"' EXIT
# Owners and grants are left out: the role the service uses (bms_app) is the cluster's, not the
# database's; pg-restore.sh creates it and the service grants it again when it starts.
pg_dump --format=custom --no-owner --no-privileges --file="$partial" "$DATABASE_URL"
mv -- "$partial" "$out"
trap - EXIT
echo "{\"file\":\"$out\",\"bytes\":$(stat -c %s -- "$out")}"
