import { accessModule } from '../domain/access';
import { configuratorModule } from '../domain/configurator';
import { crmModule } from '../domain/crm';
import { filesModule } from '../domain/files';
import { financeModule } from '../domain/finance';
import { historyModule } from '../domain/history';
import { hrModule } from '../domain/hr';
import { inventoryModule } from '../domain/inventory';
import { liveModule } from '../domain/live';
import { notificationsModule } from '../domain/notifications';
import { webhooksModule } from '../domain/webhooks';

/** Resolvers beyond the generated family ones. */
export const extraResolvers: Function[] = [
  accessModule,
  configuratorModule,
  financeModule,
  hrModule,
  crmModule,
  inventoryModule,
  notificationsModule,
  webhooksModule,
  liveModule,
  filesModule,
  historyModule,
].flatMap((m) => m.resolvers);
