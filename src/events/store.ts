import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import type { Rows } from '../db/statements';

/** Runs one statement with `?` placeholders in the worker's transaction. */
export type Query = <R = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<R[]>;

/**
 * Runs `work` in a transaction of the event worker: as the connection's own database user, with
 * `app.worker = 'events'` so the worker's row-level security policies let it see the outbox and
 * deliveries of every tenant (the application role never can); with `tenantId`, that tenant's
 * other records too (notifications and their recipients, for e-mail). Transactions stay short: no
 * network call to a receiver is made inside one.
 */
export async function asEventWorker<T>(
  orm: MikroORM,
  work: (q: Query) => Promise<T>,
  tenantId?: string,
): Promise<T> {
  const knex = (orm.em.getConnection() as AbstractSqlConnection).getKnex() as Knex;
  return knex.transaction(async (trx) => {
    const q: Query = async <R>(sql: string, params: readonly unknown[] = []) =>
      ((await trx.raw(sql, params as Knex.RawBinding[])) as { rows: Rows }).rows as R[];
    await q(`select set_config('app.worker', 'events', true), set_config('app.tenant_id', ?, true)`, [
      tenantId ?? '',
    ]);
    return work(q);
  });
}
