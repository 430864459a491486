import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

/**
 * `app_user`'s `last_login`, written by one update outside the request's transaction
 * (last-login.ts says when): the statement skips a write within the minute of the last one,
 * whichever process made it, which a read and a flush of the user could not do in one round trip.
 */
export async function recordLogin(
  em: EntityManager,
  tenantId: string,
  userId: string,
  at: Date,
): Promise<void> {
  await queryRows(
    em,
    `update app_user set last_login = $1 where tenant_id = $2 and id = $3
         and (last_login is null or last_login <= $1::timestamptz - interval '1 minute')`,
    [at, tenantId, userId],
  );
}
