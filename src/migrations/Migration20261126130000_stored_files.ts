import { Migration } from '@mikro-orm/migrations';

/**
 * Stored files: one row per file a tenant uploaded (or the service rendered), keyed
 * (tenant_id, id) under row-level security like every tenant table. `completed` is null while a
 * two-step upload waits for its completion call: such a row names no file anyone can read.
 * `deleted` marks a file removed; its bytes go with the row once the clean-up job runs.
 * The tenant's own limits (largest file, allowed types, quota) live in `file_settings`, one row
 * per tenant, absent until the tenant changes the defaults.
 */
export class Migration20261126130000_stored_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "stored_file" (
  "tenant_id" uuid not null,
  "id" uuid not null,
  "name" text not null,
  "type" text not null,
  "size" bigint not null,
  "sha256" text null,
  "width" int null,
  "height" int null,
  "thumbnail_id" uuid null,
  "thumbnail_state" text not null default 'NONE',
  "storage_key" text not null,
  "created_by" uuid null,
  "created" timestamptz not null default now(),
  "completed" timestamptz null,
  "expires" timestamptz null,
  "deleted" timestamptz null,
  constraint "stored_file_pkey" primary key ("tenant_id", "id"));`);
    this.addSql(`create index "stored_file_tenant_live_idx" on "stored_file" ("tenant_id") where "deleted" is null;`);
    this.addSql(
      `create index "stored_file_thumbnail_due_idx" on "stored_file" ("created") where "thumbnail_state" = 'PENDING';`,
    );
    this.addSql(`create table "file_settings" (
  "tenant_id" uuid not null,
  "max_file_size" bigint null,
  "allowed_types" text[] null,
  "quota_bytes" bigint null,
  constraint "file_settings_pkey" primary key ("tenant_id"));`);
    this.addSql(`select bms_enable_rls();`);
    // The file jobs (thumbnails, clean-up) find work in every tenant, as the coverage worker's
    // claim does, then act as each file's tenant; the application role can never use this policy.
    this.addSql(
      `create policy stored_file_worker on stored_file using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'files');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "file_settings";`);
    this.addSql(`drop table if exists "stored_file";`);
  }
}
