import type { EntityManager } from '@mikro-orm/core';
import { actorOf } from '../../db/tenancy';
import { ChangeSubscriber, type Changes } from '../../db/record-changes';
import { Audited } from '../../entities/tenant-scoped';
import { Notification, NotificationCategory, NotificationType } from './entities/notification';
import { NOTIFICATION_PRODUCERS, type NotificationMessage, type RecordState } from './producers';
import { feedSettingsOf } from './recipient-repository';
import { forgetSentAhead, Recipients } from './recipients';
import { NOTIFICATION_SCOPES } from './scopes';

const CATEGORY = new Map(NOTIFICATION_SCOPES.map((s) => [s.scope, s.category]));
const PRODUCED = new Set(NOTIFICATION_PRODUCERS.map((p) => p.entity));

/** What one notification to several users is: its scope, kind, text and the record it is about. */
export interface Notice extends NotificationMessage {
  scope: string;
  type?: NotificationType;
  resourceType?: string;
  resourceId?: string;
}

/**
 * Notification entities for `notice` to each of `userIds` of the tenant, each marked delivered
 * as the recipient's settings decide (a category off, the scope switched off, in-app off: stored,
 * never shown), the way a notification posted by hand is (delivery.ts). They are created in `em`;
 * the caller flushes them, or adds them to the flush under way.
 */
export async function notificationsFor(
  em: EntityManager,
  tenantId: string,
  userIds: readonly string[],
  notice: Notice,
  sender: string,
): Promise<Notification[]> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return [];
  const rows = await feedSettingsOf(em, tenantId, unique);
  const settings = new Map(rows.map((r) => [r.user_id, r]));
  const category = CATEGORY.get(notice.scope) ?? NotificationCategory.SYSTEM;
  return unique.map((userId) => {
    const s = settings.get(userId);
    return em.create(Notification, {
      tenantId,
      userId,
      title: notice.title,
      body: notice.body ?? null,
      actionUrl: notice.actionUrl ?? null,
      sender,
      category,
      notificationType: notice.type ?? NotificationType.INFO,
      scope: notice.scope,
      metadata: notice.resourceId
        ? { resourceType: notice.resourceType, resourceId: notice.resourceId }
        : null,
      // No settings row yet means the defaults: in-app on, every category, no scope off.
      delivered:
        !s ||
        (s.in_app_notifications_enabled &&
          s.enabled_categories.includes(category) &&
          !s.disabled_scopes.includes(notice.scope)),
    } as never);
  });
}

/**
 * The record before an update: the fields the update changes as they were loaded, every other
 * field as it is (the same value, so a field the update leaves alone never looks changed,
 * whatever form the loaded copy keeps it in).
 */
function beforeOf(
  payload: object,
  original: object | undefined,
  after: RecordState,
): RecordState | undefined {
  if (!original) return undefined;
  const before: RecordState = { ...after };
  for (const key of Object.keys(payload)) before[key] = (original as RecordState)[key];
  return before;
}

/**
 * Produces the catalog's notifications from the changes of each flush (producers.ts), in that
 * flush: the notifications are inserted with the change that made them, in its transaction, so
 * each change produces its notifications exactly once, and a change rolled back produces none.
 * Their `notification.created` events are written by the outbox with the change's own, and the
 * event worker takes e-mail and push from there as for any notification.
 *
 * Registered before the tenancy subscriber, which stamps the notifications' tenant and audit
 * fields and records their history; the recipients are read by statements in the flush's
 * transaction (the unit of work is busy with the flush).
 */
export class NotificationProducerSubscriber extends ChangeSubscriber {
  /**
   * Judges every change of the flush at once; only when some change produces does it read
   * recipients (statements in the flush's transaction), so most flushes await nothing here.
   */
  onChanges(changes: Changes): Promise<void> | void {
    const actor = actorOf(changes.em);
    const due: {
      entity: Audited;
      name: string;
      producer: (typeof NOTIFICATION_PRODUCERS)[number];
      after: RecordState;
      before?: RecordState;
      tenantId: string;
    }[] = [];
    for (const cs of changes.changes) {
      if (!PRODUCED.has(cs.name) || (cs.type !== 'create' && cs.type !== 'update')) continue;
      const entity = cs.entity as unknown;
      if (!(entity instanceof Audited)) continue;
      const after = entity as unknown as RecordState;
      const before = cs.type === 'update' ? beforeOf(cs.payload, cs.originalEntity, after) : undefined;
      if (cs.type === 'update' && !before) continue;
      const tenantId = entity.tenantId ?? actor?.tenantId;
      if (!tenantId) continue;
      for (const producer of NOTIFICATION_PRODUCERS)
        if (producer.entity === cs.name && producer.happened(before, after))
          due.push({ entity, name: cs.name, producer, after, before, tenantId });
    }
    if (due.length === 0) {
      forgetSentAhead(changes.em);
      return;
    }
    return this.produce(changes, actor, due).finally(() => forgetSentAhead(changes.em));
  }

  private async produce(
    { em, uow }: Changes,
    actor: ReturnType<typeof actorOf>,
    due: {
      entity: Audited;
      name: string;
      producer: (typeof NOTIFICATION_PRODUCERS)[number];
      after: RecordState;
      before?: RecordState;
      tenantId: string;
    }[],
  ): Promise<void> {
    const made: Notification[] = [];
    for (const { entity, name, producer, after, before, tenantId } of due) {
      let userIds = await producer.recipients(new Recipients(em, tenantId), after, before);
      if (!producer.notifyActor && actor) userIds = userIds.filter((id) => id !== actor.userId);
      const notice: Notice = {
        ...producer.message(after),
        scope: producer.scope,
        type: producer.type,
        resourceType: name,
        resourceId: entity.id,
      };
      const sender = actor?.email ?? 'service';
      made.push(...(await notificationsFor(em, tenantId, userIds, notice, sender)));
    }
    // Into this flush, as insertWithFlush adds the history's rows: the subscribers after this
    // one see them as any other insert. A lone create's go with the commit's flush.
    for (const n of made) {
      if (uow) uow.computeChangeSet(n);
      else em.persist(n);
    }
  }
}
