import { Entity, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { TenantScoped } from '../../../entities/tenant-scoped';
import { BooleanColumn, DateTimeColumn, TextColumn, TextListColumn } from '../../../entities/columns';

/**
 * A tenant's webhook receiver. Its signing secret is never shown after creation (or rotation);
 * during a rotation's grace period deliveries carry a signature with the previous secret too.
 */
@Entity({ tableName: 'webhook_endpoint' })
@ObjectType({ description: "A receiver of the tenant's events (Standard Webhooks)." })
export class WebhookEndpoint extends TenantScoped {
  @TextColumn({ nullable: false, description: 'An https URL on a public address.' })
  url!: string;

  @TextListColumn({ description: 'Event names delivered, or `*` for every event.' })
  events: string[] = ['*'];

  @TextColumn({ description: 'What the endpoint is for.' })
  description?: string | null;

  @BooleanColumn({ nullable: false, description: 'Inactive endpoints receive nothing.' })
  active: boolean = true;

  @Property({ type: 'text' })
  secret!: string;

  @Property({ type: 'text', nullable: true })
  previousSecret?: string | null;

  @DateTimeColumn({
    description: 'Until when deliveries are also signed with the secret before the last rotation.',
  })
  previousSecretExpires?: Date | null;

  @DateTimeColumn({
    description: 'Since when every delivery to this endpoint has failed (null while it succeeds).',
  })
  failingSince?: Date | null;

  @TextColumn({ description: 'Why the service turned the endpoint off.' })
  disabledReason?: string | null;

  /** Failed attempts since the last success: past the circuit breaker's threshold the circuit opens. */
  @Property({ type: 'int', default: 0 })
  consecutiveFailures: number = 0;

  /** While the circuit is open nothing is sent to the endpoint; then one attempt probes it. */
  @Property({ type: 'timestamptz', nullable: true })
  circuitOpenUntil?: Date | null;

  /** Until when it counts as slow: its lag is its own, not the service's (events/lag-bound.ts). */
  @Property({ type: 'timestamptz', nullable: true })
  slowUntil?: Date | null;
}
