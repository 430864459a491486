import { accessResolvers } from '../domain/access/api';
import { configuratorResolvers } from '../domain/configurator/api';
import { crmResolvers } from '../domain/crm/api';
import { financeResolvers } from '../domain/finance/api';
import { hrResolvers } from '../domain/hr/api';
import { inventoryResolvers } from '../domain/inventory/api';
import { liveResolvers } from '../domain/live/api';
import { notificationsResolvers } from '../domain/notifications/api';
import { webhookResolvers } from '../domain/webhooks/api';
import { fileResolvers } from '../domain/files/api/files';
import { historyResolvers } from '../domain/history/api';

/** Resolvers beyond the generated family ones. */
export const extraResolvers: Function[] = [
  ...accessResolvers,
  ...configuratorResolvers,
  ...financeResolvers,
  ...hrResolvers,
  ...crmResolvers,
  ...inventoryResolvers,
  ...notificationsResolvers,
  ...webhookResolvers,
  ...liveResolvers,
  ...fileResolvers,
  ...historyResolvers,
];
