import { accessResolvers } from './access';
import { configuratorResolvers } from './configurator';
import { crmResolvers } from './crm';
import { financeResolvers } from './finance';
import { hrResolvers } from './hr';
import { inventoryResolvers } from './inventory';
import { liveResolvers } from './live';
import { notificationsResolvers } from './notifications';
import { webhookResolvers } from './webhooks';
import { fileResolvers } from './files/files';
import { historyResolvers } from './history';

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
