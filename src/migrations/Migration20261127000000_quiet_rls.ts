import { Migration } from '@mikro-orm/migrations';

/**
 * `bms_enable_rls()` runs at every start (src/db/orm.ts) and after migrations. It used to grant and
 * `alter table ... enable/force row level security` on every table each time, and each ALTER
 * takes an ACCESS EXCLUSIVE lock even when nothing changes: a process starting (a second service
 * process, the CLI) while another served could deadlock with that one's transactions, which lock
 * the same tables in another order. It now changes only what is missing, so on a database already
 * set up it reads the catalog and takes no table lock at all.
 */
export class Migration20261127000000_quiet_rls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function bms_enable_rls() returns void language plpgsql as $fn$
      declare t record;
      begin
        if not has_schema_privilege('bms_app', current_schema(), 'USAGE') then
          execute format('grant usage on schema %I to bms_app', current_schema());
        end if;
        for t in
          select c.relname, c.relrowsecurity, c.relforcerowsecurity,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as scoped,
            has_table_privilege('bms_app', c.oid, 'SELECT') and has_table_privilege('bms_app', c.oid, 'INSERT')
              and has_table_privilege('bms_app', c.oid, 'UPDATE') and has_table_privilege('bms_app', c.oid, 'DELETE') as granted
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> 'mikro_orm_migrations'
        loop
          if not t.granted then
            execute format('grant select, insert, update, delete on %I to bms_app', t.relname);
          end if;
          if t.scoped or t.relname = 'tenant' then
            if not t.relrowsecurity then
              execute format('alter table %I enable row level security', t.relname);
            end if;
            if not t.relforcerowsecurity then
              execute format('alter table %I force row level security', t.relname);
            end if;
            if not exists (select 1 from pg_policies where schemaname = current_schema() and tablename = t.relname and policyname = 'tenant_isolation') then
              execute format(
                'create policy tenant_isolation on %I using (%2$I = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) with check (%2$I = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
                t.relname, case when t.scoped then 'tenant_id' else 'id' end);
            end if;
          end if;
        end loop;
      end $fn$;`);
    this.addSql(`select bms_enable_rls();`);
  }

  override async down(): Promise<void> {
    // The earlier form: every grant and ALTER on every start.
    this.addSql(`create or replace function bms_enable_rls() returns void language plpgsql as $fn$
      declare t record;
      begin
        execute format('grant usage on schema %I to bms_app', current_schema());
        for t in
          select c.relname, exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as scoped
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> 'mikro_orm_migrations'
        loop
          execute format('grant select, insert, update, delete on %I to bms_app', t.relname);
          if t.scoped or t.relname = 'tenant' then
            execute format('alter table %I enable row level security', t.relname);
            execute format('alter table %I force row level security', t.relname);
            if not exists (select 1 from pg_policies where schemaname = current_schema() and tablename = t.relname and policyname = 'tenant_isolation') then
              execute format(
                'create policy tenant_isolation on %I using (%2$I = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) with check (%2$I = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)',
                t.relname, case when t.scoped then 'tenant_id' else 'id' end);
            end if;
          end if;
        end loop;
      end $fn$;`);
  }
}
