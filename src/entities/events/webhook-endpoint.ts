import { Entity, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { TenantScoped } from '../tenant-scoped';

/**
 * A tenant's webhook receiver. Its signing secret is never shown after creation (or rotation);
 * during a rotation's grace period deliveries carry a signature with the previous secret too.
 */
@Entity({ tableName: 'webhook_endpoint' })
@ObjectType({ description: "A receiver of the tenant's events (Standard Webhooks)." })
export class WebhookEndpoint extends TenantScoped {
  @Property({ type: 'text' })
  @Field(() => String, { description: 'An https URL on a public address.' })
  url!: string;

  @Property({ type: 'text[]' })
  @Field(() => [String], { description: 'Event names delivered, or `*` for every event.' })
  events: string[] = ['*'];

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'What the endpoint is for.' })
  description?: string | null;

  @Property({ type: 'boolean' })
  @Field(() => Boolean, { description: 'Inactive endpoints receive nothing.' })
  active: boolean = true;

  @Property({ type: 'text' })
  secret!: string;

  @Property({ type: 'text', nullable: true })
  previousSecret?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Until when deliveries are also signed with the secret before the last rotation.',
  })
  previousSecretExpires?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Since when every delivery to this endpoint has failed (null while it succeeds).',
  })
  failingSince?: Date | null;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Why the service turned the endpoint off.' })
  disabledReason?: string | null;
}
