import type { RestRoute } from './route';
import { configuratorRoutes } from './routes/configurator';
import { financeRoutes } from './routes/finance';

/** Every REST operation of the service, one row each (paths below /api/v1). */
export const restTable: RestRoute[] = [...configuratorRoutes, ...financeRoutes];
