import type { GroupDef } from '../../../family/group';
import { concepts } from './concepts';
import { coverageJobs } from './coverage-jobs';
import { TypeProductCoverageResolver } from './type-product-coverage-resolver';
import { typeProductCoverages } from './type-product-coverages';
import { TypeVariablesResolver } from './type-variables';
import { configuratorTypes } from './types';

/** Groups with the standard family, and other resolvers, of this domain. */
export const configuratorGroups: GroupDef<any, any, any>[] = [
  concepts,
  configuratorTypes,
  typeProductCoverages,
  coverageJobs,
];
export const configuratorResolvers: Function[] = [TypeVariablesResolver, TypeProductCoverageResolver];
