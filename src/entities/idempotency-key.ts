import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The stored answer of a write sent with an `Idempotency-Key` header, per tenant, caller and key
 * (src/http/idempotency.ts). Written in the same transaction as the write it answers, so a key is
 * stored exactly when the write was kept. Not part of the API: no GraphQL type.
 */
@Entity({ tableName: 'idempotency_key' })
export class IdempotencyKey {
  @PrimaryKey({ type: 'uuid' })
  tenantId!: string;

  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @PrimaryKey({ type: 'text' })
  key!: string;

  /** SHA-256 of the method, path, query and body: the same key with another request is refused. */
  @Property({ type: 'text' })
  requestHash!: string;

  @Property({ type: 'int' })
  status!: number;

  /** The headers that matter to a client (Content-Type, Location...), by lower-case name. */
  @Property({ type: 'json' })
  headers!: Record<string, string>;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'timestamptz' })
  created!: Date;

  /** After this the key is forgotten (the job runner deletes it) and may be used again. */
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
