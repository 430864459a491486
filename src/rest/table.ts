import type { RestRoute } from './route';
import { accessRoutes } from '../domain/access/api/rest';
import { configuratorRoutes } from '../domain/configurator/api/rest';
import { crmRoutes } from '../domain/crm/api/rest';
import { financeRoutes } from '../domain/finance/api/rest';
import { hrRoutes } from '../domain/hr/api/rest';
import { inventoryRoutes } from '../domain/inventory/api/rest';
import { notificationsRoutes } from '../domain/notifications/api/rest';
import { webhookRoutes } from '../domain/webhooks/api/rest';
import { identityRoutes } from '../domain/access/api/identity-rest';
import { fileRoutes } from '../domain/files/api/rest';
import { historyRoutes } from '../domain/history/api/rest';

/** Every REST operation of the service, one row each (paths below /api/v1). */
export const restTable: RestRoute[] = [
  ...accessRoutes,
  ...configuratorRoutes,
  ...financeRoutes,
  ...hrRoutes,
  ...crmRoutes,
  ...inventoryRoutes,
  ...notificationsRoutes,
  ...webhookRoutes,
  ...identityRoutes,
  ...fileRoutes,
  ...historyRoutes,
];
