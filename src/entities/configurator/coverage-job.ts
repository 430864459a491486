import { DecimalType, Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Extensions, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { FileAsset } from '../shared';
import { Audited } from '../tenant-scoped';

export enum CoverageJobStatus {
  PENDING = 'PENDING',
  RUNNING = 'RUNNING',
  DONE = 'DONE',
  FAILED = 'FAILED',
}
registerEnumType(CoverageJobStatus, {
  name: 'CoverageJobStatus',
  description: 'PENDING (queued, also between retries) -> RUNNING -> DONE, or FAILED after the last retry.',
  valuesConfig: {
    PENDING: { description: 'Waiting for a worker (or for `runAfter` after a failure).' },
    RUNNING: { description: 'A worker is calculating it.' },
    DONE: { description: 'Finished; one coverage per variant was written.' },
    FAILED: { description: 'Gave up after the retries; the message says why.' },
  },
});

/** Claimed first to last; the worker's claim query orders by this list. */
export enum CoverageJobPriority {
  URGENT = 'URGENT',
  HIGH = 'HIGH',
  NORMAL = 'NORMAL',
  LOW = 'LOW',
}
registerEnumType(CoverageJobPriority, {
  name: 'CoverageJobPriority',
  description: 'Among due jobs, higher priorities are claimed first.',
  valuesConfig: {
    URGENT: { description: 'Claimed first.' },
    HIGH: { description: 'Claimed before NORMAL.' },
    NORMAL: { description: 'The default.' },
    LOW: { description: 'Claimed last.' },
  },
});

/** What CoverageJob fields mean, shared with the inputs that set them. */
export const COVERAGE_JOB_DOCS = {
  typeId: 'Id of the configurator type whose coverage is calculated.',
  name: 'Name of the job.',
  description: 'What the job is for.',
  priority: 'Workers claim due jobs by priority: URGENT > HIGH > NORMAL > LOW.',
} as const;

/**
 * One queued coverage calculation: the variants of one static model of a type. The table is
 * the queue (see src/jobs/worker.ts); `status` changes are recorded as STATUS_CHANGE events.
 */
@Entity({ tableName: 'coverage_job' })
@Index({ name: 'coverage_job_tenant_type_id_idx', properties: ['tenantId', 'typeId'] })
@Index({ name: 'coverage_job_tenant_status_idx', properties: ['tenantId', 'status'] })
@Index({ name: 'coverage_job_tenant_priority_idx', properties: ['tenantId', 'priority'] })
@Index({ name: 'coverage_job_tenant_run_after_idx', properties: ['tenantId', 'runAfter'] })
@Index({ name: 'coverage_job_tenant_started_idx', properties: ['tenantId', 'started'] })
@Index({ name: 'coverage_job_tenant_completed_idx', properties: ['tenantId', 'completed'] })
@Index({ name: 'coverage_job_tenant_name_idx', properties: ['tenantId', 'name'] })
@ObjectType({ description: 'A queued calculation of the product coverage of a type.' })
export class CoverageJob extends Audited {
  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.name })
  name?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.description })
  description?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Outcome of the last run, or why it failed.' })
  message?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The worker instance running the job now.' })
  currentAgentId?: string | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'The worker that ran the job last.' })
  workerName?: string | null;

  @Property({ type: 'uuid' })
  @Field(() => String, { description: COVERAGE_JOB_DOCS.typeId })
  typeId!: string;

  @Property({ type: 'text' })
  @Field(() => String, { description: 'The static model of the type this job covers (GraphQL only).' })
  @Extensions({ rest: false })
  staticModelId!: string;

  @Enum({ items: () => CoverageJobStatus })
  @Field(() => CoverageJobStatus, { description: 'Where the job stands.' })
  status: CoverageJobStatus = CoverageJobStatus.PENDING;

  @Enum({ items: () => CoverageJobPriority })
  @Field(() => CoverageJobPriority, {
    description: COVERAGE_JOB_DOCS.priority,
  })
  priority: CoverageJobPriority = CoverageJobPriority.LOW;

  @Property({ type: new DecimalType('number'), columnType: 'numeric(5,2)' })
  @Field(() => Float, { description: 'Percent done, 0 to 100.' })
  progress: number = 0;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'Retries scheduled after failures so far.' })
  retries: number = 0;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver, { description: 'Not claimed before this time.' })
  runAfter: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When a worker last started the job.' })
  started?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the job ended.' })
  completed?: Date | null;

  @Property({ type: 'json' })
  @Field(() => [FileAsset], { description: 'Files the job produced.' })
  assets: FileAsset[] = [];
}
