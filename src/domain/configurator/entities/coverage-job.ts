import { Entity } from '@mikro-orm/core';
import { Extensions, ObjectType, registerEnumType } from 'type-graphql';
import { FileAsset } from '../../../entities/shared';
import { Audited } from '../../../entities/tenant-scoped';
import {
  DateTimeColumn,
  DecimalColumn,
  EnumColumn,
  IntColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

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
 * the queue (see coverage-worker.ts); `status` changes are recorded as STATUS_CHANGE events.
 */
@Entity({ tableName: 'coverage_job' })
@TenantIndexes('coverage_job', 'typeId', 'status', 'priority', 'runAfter', 'started', 'completed', 'name')
@ObjectType({ description: 'A queued calculation of the product coverage of a type.' })
export class CoverageJob extends Audited {
  @TextColumn({ description: COVERAGE_JOB_DOCS.name })
  name?: string | null;

  @TextColumn({ description: COVERAGE_JOB_DOCS.description })
  description?: string | null;

  @TextColumn({ description: 'Outcome of the last run, or why it failed.' })
  message?: string | null;

  @TextColumn({ description: 'The worker instance running the job now.' })
  currentAgentId?: string | null;

  @TextColumn({ description: 'The worker that ran the job last.' })
  workerName?: string | null;

  @UuidColumn({ nullable: false, description: COVERAGE_JOB_DOCS.typeId })
  typeId!: string;

  @TextColumn({
    nullable: false,
    description: 'The static model of the type this job covers (GraphQL only).',
  })
  @Extensions({ rest: false })
  staticModelId!: string;

  @EnumColumn(() => CoverageJobStatus, { nullable: false, description: 'Where the job stands.' })
  status: CoverageJobStatus = CoverageJobStatus.PENDING;

  @EnumColumn(() => CoverageJobPriority, { nullable: false, description: COVERAGE_JOB_DOCS.priority })
  priority: CoverageJobPriority = CoverageJobPriority.LOW;

  @DecimalColumn(5, 2, { nullable: false, description: 'Percent done, 0 to 100.' })
  progress: number = 0;

  @IntColumn({ nullable: false, description: 'Retries scheduled after failures so far.' })
  retries: number = 0;

  @DateTimeColumn({ nullable: false, description: 'Not claimed before this time.' })
  runAfter: Date = new Date();

  @DateTimeColumn({ description: 'When a worker last started the job.' })
  started?: Date | null;

  @DateTimeColumn({ description: 'When the job ended.' })
  completed?: Date | null;

  @JsonColumn(() => [FileAsset], { nullable: false, description: 'Files the job produced.' })
  assets: FileAsset[] = [];
}
