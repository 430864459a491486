import type { RestRoute } from '../route';

export const accessRoutes: RestRoute[] = [];
