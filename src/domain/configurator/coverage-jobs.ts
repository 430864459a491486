import type { Context } from '../../context';
import { badRequest, conflict } from '../../errors';
import { requireRef } from '../../family/references';
import { notifyWork } from '../../events/work-signals';
import { ConfiguratorType } from './entities/configurator-type';
import { type CoverageJob, CoverageJobPriority, CoverageJobStatus } from './entities/coverage-job';
import type { StaticModel } from './entities/type-shapes';
import type { CreateCoverageJobInput, UpdateCoverageJobInput } from './api/coverage-job-inputs';

/** A job's name and description, unless given: what it covers. */
export function describeJob(job: CoverageJob, type: ConfiguratorType, model: StaticModel): void {
  job.name ??= `Coverage of ${type.name} / ${model.modelNamePrefix || model.id}`;
  job.description ??= `Creates or updates the product coverage of every variant of static model ${model.id} of type ${type.name}.`;
}

/**
 * A new job is PENDING, LOW unless said, due now unless said, for a static model its type has;
 * only a PENDING job can be re-prioritised or rescheduled.
 */
export async function prepareJob(
  ctx: Context,
  job: CoverageJob,
  input: Partial<CreateCoverageJobInput & UpdateCoverageJobInput>,
  isNew: boolean,
): Promise<void> {
  if (!isNew) {
    if (job.status !== CoverageJobStatus.PENDING && ('priority' in input || 'runAfter' in input)) {
      throw conflict(`the job is ${job.status}; only a PENDING job can be re-prioritised or rescheduled`);
    }
    // Rescheduled: it may be due now.
    if ('runAfter' in input) await notifyWork(ctx.em, 'coverage');
    return;
  }
  const type = await requireRef(ctx, 400, 'typeId', job.typeId, ConfiguratorType);
  const model = type.staticModels.find((m) => m.id === job.staticModelId);
  if (!model) throw badRequest(`staticModelId: type ${type.id} has no static model "${job.staticModelId}"`);
  job.status = CoverageJobStatus.PENDING;
  job.priority ??= CoverageJobPriority.LOW;
  job.runAfter ??= new Date();
  describeJob(job, type, model);
  await notifyWork(ctx.em, 'coverage');
}
