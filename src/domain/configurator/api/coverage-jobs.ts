import { CoverageJob } from '../entities/coverage-job';
import { prepareJob } from '../coverage-jobs';
import { defineGroup } from '../../../family/group';
import { CreateCoverageJobInput, UpdateCoverageJobInput } from './coverage-job-inputs';

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
