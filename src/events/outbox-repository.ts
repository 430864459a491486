import type { MikroORM } from '@mikro-orm/core';
import type { OutboxRecord } from './envelope';
import { asEventWorker, type Query } from './store';

/**
 * The statements of the outbox (`outbox_event`) as the event worker reads it: the dispatch that
 * claims a batch of undispatched events and fans them out to deliveries (`event_delivery`), with
 * the created notifications' e-mail and push deliveries, and the live hub's read of events by id.
 */

/** An outbox event the dispatch took. */
export interface DispatchedRow {
  tenant_id: string;
  id: string;
  type: string;
}

/**
 * Claims up to `batchSize` undispatched events (oldest first, passing over those another worker
 * holds), marks them dispatched and inserts a PENDING webhook delivery for every active endpoint
 * of the event's tenant whose `events` match (or the one a test event names), in one statement.
 */
export function dispatchBatch(q: Query, batchSize: number): Promise<DispatchedRow[]> {
  return q<DispatchedRow>(
    `with batch as (
         select tenant_id, id from outbox_event where dispatched_at is null
         order by occurred_at, id limit ${batchSize} for update skip locked
       ), marked as (
         update outbox_event o set dispatched_at = now() from batch b
         where o.tenant_id = b.tenant_id and o.id = b.id
         returning o.tenant_id, o.id, o.type, o.occurred_at, o.target_endpoint_id
       ), hooks as (
         insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
           endpoint_id, event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log)
         select m.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'WEBHOOK',
           e.id, m.id, m.type, m.occurred_at, 'PENDING', 0, now(), '[]'::jsonb
         from marked m join webhook_endpoint e on e.tenant_id = m.tenant_id
         where case when m.target_endpoint_id is not null then e.id = m.target_endpoint_id
                    else e.active and (m.type = any(e.events) or '*' = any(e.events)) end
         returning 1
       )
       select m.tenant_id, m.id, m.type from marked m`,
  );
}

/** The created notifications of a dispatched batch, as the fan-out statements join them. */
const notifications = `jsonb_to_recordset(?::jsonb) as x(tenant_id uuid, id uuid)
         join outbox_event o on o.tenant_id = x.tenant_id and o.id = x.id`;

/**
 * Inserts an e-mail delivery for each of `created` (the batch's created notifications) whose
 * recipient asked for e-mail, in a category enabled and a scope not switched off.
 */
export async function insertNotificationEmails(q: Query, created: readonly DispatchedRow[]): Promise<void> {
  await q(
    `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
         event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
       select o.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'EMAIL',
         o.id, o.type, o.occurred_at, 'PENDING', 0, now(), '[]'::jsonb,
         jsonb_build_object('notificationId', o.resource_id, 'userId', s.user_id)
       from ${notifications}
       join notification_settings s on s.tenant_id = o.tenant_id and s.user_id = (o.data->>'userId')::uuid
       where s.email_notifications_enabled
         and (o.data->>'category') = any(s.enabled_categories)
         and not coalesce((o.data->>'scope') = any(s.disabled_scopes), false)`,
    [keysOf(created)],
  );
}

/**
 * Inserts a push delivery to each of the recipient's devices of `platforms`, for each of
 * `created`, unless push is off or the category or scope is not let through.
 */
export async function insertNotificationPushes(
  q: Query,
  created: readonly DispatchedRow[],
  platforms: readonly string[],
): Promise<void> {
  // No settings row yet means the defaults: push on, every category, no scope off.
  await q(
    `insert into event_delivery (tenant_id, id, created, created_by, updated, updated_by, version, channel,
           event_id, event_type, occurred_at, status, attempts, next_attempt_at, attempt_log, target)
         select o.tenant_id, gen_random_uuid(), now(), 'event-worker', now(), 'event-worker', 1, 'PUSH',
           o.id, o.type, o.occurred_at, 'PENDING', 0, now(), '[]'::jsonb,
           jsonb_build_object('notificationId', o.resource_id, 'userId', t.user_id, 'tokenId', t.id,
             'platform', t.platform)
         from ${notifications}
         join push_token t on t.tenant_id = o.tenant_id and t.user_id = (o.data->>'userId')::uuid
         left join notification_settings s on s.tenant_id = o.tenant_id and s.user_id = t.user_id
         where t.platform in (select jsonb_array_elements_text(?::jsonb))
           and coalesce(s.push_notifications_enabled, true)
           and (s.user_id is null or (o.data->>'category') = any(s.enabled_categories))
           and not coalesce((o.data->>'scope') = any(s.disabled_scopes), false)`,
    [keysOf(created), JSON.stringify(platforms)],
  );
}

const keysOf = (created: readonly DispatchedRow[]) =>
  JSON.stringify(created.map(({ tenant_id, id }) => ({ tenant_id, id })));

/** The tenant's events `ids` (those still in the outbox), in no particular order: the live hub's read. */
export function outboxEventsOf(
  orm: MikroORM,
  tenantId: string,
  ids: readonly string[],
): Promise<OutboxRecord[]> {
  return asEventWorker(orm, (q) =>
    q<OutboxRecord>(
      `select tenant_id, id, type, resource_type, resource_id, occurred_at, actor, data from outbox_event
         where tenant_id = ? and id = any(string_to_array(?, ',')::uuid[])`,
      [tenantId, ids.join(',')],
    ),
  );
}
