import type { RestRoute } from '../route';

export const inventoryRoutes: RestRoute[] = [];
