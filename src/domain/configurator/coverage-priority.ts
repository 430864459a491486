import { CoverageJobPriority } from './entities/coverage-job';

/** Claim order of the priorities, highest first (the worker's claim query uses the same order). */
export const PRIORITY_ORDER: readonly CoverageJobPriority[] = [
  CoverageJobPriority.URGENT,
  CoverageJobPriority.HIGH,
  CoverageJobPriority.NORMAL,
  CoverageJobPriority.LOW,
];

export const isHigherPriority = (a: CoverageJobPriority, b: CoverageJobPriority) =>
  PRIORITY_ORDER.indexOf(a) < PRIORITY_ORDER.indexOf(b);
