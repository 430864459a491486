import { Field, ID, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { ConfiguratorType } from '../../entities/configurator/configurator-type';
import {
  CoverageJob,
  CoverageJobPriority,
  CoverageJobStatus,
  COVERAGE_JOB_DOCS,
} from '../../entities/configurator/coverage-job';
import type { StaticModel } from '../../entities/configurator/type-shapes';
import type { Context } from '../../context';
import { badRequest, conflict } from '../../errors';
import { defineGroup } from '../../family/group';
import { requireRef } from '../../family/references';

@InputType({ description: 'A coverage calculation of one static model, queued by hand.' })
export class CreateCoverageJobInput {
  @Field(() => ID, { description: COVERAGE_JOB_DOCS.typeId })
  typeId!: string;
  @Field(() => String, { description: 'Id of the static model whose variants are calculated.' })
  staticModelId!: string;
  @Field(() => CoverageJobPriority, { nullable: true, description: 'Priority of the job (default NORMAL).' })
  priority?: CoverageJobPriority;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Default: now.' }) runAfter?: Date;
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.name })
  @IsOptional()
  @Length(1, 300)
  name?: string;
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.description }) description?: string;
}

@InputType({ description: 'Changes to a job; only a PENDING job may be re-prioritised or rescheduled.' })
export class UpdateCoverageJobInput {
  @Field(() => CoverageJobPriority, {
    nullable: true,
    description: COVERAGE_JOB_DOCS.priority,
  })
  priority?: CoverageJobPriority;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'The job is not claimed before this time (retries back off exponentially).',
  })
  runAfter?: Date;
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.name })
  @IsOptional()
  @Length(1, 300)
  name?: string;
  @Field(() => String, { nullable: true, description: COVERAGE_JOB_DOCS.description }) description?: string;
}

/** Claim order of the priorities, highest first (the worker's claim query uses the same order). */
export const PRIORITY_ORDER: readonly CoverageJobPriority[] = [
  CoverageJobPriority.URGENT,
  CoverageJobPriority.HIGH,
  CoverageJobPriority.NORMAL,
  CoverageJobPriority.LOW,
];

export const isHigherPriority = (a: CoverageJobPriority, b: CoverageJobPriority) =>
  PRIORITY_ORDER.indexOf(a) < PRIORITY_ORDER.indexOf(b);

export function describeJob(job: CoverageJob, type: ConfiguratorType, model: StaticModel): void {
  job.name ??= `Coverage of ${type.name} / ${model.modelNamePrefix || model.id}`;
  job.description ??= `Creates or updates the product coverage of every variant of static model ${model.id} of type ${type.name}.`;
}

async function prepareJob(
  ctx: Context,
  job: CoverageJob,
  input: Partial<CreateCoverageJobInput & UpdateCoverageJobInput>,
  isNew: boolean,
): Promise<void> {
  if (!isNew) {
    if (job.status !== CoverageJobStatus.PENDING && ('priority' in input || 'runAfter' in input)) {
      throw conflict(`the job is ${job.status}; only a PENDING job can be re-prioritised or rescheduled`);
    }
    return;
  }
  const type = await requireRef(ctx, 400, 'typeId', job.typeId, ConfiguratorType);
  const model = type.staticModels.find((m) => m.id === job.staticModelId);
  if (!model) throw badRequest(`staticModelId: type ${type.id} has no static model "${job.staticModelId}"`);
  job.status = CoverageJobStatus.PENDING;
  job.priority ??= CoverageJobPriority.LOW;
  job.runAfter ??= new Date();
  describeJob(job, type, model);
}

export const coverageJobs = defineGroup({
  entity: CoverageJob,
  name: 'CoverageJob',
  plural: 'CoverageJobs',
  resource: 'COVERAGES',
  createInput: CreateCoverageJobInput,
  updateInput: UpdateCoverageJobInput,
  searchable: ['name'],
  beforeSave: prepareJob,
});
