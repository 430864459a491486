import { Migration } from '@mikro-orm/migrations';

/**
 * Tenant exports a super-admin asked for over the API: one row per export, a job the service's
 * export worker claims (PENDING -> RUNNING -> DONE or FAILED) and reports its progress on. Keyed
 * (tenant_id, id) under row-level security like every tenant table; the worker finds due exports
 * of every tenant through a policy only its transactions can use (never the application role).
 */
export class Migration20261126160100_tenant_exports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "tenant_export" (
  "tenant_id" uuid not null,
  "id" uuid not null,
  "status" text not null default 'PENDING',
  "progress" int not null default 0,
  "message" text null,
  "bundle" text null,
  "requested_by" text not null,
  "created" timestamptz not null default now(),
  "started" timestamptz null,
  "completed" timestamptz null,
  constraint "tenant_export_status_check" check ("status" in ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
  constraint "tenant_export_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "tenant_export_pending_idx" on "tenant_export" ("created") where "status" = 'PENDING';`);
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create policy tenant_export_worker on tenant_export using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'exports');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tenant_export";`);
  }
}
