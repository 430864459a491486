import type { RestRoute } from '../route';

export const notificationsRoutes: RestRoute[] = [];
