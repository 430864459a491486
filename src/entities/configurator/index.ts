import { Concept } from './concept';

/** Entities of the configurator: concepts, types, coverages, coverage jobs. */
export const configuratorEntities: Function[] = [Concept];
