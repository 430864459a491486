import type { RestRoute } from '../route';

export const crmRoutes: RestRoute[] = [];
