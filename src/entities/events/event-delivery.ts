import { Entity, Enum, Index, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { TenantScoped } from '../tenant-scoped';

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
}
registerEnumType(DeliveryChannel, {
  name: 'DeliveryChannel',
  description: 'How an event leaves the service.',
  valuesConfig: {
    WEBHOOK: { description: 'Posted to a webhook endpoint.' },
    EMAIL: { description: "Mailed to a notification's recipient." },
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

/**
 * One event to hand to one receiver: a webhook endpoint, or a notification's recipient by
 * e-mail. The event worker claims due rows (FOR UPDATE SKIP LOCKED), tries them and records
 * every attempt; a webhook endpoint receives its deliveries one at a time in event order.
 */
@Entity({ tableName: 'event_delivery' })
@Index({ name: 'event_delivery_due_idx', properties: ['status', 'nextAttemptAt'] })
@Index({ name: 'event_delivery_endpoint_idx', properties: ['tenantId', 'endpointId', 'occurredAt'] })
@Index({ name: 'event_delivery_tenant_event_id_idx', properties: ['tenantId', 'eventId'] })
@ObjectType({ description: 'The delivery of one event to one receiver, with its attempts.' })
export class EventDelivery extends TenantScoped {
  @Enum({ items: () => DeliveryChannel })
  @Field(() => DeliveryChannel, { description: 'How the event is delivered.' })
  channel: DeliveryChannel = DeliveryChannel.WEBHOOK;

  @Property({ type: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true, description: 'Id of the webhook endpoint (webhook deliveries).' })
  endpointId?: string | null;

  @Property({ type: 'uuid' })
  @Field(() => ID, { description: 'The event (also the `webhook-id` header).' })
  eventId!: string;

  @Property({ type: 'text' })
  @Field(() => String, { description: 'Type of the event, for example `lead.created`.' })
  eventType!: string;

  @Property({ type: 'timestamptz' })
  @Field(() => DateTimeISOResolver, {
    description: 'When the event happened; an endpoint receives its deliveries in this order.',
  })
  occurredAt!: Date;

  @Enum({ items: () => DeliveryStatus })
  @Field(() => DeliveryStatus, { description: 'Where the delivery stands.' })
  status: DeliveryStatus = DeliveryStatus.PENDING;

  @Property({ type: 'integer' })
  @Field(() => Int, { description: 'How many times delivery was tried.' })
  attempts: number = 0;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next attempt is due.' })
  nextAttemptAt?: Date | null;

  /** While an attempt is under way: a worker that dies leaves this to expire, and another retries. */
  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  @Property({ type: 'integer', nullable: true })
  @Field(() => Int, { nullable: true, description: 'HTTP status of the last attempt.' })
  lastStatusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed.' })
  lastError?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the receiver accepted it.' })
  deliveredAt?: Date | null;

  @Property({ type: 'json' })
  @Field(() => [DeliveryAttempt], { description: 'Every attempt, oldest first.' })
  attemptLog: DeliveryAttempt[] = [];

  /** E-mail deliveries: the notification's recipient. */
  @Property({ type: 'json', nullable: true })
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: "E-mail deliveries: the notification's recipient.",
  })
  target?: Record<string, unknown> | null;
}
