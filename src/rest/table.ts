import type { RestRoute } from './route';
import { accessRoutes } from './routes/access';
import { configuratorRoutes } from './routes/configurator';
import { crmRoutes } from './routes/crm';
import { financeRoutes } from './routes/finance';
import { hrRoutes } from './routes/hr';
import { inventoryRoutes } from './routes/inventory';
import { notificationsRoutes } from './routes/notifications';
import { webhookRoutes } from './routes/webhooks';
import { identityRoutes } from './routes/identity';
import { fileRoutes } from './routes/files';
import { historyRoutes } from './routes/history';

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
