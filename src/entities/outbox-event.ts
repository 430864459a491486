import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantIndexes } from './columns';
import { partialIndex } from './index-repository';

/** Who caused an event: the user (null for the service's own workers) and the e-mail it wrote as. */
export interface EventActor {
  userId: string | null;
  email: string;
}

/**
 * The transactional outbox: one row per event, inserted by the flush that made the change
 * (events/outbox.ts), so a row exists exactly when its change committed. The event worker
 * reads undispatched rows and fans them out to webhook deliveries, e-mail and subscribers.
 */
@Entity({ tableName: 'outbox_event' })
// The undispatched events in the order the event worker fans them out.
@Index(
  partialIndex(
    'outbox_event',
    'outbox_event_undispatched_idx',
    ['occurred_at', 'id'],
    '"dispatched_at" is null',
  ),
)
@TenantIndexes('outbox_event', 'targetEndpointId')
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** `<resource>.<created|updated|status_changed|deleted>`, or `webhook.test`. */
  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'text' })
  resourceType!: string;

  @Property({ type: 'text', nullable: true })
  resourceId?: string | null;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ type: 'json', nullable: true })
  actor?: EventActor | null;

  /** The record as the REST API shows it (after the change; before it, for a deletion). */
  @Property({ type: 'json', nullable: true })
  data?: unknown;

  /** Set for an endpoint's test event: delivered to that endpoint only. */
  @Property({ type: 'uuid', nullable: true })
  targetEndpointId?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  dispatchedAt?: Date | null;
}
