import { EventDelivery } from './event-delivery';
import { WebhookEndpoint } from './webhook-endpoint';

/** Entities of webhooks: endpoints and their deliveries. */
export const webhookEntities: Function[] = [WebhookEndpoint, EventDelivery];
