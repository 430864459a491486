import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Where an endpoint's undelivered webhook deliveries begin (Migration20261127110000_webhook_backlog
 * says how it is kept): a row per endpoint that has had deliveries, `pendingFrom` at or below the
 * occurrence of each of its PENDING deliveries ('infinity': none). Its rows follow from the
 * deliveries: a trigger on their inserts writes them and the webhook claim moves them on
 * (events/delivery-repository.ts), so the entity only reads them.
 */
@Entity({ tableName: 'webhook_backlog', readonly: true })
export class WebhookBacklog {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  endpointId!: string;

  @Property({ type: 'timestamptz' })
  pendingFrom!: Date;

  /** Inserts of deliveries counted since the row was made: the claim moves the row only if none came. */
  @Property({ type: 'bigint', runtimeType: 'number', default: 0 })
  changes!: number;
}
