import { Migration } from '@mikro-orm/migrations';

/**
 * The scheduled jobs' runs (src/jobs/scheduler.ts): one row per job, tenant and period, whose
 * insert is the claim. The unique index on (job, tenant, period start) of scheduled runs makes
 * whichever process inserts first the only one that runs the period; a manual run (`bms jobs:run`)
 * is recorded beside it, outside that index, so it neither blocks the scheduled claim nor waits
 * for it.
 *
 * One table for the whole deployment rather than a tenant table: a deployment-wide job (the
 * retention of every tenant's history, the purge of deleted tenants) has no tenant, so
 * `tenant_id` is null for it, and one unique key serves both kinds of claim (null counts as one
 * value there, through coalesce). Rows of a per-tenant job carry their tenant and are under the
 * usual row-level security (bms_enable_rls: a tenant sees its own runs, never another's, and no
 * deployment-wide ones); the scheduler reads and writes every row through a worker policy of its
 * own, which the application role can never use. `tenant_id` has no foreign key: the runs of a
 * tenant removed after its grace period are history of the deployment, pruned by age.
 */
export class Migration20261129200000_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "job_run" (
  "id" uuid not null default gen_random_uuid(),
  "job" text not null,
  "tenant_id" uuid null,
  "period_start" timestamptz not null,
  "manual" boolean not null default false,
  "attempts" int not null default 1,
  "started_at" timestamptz not null default now(),
  "finished_at" timestamptz null,
  "outcome" text null,
  "items" int null,
  "error" text null,
  constraint "job_run_outcome_check" check ("outcome" in ('ok', 'failed')),
  constraint "job_run_pkey" primary key ("id"));`);
    this.addSql(
      `create unique index "job_run_claim_uq" on "job_run" ("job", (coalesce("tenant_id", '00000000-0000-0000-0000-000000000000'::uuid)), "period_start") where not "manual";`,
    );
    this.addSql(`create index "job_run_latest_idx" on "job_run" ("job", "started_at");`);
    this.addSql(`select bms_enable_rls();`);
    this.addSql(
      `create policy job_run_worker on job_run using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'jobs');`,
    );
    // The scheduler finds every tenant's time zone and scopes (per-tenant jobs).
    this.addSql(
      `create policy tenant_jobs_worker on tenant for select using (current_user <> 'bms_app' and current_setting('app.worker', true) = 'jobs');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop policy if exists tenant_jobs_worker on tenant;`);
    this.addSql(`drop table if exists "job_run";`);
  }
}
