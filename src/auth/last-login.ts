import type { EntityManager } from '@mikro-orm/core';
import { withTenant } from '../db/tenant-transaction';
import { recordLogin } from './user-repository';

/**
 * A user's `lastLogin`: the time of a sign-in (a request authenticated as the user), written at
 * most once a minute per user and outside the request's transaction, so signing in costs the
 * request no write and no wait. Each process remembers when it last wrote for a user; the
 * statement itself skips a write within the minute, so several processes write once between
 * them. The column is left out of the caller's version (Migration20261130010000_notify), so the
 * write drops no remembered caller.
 */
export const LAST_LOGIN_EVERY_MS = 60_000;
const lastWritten = new Map<string, number>();

export function signedIn(
  rootEm: EntityManager,
  tenantId: string,
  userId: string,
  onError: (err: unknown) => void,
  now = Date.now(),
): Promise<void> | undefined {
  if (now - (lastWritten.get(userId) ?? 0) < LAST_LOGIN_EVERY_MS) return undefined;
  if (lastWritten.size >= 100_000) lastWritten.clear();
  lastWritten.set(userId, now);
  const at = new Date(now);
  return withTenant(rootEm, { tenantId, userId, email: 'system' }, (em) =>
    recordLogin(em, tenantId, userId, at),
  ).then(() => undefined, onError);
}
