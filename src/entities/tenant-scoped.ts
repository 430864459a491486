import { randomUUID } from 'node:crypto';
import { PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../graphql/date-time';
import { Event } from './event';

/**
 * Every record of the product belongs to one tenant. Tables are keyed (tenant_id, id) so that
 * every index and every primary-key lookup starts with the tenant, which is what row-level
 * security and distribution by tenant need. The tenant filter (see db/tenancy.ts) adds
 * `tenant_id = caller's tenant` to every read, update and delete; inserts take the tenant from
 * the caller, never from a request body.
 */
@ObjectType()
export abstract class TenantScoped {
  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID)
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID)
  id: string = randomUUID();

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  created?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  createdBy?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  updated?: Date;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  updatedBy?: string;

  /** Optimistic lock: a write based on a stale read fails with 409 instead of losing an update. */
  @Property({ version: true, type: 'integer' })
  @Field(() => Int, { description: 'Row version, for optimistic concurrency (GraphQL only).' })
  @Extensions({ rest: false })
  version: number = 1;
}

/** A tenant record with a history (`events`). */
@ObjectType()
export abstract class Audited extends TenantScoped {
  @Property({ type: 'json' })
  @Field(() => [Event])
  events: Event[] = [];
}
