import { Migration } from '@mikro-orm/migrations';

/** The tables whose rows held their history in an `events` column, with their entity's name. */
const HISTORIED: readonly [table: string, entity: string][] = [
  ['activity', 'Activity'],
  ['ap_invoice', 'ApInvoice'],
  ['booking', 'Booking'],
  ['concept', 'Concept'],
  ['configurator_type', 'ConfiguratorType'],
  ['contact_form_widget_config', 'ContactFormWidgetConfig'],
  ['coverage_job', 'CoverageJob'],
  ['customer', 'Customer'],
  ['employee', 'Employee'],
  ['epic', 'Epic'],
  ['feature', 'Feature'],
  ['hr_project', 'HrProject'],
  ['inbound_email', 'InboundEmail'],
  ['invoice', 'Invoice'],
  ['lead', 'Lead'],
  ['notification', 'Notification'],
  ['opportunity', 'Opportunity'],
  ['product', 'Product'],
  ['sent_mail', 'SentMail'],
  ['stock_inventory', 'StockInventory'],
  ['stock_site', 'StockSite'],
  ['stock_transfer', 'StockTransfer'],
  ['subsidiary', 'Subsidiary'],
  ['supplier', 'Supplier'],
  ['task', 'Task'],
  ['tax_percentage', 'TaxPercentage'],
  ['team', 'Team'],
  ['type_product_coverage', 'TypeProductCoverage'],
  ['app_user', 'User'],
  ['waste_record', 'WasteRecord'],
];

const UUID = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;

/**
 * History in a table of its own. Each record kept its history in an `events` JSON column that
 * every change rewrote whole and every read carried; `record_history` keeps one row per entry,
 * with the changed fields' values before and after, the actor (user or API key), the request
 * and the time, read through (tenant, record type, record id, seq). The existing entries move
 * into it (their values were never kept: `changes` stays null), and so do the deletions the audit
 * log holds, as DELETE entries; then the columns go. `history_settings` holds a tenant's
 * retention period, absent until the tenant changes the default. The retention job deletes
 * older entries of every tenant through a policy of its own, as the idempotency clean-up does.
 */
export class Migration20261126140000_record_history extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "record_history" (
  "tenant_id" uuid not null,
  "id" uuid not null,
  "record_type" text not null,
  "record_id" uuid not null,
  "type" text not null check ("type" in ('CREATE', 'UPDATE', 'STATUS_CHANGE', 'DELETE', 'RESTORE')),
  "seq" bigint not null,
  "occurred_at" timestamptz not null,
  "actor_user_id" uuid null,
  "actor_api_key_id" uuid null,
  "actor_email" text null,
  "request_id" text null,
  "description" text null,
  "changes" jsonb null,
  constraint "record_history_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(
      `create index "record_history_record_idx" on "record_history" ("tenant_id", "record_type", "record_id", "seq" desc);`,
    );
    this.addSql(`create index "record_history_seq_idx" on "record_history" ("tenant_id", "seq" desc);`);
    this.addSql(`create table "history_settings" (
  "tenant_id" uuid not null,
  "retention_days" int not null check ("retention_days" between 1 and 36500),
  constraint "history_settings_pkey" primary key ("tenant_id"));`);
    for (const [table, entity] of HISTORIED) {
      this.addSql(`insert into "record_history" ("tenant_id", "id", "record_type", "record_id", "type", "seq", "occurred_at", "actor_user_id", "description")
  select r."tenant_id",
    case when e.value->>'id' ~ ${UUID} then (e.value->>'id')::uuid else gen_random_uuid() end,
    '${entity}', r."id", e.value->>'type',
    (extract(epoch from (e.value->>'date')::timestamptz) * 1000000)::bigint + least(e.ordinality, 999),
    (e.value->>'date')::timestamptz,
    case when e.value->>'authorId' ~ ${UUID} then (e.value->>'authorId')::uuid end,
    e.value->>'description'
  from "${table}" r, jsonb_array_elements(r."events") with ordinality as e(value, ordinality)
  where e.value->>'type' in ('CREATE', 'UPDATE', 'STATUS_CHANGE', 'DELETE') and e.value->>'date' is not null
  on conflict do nothing;`);
      this.addSql(`alter table "${table}" drop column "events";`);
    }
    this.addSql(`insert into "record_history" ("tenant_id", "id", "record_type", "record_id", "type", "seq", "occurred_at", "actor_email", "description", "changes")
  select a."tenant_id", a."id", a."entity", a."entity_id", 'DELETE',
    (extract(epoch from coalesce(a."created", now())) * 1000000)::bigint,
    coalesce(a."created", now()), a."created_by", 'Deleted ' || a."entity",
    (select jsonb_object_agg(d.key, jsonb_build_object('old', d.value, 'new', null))
       from jsonb_each(case when jsonb_typeof(a."data") = 'object' then a."data" else '{}'::jsonb end) d
       where d.key not in ('tenantId', 'id', 'created', 'createdBy', 'updated', 'updatedBy', 'version', 'events')
         and d.key !~* 'secret|hash|token|password' and d.value <> 'null'::jsonb)
  from "audit_log" a where a."action" = 'DELETE'
  on conflict do nothing;`);
    this.addSql(`select bms_enable_rls();`);
    for (const table of ['record_history', 'audit_log', 'history_settings'])
      this.addSql(
        `create policy ${table}_retention on "${table}" using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'history-retention');`,
      );
  }

  override async down(): Promise<void> {
    for (const table of ['audit_log']) this.addSql(`drop policy if exists ${table}_retention on "${table}";`);
    for (const [table] of HISTORIED)
      this.addSql(`alter table "${table}" add column "events" jsonb not null default '[]';`);
    this.addSql(`drop table if exists "history_settings";`);
    this.addSql(`drop table if exists "record_history";`);
  }
}
