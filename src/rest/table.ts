import type { DomainModule } from '../modules';
import { appModules } from '../app-modules';
import type { RestRoute } from './route';

/** The REST rows of the modules given, in their order. */
export const restTableOf = (modules: readonly DomainModule[]): RestRoute[] =>
  modules.flatMap((m) => m.routes);

/** Every REST operation of the service, one row each (paths below /api/v1). */
export const restTable: RestRoute[] = restTableOf(appModules);
