import type { RestRoute } from '../route';

export const hrRoutes: RestRoute[] = [];
