import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export type JobOutcome = 'ok' | 'failed';

/**
 * One run of a scheduled job (src/jobs/scheduler.ts): per job, tenant (null for a job of the whole
 * deployment) and period; its insert is the claim. Read and written only by the scheduler, through
 * its worker policy (src/jobs/job-run-repository.ts): no GraphQL type, and no history or events
 * (a plain entity, not a tenant record). `tenant_id` names no tenant record a filter could bind to:
 * the tenant filter does not apply (src/db/orm.ts).
 */
@Entity({ tableName: 'job_run' })
@Index({
  name: 'job_run_claim_uq',
  expression: `create unique index "job_run_claim_uq" on "job_run" ("job", (coalesce("tenant_id", '00000000-0000-0000-0000-000000000000'::uuid)), "period_start") where not "manual"`,
})
@Index({ name: 'job_run_latest_idx', properties: ['job', 'startedAt'] })
export class JobRun {
  [OptionalProps]?: 'id' | 'manual' | 'attempts' | 'startedAt';

  @PrimaryKey({ type: 'uuid', defaultRaw: 'gen_random_uuid()' })
  id!: string;

  @Property({ type: 'text' })
  job!: string;

  @Property({ type: 'uuid', nullable: true })
  tenantId?: string | null;

  @Property({ type: 'timestamptz' })
  periodStart!: Date;

  /** A run asked for (`bms jobs:run`), outside the claims' unique index. */
  @Property({ type: 'boolean', default: false })
  manual: boolean = false;

  @Property({ type: 'int', default: 1 })
  attempts: number = 1;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  startedAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt?: Date | null;

  @Enum({ items: ['ok', 'failed'], nullable: true })
  outcome?: JobOutcome | null;

  @Property({ type: 'int', nullable: true })
  items?: number | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;
}
