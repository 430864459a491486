import { Concept } from './concept';
import { ConfiguratorType } from './configurator-type';
import { CoverageJob } from './coverage-job';
import { TypeProductCoverage } from './type-product-coverage';

/** Entities of the configurator: concepts, types, coverages, coverage jobs. */
export const configuratorEntities: Function[] = [Concept, ConfiguratorType, TypeProductCoverage, CoverageJob];
