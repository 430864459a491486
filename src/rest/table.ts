import type { RestRoute } from './route';
import { accessModule } from '../domain/access';
import { configuratorModule } from '../domain/configurator';
import { crmModule } from '../domain/crm';
import { filesModule } from '../domain/files';
import { financeModule } from '../domain/finance';
import { historyModule } from '../domain/history';
import { hrModule } from '../domain/hr';
import { inventoryModule } from '../domain/inventory';
import { notificationsModule } from '../domain/notifications';
import { webhooksModule } from '../domain/webhooks';

/** Every REST operation of the service, one row each (paths below /api/v1). */
export const restTable: RestRoute[] = [
  accessModule,
  configuratorModule,
  financeModule,
  hrModule,
  crmModule,
  inventoryModule,
  notificationsModule,
  webhooksModule,
  filesModule,
  historyModule,
].flatMap((m) => m.routes);
