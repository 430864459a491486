import { EventDelivery } from './event-delivery';
import { OutboxEvent } from '../../../entities/outbox-event';
import { WebhookEndpoint } from './webhook-endpoint';

/** Entities of outbound events: the outbox, webhook endpoints and deliveries. */
export const eventEntities: Function[] = [OutboxEvent, WebhookEndpoint, EventDelivery];
