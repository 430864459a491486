import type { DomainModule } from '../../modules';
import { configuratorEntities } from './entities';
import { configuratorRoutes } from './api/rest';
import { concepts } from './api/concepts';
import { coverageJobs } from './api/coverage-jobs';
import { TypeProductCoverageResolver } from './api/type-product-coverage-resolver';
import { typeProductCoverages } from './api/type-product-coverages';
import { TypeVariablesResolver } from './api/type-variables';
import { configuratorTypes } from './api/types';
import { startCoverageWorker } from './coverage-worker';

/** The product configurator: concepts, types, coverages and their calculation jobs. */
export const configuratorModule: DomainModule = {
  entities: configuratorEntities,
  groups: [concepts, configuratorTypes, typeProductCoverages, coverageJobs],
  resolvers: [TypeVariablesResolver, TypeProductCoverageResolver],
  routes: configuratorRoutes,
  // Due coverage jobs of every tenant, claimed from the coverage_job table by each process.
  jobs: [{ name: 'coverage jobs', start: (orm, logger) => startCoverageWorker(orm, logger) }],
};
