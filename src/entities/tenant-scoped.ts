import { randomUUID } from 'node:crypto';
import { PrimaryKey, Property } from '@mikro-orm/core';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { AUDIT_DOCS } from '../schema/descriptions';
import { Event } from './event';
import { DateTimeColumn, TextColumn } from './columns';

/** Properties whose change is bookkeeping, not an edit a user made. */
export const BOOKKEEPING: ReadonlySet<string> = new Set([
  'tenantId',
  'id',
  'updated',
  'updatedBy',
  'version',
  'events',
  'created',
  'createdBy',
]);

/**
 * The audit columns' declarations: TenantScoped's, and the tenant's, which cannot inherit them
 * (src/entities/tenant.ts says why).
 */
export const AuditColumn = {
  created: () => DateTimeColumn({ description: AUDIT_DOCS.created }),
  createdBy: () => TextColumn({ description: AUDIT_DOCS.createdBy }),
  updated: () => DateTimeColumn({ description: AUDIT_DOCS.updated }),
  updatedBy: () => TextColumn({ description: AUDIT_DOCS.updatedBy }),
};

/**
 * Every record of the product belongs to one tenant. Tables are keyed (tenant_id, id) so that
 * every index and every primary-key lookup starts with the tenant, which is what row-level
 * security and distribution by tenant need. The tenant filter (see db/tenancy.ts) adds
 * `tenant_id = caller's tenant` to every read, update and delete; inserts take the tenant from
 * the caller, never from a request body.
 */
@ObjectType({ description: 'The fields every record of a tenant carries.' })
export abstract class TenantScoped {
  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID, { description: AUDIT_DOCS.tenantId })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  @Field(() => ID, { description: AUDIT_DOCS.id })
  id: string = randomUUID();

  @AuditColumn.created() created?: Date | null;
  @AuditColumn.createdBy() createdBy?: string | null;
  @AuditColumn.updated() updated?: Date | null;
  @AuditColumn.updatedBy() updatedBy?: string | null;

  /** Optimistic lock: a write based on a stale read fails with 409 instead of losing an update. */
  @Property({ version: true, type: 'integer' })
  @Field(() => Int, { description: 'Row version, for optimistic concurrency (GraphQL only).' })
  @Extensions({ rest: false })
  version: number = 1;
}

/**
 * A tenant record with a history (`events`). The history is kept in its own table
 * (entities/history-entry.ts), not in the record's row: `events` is read with the record (its
 * latest entries, family/record-events.ts) or loaded by its field resolver.
 */
@ObjectType({ description: 'The fields every record with a history carries.' })
export abstract class Audited extends TenantScoped {
  @Property({ persist: false })
  @Field(() => [Event], { description: AUDIT_DOCS.events })
  events?: Event[];
}
