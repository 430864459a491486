import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A tenant's caller version (src/auth/caller-cache.ts): bumped by triggers on the tables
 * authentication reads, in the changing transaction, never by the service. Read-only here: a
 * flush leaves it out, and its row-level policy lets the application role read only its own
 * tenant's row. Requests read it with their transaction's settings (src/db/tenant-transaction.ts).
 * Keyed by the tenant's id, as the tenant's own row is, so the tenant filter does not apply
 * (src/db/orm.ts).
 */
@Entity({ tableName: 'caller_version', readonly: true })
export class CallerVersion {
  /** The tenant's id. */
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'bigint', runtimeType: 'number' })
  version!: number;
}
