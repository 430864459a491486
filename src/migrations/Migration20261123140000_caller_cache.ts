import { Migration } from '@mikro-orm/migrations';

/**
 * What tells every service process that a caller it keeps in memory (src/auth/caller-cache.ts)
 * may have changed: triggers on the tables authentication reads (users, roles, tenants) bump a
 * per-tenant counter in `caller_version` and NOTIFY `bms_caller` with the tenant's id. Triggers
 * rather than application code, so every write path (the ORM, raw SQL, tools) is covered.
 *
 * The counter is written in the changing transaction, so a request reads the version that
 * matches the data it can see: authentication reads it in the round trip that sets the
 * transaction's settings and reloads the caller when it differs from the cached entry's, which
 * keeps requests correct when a notification is late or lost. A tenant's counter starts at a
 * random value: after a TRUNCATE (which clears the counters) or in another database, a stale
 * entry cannot meet an equal number by chance. A tenant without a counter is not cached.
 *
 * The table holds no tenant data (ids and numbers) and has no `tenant_id` column: the triggers
 * write it for whatever tenant changed, whichever tenant (if any) the session is set to. It is
 * written only by the triggers' security-definer function; the application role may read its own
 * tenant's row.
 */
export class Migration20261123140000_caller_cache extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "caller_version" ("id" uuid primary key, "version" bigint not null);`);
    this.addSql(`insert into "caller_version" select id, (random() * 1e15)::bigint from "tenant";`);
    this.addSql(`alter table "caller_version" enable row level security;`);
    this.addSql(
      `create policy caller_version_own on "caller_version" for select using ("id" = nullif(current_setting('app.tenant_id', true), '')::uuid);`,
    );
    this.addSql(`create or replace function bms_caller_changed() returns trigger language plpgsql
security definer set search_path from current as $$
declare
  changed uuid;
begin
  -- TG_ARGV[0] names the column holding the tenant's id (id on tenant, tenant_id elsewhere).
  if tg_op = 'DELETE' then
    changed := (to_jsonb(old) ->> tg_argv[0])::uuid;
  else
    changed := (to_jsonb(new) ->> tg_argv[0])::uuid;
  end if;
  insert into caller_version as v ("id", "version")
    values (changed, (random() * 1e15)::bigint)
    on conflict ("id") do update set "version" = v."version" + 1;
  -- Repeated payloads in one transaction are sent once, at commit.
  perform pg_notify('bms_caller', changed::text);
  return null;
end
$$;`);
    this.addSql(`create or replace function bms_callers_truncated() returns trigger language plpgsql
security definer set search_path from current as $$
begin
  delete from caller_version;
  perform pg_notify('bms_caller', '*');
  return null;
end
$$;`);
    for (const [table, column] of [
      ['app_user', 'tenant_id'],
      ['tenant_role', 'tenant_id'],
      ['tenant', 'id'],
    ] as const) {
      this.addSql(
        `create trigger ${table}_caller_changed after insert or update or delete on "${table}" for each row execute function bms_caller_changed('${column}');`,
      );
      this.addSql(
        `create trigger ${table}_callers_truncated after truncate on "${table}" for each statement execute function bms_callers_truncated();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const table of ['app_user', 'tenant_role', 'tenant']) {
      this.addSql(`drop trigger if exists ${table}_caller_changed on "${table}";`);
      this.addSql(`drop trigger if exists ${table}_callers_truncated on "${table}";`);
    }
    this.addSql(`drop function if exists bms_caller_changed();`);
    this.addSql(`drop function if exists bms_callers_truncated();`);
    this.addSql(`drop table if exists "caller_version";`);
  }
}
