import type { EntityManager } from '@mikro-orm/core';
import { affectedRows } from '../db/worker-transaction';

/**
 * The clean-up's statement on `idempotency_key` (src/entities/idempotency-key.ts): one delete of
 * every tenant's expired keys, in the `idempotency-cleanup` worker's transaction, whose policy
 * admits every tenant's rows. The request path's statements are src/http/idempotency-key-repository.ts.
 */
export function deleteExpired(em: EntityManager): Promise<number> {
  return affectedRows(em, 'delete from idempotency_key where expires_at <= now()');
}
