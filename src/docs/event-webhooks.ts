import { entities } from '../orm-composition';
import { eventResources, TEST_EVENT } from '../events/catalog';
import type { JsonSchema } from './json-schema';

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The envelope every event is sent in (events/envelope.ts), with `data` and `type` left open. */
export const EVENT_ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'An event, as webhooks and subscriptions deliver it.',
  required: ['id', 'type', 'tenantId', 'occurredAt', 'actor', 'resource', 'data'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The event id; also the `webhook-id` header.' },
    type: { type: 'string', description: '`<resource>.<created|updated|status_changed|deleted>`' },
    tenantId: { type: 'string', format: 'uuid' },
    occurredAt: { type: 'string', format: 'date-time' },
    actor: {
      type: ['object', 'null'],
      properties: { userId: { type: ['string', 'null'] }, email: { type: 'string' } },
    },
    resource: {
      type: 'object',
      properties: { type: { type: 'string' }, id: { type: ['string', 'null'] } },
    },
    data: { description: 'The record as the REST API shows it (before its deletion, for `deleted`).' },
  },
};

/**
 * The OpenAPI 3.1 `webhooks` of the document: one per resource with events, its payload the
 * envelope with `type` narrowed to the resource's event names and `data` to the record's schema
 * where the document has one. Delivery follows the Standard Webhooks specification.
 */
export function eventWebhooks(schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const hook = (name: string, summary: string, types: string[], data: JsonSchema) => ({
    post: {
      operationId: `webhook_${name.replace(/\W/g, '_')}`,
      summary,
      description:
        'Sent to the endpoints registered with POST /webhooks whose `events` match, signed as the Standard Webhooks specification says (verify with the `standardwebhooks` library and the endpoint secret). Answer with a 2xx within 10 s; anything else is retried with backoff.',
      parameters: [
        header('webhook-id', 'The event id: the same on every retry, for deduplication.'),
        header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'),
        header(
          'webhook-signature',
          '`v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, space-separated during a rotation.',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: '#/components/schemas/EventEnvelope' },
                { type: 'object', properties: { type: { type: 'string', enum: types }, data } },
              ],
            },
          },
        },
      },
      responses: { '200': { description: 'Received (any 2xx will do).' } },
    },
  });
  const hooks: Record<string, unknown> = {};
  for (const r of eventResources(entities)) {
    const data = schemas[r.entity] ? { $ref: `#/components/schemas/${r.entity}` } : { type: 'object' };
    hooks[r.resource] = hook(r.resource, `Events of ${r.resource} records`, r.events, data);
  }
  hooks[TEST_EVENT] = hook(TEST_EVENT, 'The event POST /webhooks/{id}/test sends', [TEST_EVENT], {
    type: 'object',
  });
  return hooks;
}
