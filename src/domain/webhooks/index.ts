import type { DomainModule } from '../../modules';
import { webhookEntities } from './entities';
import { webhookRoutes } from './api/rest';
import { WebhookResolver } from './api/resolver';

/** Webhook endpoints and their deliveries (the delivery itself is src/events/). */
export const webhooksModule: DomainModule = {
  entities: webhookEntities,
  groups: [],
  resolvers: [WebhookResolver],
  routes: webhookRoutes,
};
