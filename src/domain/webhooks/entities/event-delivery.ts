import { Check, Entity, Index, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { TenantScoped } from '../../../entities/tenant-scoped';
import { partialIndex } from '../../../entities/index-repository';
import {
  DateTimeColumn,
  EnumColumn,
  IntColumn,
  JsonColumn,
  TenantIndexes,
  TextColumn,
  UuidColumn,
} from '../../../entities/columns';

export enum DeliveryStatus {
  PENDING = 'PENDING',
  DELIVERED = 'DELIVERED',
  FAILED = 'FAILED',
}
registerEnumType(DeliveryStatus, {
  name: 'DeliveryStatus',
  description: 'Where a delivery stands.',
  valuesConfig: {
    PENDING: { description: 'Not delivered yet; tried again later.' },
    DELIVERED: { description: 'The receiver accepted it.' },
    FAILED: { description: 'Gave up after the retries.' },
  },
});

export enum DeliveryChannel {
  WEBHOOK = 'WEBHOOK',
  EMAIL = 'EMAIL',
  PUSH = 'PUSH',
  DIGEST = 'DIGEST',
}
registerEnumType(DeliveryChannel, {
  name: 'DeliveryChannel',
  description: 'How an event leaves the service.',
  valuesConfig: {
    WEBHOOK: { description: 'Posted to a webhook endpoint.' },
    EMAIL: { description: "Mailed to a notification's recipient." },
    PUSH: { description: "Pushed to one of a notification's recipient's devices." },
    DIGEST: { description: 'A summary of notifications mailed to a user once a period.' },
  },
});

/** One try at handing an event over. */
@ObjectType({ description: 'One attempt of a delivery.' })
export class DeliveryAttempt {
  @Field(() => DateTimeISOResolver, { description: 'When the attempt was made.' }) at!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'HTTP status the receiver answered with; null when no answer came.',
  })
  statusCode?: number | null;
  @Field(() => String, { nullable: true, description: 'Why the attempt failed.' }) error?: string | null;
  @Field(() => Int, { description: 'How long the attempt took, in milliseconds.' }) durationMs!: number;
}

/** An index over the undelivered rows of one channel (the class says why). */
const pending = (name: string, columns: string[], channel: DeliveryChannel) =>
  partialIndex('event_delivery', name, columns, `"status" = 'PENDING' and "channel" = '${channel}'`);

/**
 * One event to hand to one receiver: a webhook endpoint, or a notification's recipient by
 * e-mail. The event worker claims due rows (FOR UPDATE SKIP LOCKED), tries them and records
 * every attempt; a webhook endpoint receives its deliveries in event order, a few at a time
 * (docs/events.md). The partial indexes hold only undelivered rows, so claiming reads what it
 * claims and not the backlog behind it.
 */
@Entity({ tableName: 'event_delivery' })
@Index(
  pending(
    'event_delivery_window_idx',
    ['tenant_id', 'endpoint_id', 'occurred_at', 'id'],
    DeliveryChannel.WEBHOOK,
  ),
)
@Index(pending('event_delivery_email_due_idx', ['next_attempt_at'], DeliveryChannel.EMAIL))
@Index(pending('event_delivery_email_age_idx', ['occurred_at'], DeliveryChannel.EMAIL))
@Index(pending('event_delivery_push_due_idx', ['next_attempt_at'], DeliveryChannel.PUSH))
@Index(pending('event_delivery_push_age_idx', ['occurred_at'], DeliveryChannel.PUSH))
@Index(pending('event_delivery_digest_due_idx', ['next_attempt_at'], DeliveryChannel.DIGEST))
@Index(pending('event_delivery_digest_age_idx', ['occurred_at'], DeliveryChannel.DIGEST))
@Unique({
  name: 'event_delivery_digest_uq',
  expression: `create unique index "event_delivery_digest_uq" on "event_delivery" ("tenant_id", (("target" ->> 'userId')), (("target" ->> 'to'))) where "channel" = 'DIGEST'`,
})
@Check({
  name: 'event_delivery_event_id_digest_check',
  expression: `"event_id" is not null or "channel" = 'DIGEST'`,
})
@Index({ name: 'event_delivery_endpoint_idx', properties: ['tenantId', 'endpointId', 'occurredAt'] })
@TenantIndexes('event_delivery', 'eventId')
@ObjectType({ description: 'The delivery of one event to one receiver, with its attempts.' })
export class EventDelivery extends TenantScoped {
  @EnumColumn(() => DeliveryChannel, { nullable: false, description: 'How the event is delivered.' })
  channel: DeliveryChannel = DeliveryChannel.WEBHOOK;

  @UuidColumn({ id: true, description: 'Id of the webhook endpoint (webhook deliveries).' })
  endpointId?: string | null;

  /** Null on digests only, which carry no event (a check says so). */
  @UuidColumn({
    id: true,
    description:
      'The event (also the `webhook-id` header); null only on an e-mail digest, which carries none.',
  })
  eventId?: string | null;

  @TextColumn({ nullable: false, description: 'Type of the event, for example `lead.created`.' })
  eventType!: string;

  @DateTimeColumn({
    nullable: false,
    description: 'When the event happened; an endpoint receives its deliveries in this order.',
  })
  occurredAt!: Date;

  @EnumColumn(() => DeliveryStatus, { nullable: false, description: 'Where the delivery stands.' })
  status: DeliveryStatus = DeliveryStatus.PENDING;

  @IntColumn({ nullable: false, description: 'How many times delivery was tried.' })
  attempts: number = 0;

  @DateTimeColumn({ description: 'When the next attempt is due.' })
  nextAttemptAt?: Date | null;

  /**
   * While an attempt is under way: the lease, renewed by its process as long as the attempt runs;
   * a process that dies leaves it to expire within seconds, and another takes the delivery up.
   */
  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  /** The event worker holding the lease (its own id, new at every start). */
  @Property({ type: 'uuid', nullable: true })
  lockedBy?: string | null;

  @IntColumn({ description: 'HTTP status of the last attempt.' })
  lastStatusCode?: number | null;

  @TextColumn({ description: 'Why the last attempt failed.' })
  lastError?: string | null;

  @DateTimeColumn({ description: 'When the receiver accepted it.' })
  deliveredAt?: Date | null;

  @JsonColumn(() => [DeliveryAttempt], { nullable: false, description: 'Every attempt, oldest first.' })
  attemptLog: DeliveryAttempt[] = [];

  /** E-mail and push: the notification and its recipient (push: and the device); digests: the user and period. */
  @JsonColumn(() => GraphQLJSONObject, { description: "E-mail deliveries: the notification's recipient." })
  target?: Record<string, unknown> | null;
}
