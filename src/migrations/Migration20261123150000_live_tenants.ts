import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox's statement trigger function: per tenant, `<tenant id>:<event id>,...` for at most
 * 200 events a payload; `onlyLive` leaves out tenants whose live mark is not current (as
 * Migration20261123140100_outbox_notify had it, without).
 */
const notifyOutboxRows = (onlyLive: boolean) => `create or replace function bms_notify_outbox_rows() returns trigger language plpgsql
${onlyLive ? 'security definer set search_path from current ' : ''}as $$
declare
  batch record;
begin
  for batch in
    select r.tenant_id, string_agg(r.id::text, ',' order by r.n) as ids
    from (select a.tenant_id, a.id, row_number() over () as n from added a) r
    ${onlyLive ? 'where exists (select 1 from live_tenant l where l.id = r.tenant_id and l.until > now())' : ''}
    group by r.tenant_id, (r.n - 1) / 200
    order by min(r.n)
  loop
    perform pg_notify('bms_outbox', batch.tenant_id::text || ':' || batch.ids);
  end loop;
  return null;
end
$$;`;

/**
 * The outbox's NOTIFY only for tenants that someone listens to. A transaction that sends a
 * NOTIFY commits under a database-wide lock held through its WAL flush, so notifying commits run
 * one at a time; the NOTIFY is only worth that where a service process holds live subscriptions
 * in the tenant. Such a process marks the tenant in `live_tenant` (until a time it keeps pushing
 * forward while its sessions last, so a process that dies stops counting by itself), and the
 * outbox trigger notifies a tenant's events only while its mark is current. Webhooks and e-mail
 * never depend on the NOTIFY: the event worker reads the outbox itself.
 *
 * Like `caller_version`, one row per tenant keyed by the tenant's id, no entity, written only
 * through a security-definer function; the trigger's function is security definer too, so it
 * reads the mark whichever role and tenant the inserting transaction runs as.
 */
export class Migration20261123150000_live_tenants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "live_tenant" ("id" uuid primary key, "until" timestamptz not null);`);
    this.addSql(`alter table "live_tenant" enable row level security;`);
    this.addSql(
      `create policy live_tenant_own on "live_tenant" for select using ("id" = nullif(current_setting('app.tenant_id', true), '')::uuid);`,
    );
    this.addSql(`create or replace function bms_live_tenant(tenant uuid, seconds integer) returns void
language sql security definer set search_path from current as $$
  insert into live_tenant as l ("id", "until") values (tenant, now() + make_interval(secs => seconds))
  on conflict ("id") do update set "until" = greatest(l."until", excluded."until");
$$;`);
    this.addSql(notifyOutboxRows(true));
  }

  override async down(): Promise<void> {
    this.addSql(notifyOutboxRows(false));
    this.addSql(`drop function if exists bms_live_tenant(uuid, integer);`);
    this.addSql(`drop table if exists "live_tenant";`);
  }
}
