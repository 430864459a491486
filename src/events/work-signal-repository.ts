import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

/** Sends a NOTIFY of `payload` on `channel` when `em`'s transaction commits (none if it rolls back). */
export async function notifyOnCommit(em: EntityManager, channel: string, payload: string): Promise<void> {
  await queryRows(em, `select pg_notify($1, $2)`, [channel, payload]);
}
