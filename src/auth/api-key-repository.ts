import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

/**
 * `api_key`'s `last_used_at`, written by one update outside the request's transaction
 * (api-keys.ts says when): no read of the key, and no flush that would record it as an edit.
 */
export async function recordKeyUse(em: EntityManager, keyId: string, at: Date): Promise<void> {
  await queryRows(em, 'update api_key set last_used_at = $1 where id = $2', [at, keyId]);
}
