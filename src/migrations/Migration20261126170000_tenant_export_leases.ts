import { Migration } from '@mikro-orm/migrations';

/**
 * Export jobs that survive the process running them, and bundles downloadable over HTTP. A
 * RUNNING export holds a lease its worker renews while it works (`lease_until`); an export whose
 * lease ran out lost its process, and the next worker takes it over (`attempts` counts the runs,
 * and a worker whose run was taken over can no longer write the row). The finished bundle is
 * stored in the file store as one archive (`archive_key`, its size and SHA-256), where any
 * process can serve it to the tenant's administrator.
 */
export class Migration20261126170000_tenant_export_leases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "tenant_export"
  add column "lease_until" timestamptz null,
  add column "attempts" int not null default 0,
  add column "archive_key" text null,
  add column "archive_size" bigint null,
  add column "archive_sha256" text null;`);
    this.addSql(`drop index if exists "tenant_export_pending_idx";`);
    this.addSql(
      `create index "tenant_export_due_idx" on "tenant_export" ("created") where "status" in ('PENDING', 'RUNNING');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "tenant_export_due_idx";`);
    this.addSql(
      `create index "tenant_export_pending_idx" on "tenant_export" ("created") where "status" = 'PENDING';`,
    );
    this.addSql(`alter table "tenant_export"
  drop column "lease_until", drop column "attempts", drop column "archive_key",
  drop column "archive_size", drop column "archive_sha256";`);
  }
}
