import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from './orm-bypass/statements';
import { affectedRows } from './worker-transaction';

/**
 * The statements on `idempotency_key` (src/entities/idempotency-key.ts). The request path's, in
 * the request's transaction (src/http/idempotency.ts says how a key is held and answered): the
 * advisory lock on a key, the read of its live answer and the upsert of a new one, which replaces
 * an expired row the clean-up has not reached yet; one statement each and no unit of work, as they
 * run on every write sent with a key. And the clean-up's (src/jobs/idempotency-cleanup.ts).
 */

/** Takes the transaction-level lock on the key's name; false when another transaction holds it. */
export async function tryLockKey(em: EntityManager, name: string): Promise<boolean> {
  const [{ locked }] = await queryRows<{ locked: boolean }>(
    em,
    'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked',
    [name],
  );
  return locked;
}

/** A stored answer, by its columns. */
export interface StoredAnswerRow {
  request_hash: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The caller's unexpired answer under the key, if any. */
export async function storedAnswer(
  em: EntityManager,
  tenantId: string,
  userId: string,
  key: string,
): Promise<StoredAnswerRow | undefined> {
  const [stored] = await queryRows<StoredAnswerRow>(
    em,
    `select request_hash, status, headers, body from idempotency_key
      where tenant_id = $1 and user_id = $2 and key = $3 and expires_at > now()`,
    [tenantId, userId, key],
  );
  return stored;
}

export interface AnswerToStore {
  tenantId: string;
  userId: string;
  key: string;
  requestHash: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  created: Date;
  expiresAt: Date;
}

/** Stores the answer under the key (replacing an expired one). */
export async function storeAnswer(em: EntityManager, a: AnswerToStore): Promise<void> {
  await queryRows(
    em,
    `insert into idempotency_key (tenant_id, user_id, key, request_hash, status, headers, body, created, expires_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           on conflict (tenant_id, user_id, key) do update set request_hash = excluded.request_hash,
             status = excluded.status, headers = excluded.headers, body = excluded.body,
             created = excluded.created, expires_at = excluded.expires_at`,
    [
      a.tenantId,
      a.userId,
      a.key,
      a.requestHash,
      a.status,
      JSON.stringify(a.headers),
      a.body,
      a.created,
      a.expiresAt,
    ],
  );
}

/**
 * Deletes every tenant's expired keys in one statement, in the clean-up worker's transaction,
 * whose policy admits every tenant's rows.
 */
export function deleteExpired(em: EntityManager): Promise<number> {
  return affectedRows(em, 'delete from idempotency_key where expires_at <= now()');
}
