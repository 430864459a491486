import { Migration } from '@mikro-orm/migrations';

/**
 * Row-level security, the second isolation layer under the ORM's tenant filter. Request
 * transactions run as `bms_app` (not the tables' owner, NOBYPASSRLS) with `app.tenant_id` set
 * for the transaction only; every table with a tenant_id gets a forced policy that matches that
 * setting, and an unset or empty setting matches nothing. `bms_enable_rls()` is idempotent and
 * runs after every migration, so tables added later are covered too.
 */
export class Migration20261122000001_rls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'bms_app') then
        create role bms_app nologin nosuperuser nobypassrls noinherit;
      end if;
      begin
        execute format('grant bms_app to %I', current_user);
      exception when others then null; -- a superuser needs no membership to switch roles
      end;
    end $$;`);
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
    this.addSql(`select bms_enable_rls();`);
    // The coverage worker claims due jobs of every tenant (then works as each job's tenant). The
    // claim runs as the connection's own user with app.worker set for its transaction; the
    // application role can never use this policy.
    this.addSql(`do $$ begin
      if to_regclass('coverage_job') is not null and not exists (
        select 1 from pg_policies where schemaname = current_schema() and tablename = 'coverage_job' and policyname = 'coverage_worker_claim') then
        create policy coverage_worker_claim on coverage_job
          using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'coverage');
      end if;
    end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists bms_enable_rls();`);
  }
}
