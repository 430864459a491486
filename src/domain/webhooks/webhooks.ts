/**
 * Webhook endpoints of a tenant: registration (with the target checked), secret rotation, test
 * events and redelivery. The deliveries themselves are the event worker's (src/events/worker.ts).
 */
import { callerOf, type Context } from '../../context';
import { actorOf } from '../../db/tenancy';
import { deletionHistory } from '../../history/recorder';
import { badRequest, notFound } from '../../errors';
import { eventNames, TEST_EVENT } from '../../events/catalog';
import { entityClassesOf } from '../../db/entity-classes';
import { outboxRow } from '../../events/outbox';
import { activeEventSettings } from '../../events/settings';
import { newSecret } from '../../events/signing';
import { resolvedUrlProblem } from '../../events/targets';
import { checkPaging, isUuid } from '../../limits';
import { findPage } from '../../family/find-page';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { DeliveryChannel, DeliveryStatus, EventDelivery } from './entities/event-delivery';
import type { CreateWebhookInput, UpdateWebhookInput } from './api/webhook-inputs';

async function checkUrl(url: string): Promise<void> {
  const problem = await resolvedUrlProblem(url, activeEventSettings().allowPrivateTargets);
  if (problem) throw badRequest(problem);
}

function checkEvents(em: Context['em'], events: string[]): string[] {
  const known = eventNames(entityClassesOf(em));
  const unknown = events.filter((e) => e !== '*' && !known.includes(e));
  if (unknown.length > 0) throw badRequest(`unknown event names: ${unknown.slice(0, 5).join(', ')}`);
  if (events.length === 0) throw badRequest('events must name at least one event, or *');
  return [...new Set(events)];
}

export async function findWebhook(ctx: Context, id: string): Promise<WebhookEndpoint | null> {
  return isUuid(id) ? ctx.em.findOne(WebhookEndpoint, { id }) : null;
}

export async function webhookOrFail(ctx: Context, id: string): Promise<WebhookEndpoint> {
  const found = await findWebhook(ctx, id);
  if (!found) throw notFound(`webhook ${id} not found`);
  return found;
}

export function listWebhooks(ctx: Context): Promise<WebhookEndpoint[]> {
  return ctx.em.find(WebhookEndpoint, {}, { orderBy: { created: 'asc', id: 'asc' } });
}

export async function createWebhook(ctx: Context, input: CreateWebhookInput): Promise<WebhookEndpoint> {
  await checkUrl(input.url);
  const endpoint = ctx.em.create(WebhookEndpoint, {
    tenantId: callerOf(ctx).tenantId,
    url: input.url,
    events: checkEvents(ctx.em, input.events ?? ['*']),
    description: input.description ?? null,
    active: input.active ?? true,
    secret: newSecret(),
  } as never);
  await ctx.em.flush();
  return endpoint;
}

export async function updateWebhook(
  ctx: Context,
  id: string,
  input: UpdateWebhookInput,
): Promise<WebhookEndpoint> {
  const endpoint = await webhookOrFail(ctx, id);
  if (input.url != null) {
    await checkUrl(input.url);
    endpoint.url = input.url;
  }
  if (input.events != null) endpoint.events = checkEvents(ctx.em, input.events);
  if (input.description !== undefined) endpoint.description = input.description;
  if (input.active != null) {
    if (input.active && !endpoint.active) {
      endpoint.failingSince = null;
      endpoint.disabledReason = null;
      endpoint.consecutiveFailures = 0;
      endpoint.circuitOpenUntil = null;
    }
    endpoint.active = input.active;
  }
  await ctx.em.flush();
  return endpoint;
}

export async function deleteWebhook(ctx: Context, id: string): Promise<boolean> {
  const endpoint = await findWebhook(ctx, id);
  if (!endpoint) return false;
  await ctx.em.nativeDelete(EventDelivery, { endpointId: endpoint.id });
  await ctx.em.nativeDelete(WebhookEndpoint, { id: endpoint.id });
  // The statements bypass the flush's history: the deletion's entry goes in here.
  await ctx.em.persistAndFlush(deletionHistory(ctx.em, actorOf(ctx.em)!, WebhookEndpoint.name, endpoint));
  return true;
}

/** A new secret; the old one keeps signing (alongside) for the configured grace period. */
export async function rotateWebhookSecret(ctx: Context, id: string): Promise<WebhookEndpoint> {
  const endpoint = await webhookOrFail(ctx, id);
  endpoint.previousSecret = endpoint.secret;
  endpoint.previousSecretExpires = new Date(Date.now() + activeEventSettings().secretGraceMs);
  endpoint.secret = newSecret();
  await ctx.em.flush();
  return endpoint;
}

/** A delivery of `eventId` to `endpoint`, due now. */
function newDelivery(ctx: Context, endpoint: WebhookEndpoint, eventId: string, eventType: string, at: Date) {
  return ctx.em.create(EventDelivery, {
    tenantId: endpoint.tenantId,
    channel: DeliveryChannel.WEBHOOK,
    endpointId: endpoint.id,
    eventId,
    eventType,
    occurredAt: at,
    status: DeliveryStatus.PENDING,
    nextAttemptAt: new Date(),
    attemptLog: [],
  } as never);
}

/** Sends a `webhook.test` event to this endpoint only (active or not); returns its delivery. */
export async function testWebhook(ctx: Context, id: string): Promise<EventDelivery> {
  const endpoint = await webhookOrFail(ctx, id);
  const caller = callerOf(ctx);
  const event = outboxRow({
    tenantId: endpoint.tenantId,
    type: TEST_EVENT,
    resourceType: 'webhook',
    resourceId: endpoint.id,
    actor: { userId: caller.userId, email: caller.email },
    data: { id: endpoint.id, url: endpoint.url, description: endpoint.description ?? null },
    targetEndpointId: endpoint.id,
  });
  // Its delivery is made here, so the dispatcher has nothing left to do with it.
  event.dispatchedAt = new Date();
  ctx.em.persist(event);
  const delivery = newDelivery(ctx, endpoint, event.id, event.type, event.occurredAt);
  await ctx.em.flush();
  return delivery;
}

/** Sends a delivery's event to its endpoint again, as a new delivery (the old one's log stays). */
export async function redeliver(ctx: Context, webhookId: string, deliveryId: string): Promise<EventDelivery> {
  const endpoint = await webhookOrFail(ctx, webhookId);
  const old = isUuid(deliveryId)
    ? await ctx.em.findOne(EventDelivery, { id: deliveryId, endpointId: endpoint.id })
    : null;
  // A webhook's deliveries always carry their event (only digests have none).
  if (!old?.eventId) throw notFound(`delivery ${deliveryId} of webhook ${webhookId} not found`);
  const delivery = newDelivery(ctx, endpoint, old.eventId, old.eventType, old.occurredAt);
  await ctx.em.flush();
  return delivery;
}

/** An endpoint's deliveries, newest event first. */
export async function deliveriesOf(
  ctx: Context,
  webhookId: string,
  status?: DeliveryStatus | null,
  pageNumber?: number | null,
  pageSize?: number | null,
): ReturnType<typeof findPage<EventDelivery>> {
  const endpoint = await webhookOrFail(ctx, webhookId);
  const { page, size } = checkPaging(pageNumber, pageSize, ['pageNumber', 'pageSize']);
  const where = { endpointId: endpoint.id, ...(status ? { status } : {}) };
  return findPage(
    ctx.em,
    EventDelivery,
    where,
    { occurredAt: 'desc', created: 'desc', id: 'asc' },
    page,
    size,
  );
}
