import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { escapeLiteral, Pool } from 'pg';
import type { Rows } from '../db/rows';

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

/** A value written into a statement as a literal: text (uuids, JSON) or a number. */
export type Literal = string | number | boolean | null;

function literal(value: Literal): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return escapeLiteral(value);
}

/**
 * Runs one statement as the event worker in a single round trip: the transaction, its settings,
 * the statement and the commit go to the server as one simple query (the values escaped into it
 * as literals), where asEventWorker takes four. The worker's hot statements (claiming, renewing,
 * recording) run so, many times a second, and so do reads within one tenant (`tenantId`: that
 * tenant's records, as asEventWorker gives). A failure rolls the transaction back.
 *
 * Their commits do not wait for the WAL flush (`synchronous_commit` off, for this transaction
 * only): a busy endpoint's window moves on a claim and a record, so a flush each would bound its
 * pace. What a database crash can lose is the last fraction of a second of this bookkeeping, never
 * a change or its event: a lost claim frees the delivery (as an expired lease does), a lost record
 * sends the event again, which at-least-once delivery allows (docs/events.md).
 */
export async function inOneTrip<R = Record<string, unknown>>(
  orm: MikroORM,
  sql: string,
  params: readonly Literal[] = [],
  tenantId = '',
): Promise<R[]> {
  const [rows] = await inOneTripEach(orm, [{ sql, params }], tenantId);
  return rows as R[];
}

/** One statement of inOneTripEach, its `?` placeholders filled from `params` in order. */
export interface TripStatement {
  sql: string;
  params?: readonly Literal[];
}

/**
 * inOneTrip for several statements in one transaction, run in order (each sees what those before
 * it changed), in one round trip; returns each one's rows.
 */
export async function inOneTripEach(
  orm: MikroORM,
  statements: readonly TripStatement[],
  tenantId = '',
): Promise<unknown[][]> {
  const filled = statements.map(({ sql, params = [] }) => {
    const pieces = sql.split('?');
    if (pieces.length !== params.length + 1) throw new Error('inOneTrip: one value per ? placeholder');
    return pieces.reduce((text, piece, i) => text + literal(params[i - 1]) + piece);
  });
  const own = ownPools.get(orm);
  const client: {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(c: PgConnection): Promise<void>;
  } = own
    ? {
        acquireConnection: async () => (await own.connect()) as unknown as PgConnection,
        releaseConnection: async (connection) => (connection as unknown as { release(): void }).release(),
      }
    : ((orm.em.getConnection() as AbstractSqlConnection).getKnex().client as {
        acquireConnection(): Promise<PgConnection>;
        releaseConnection(connection: PgConnection): Promise<void>;
      });
  const connection = await client.acquireConnection();
  try {
    const results = await connection.query(
      `begin; select set_config('app.worker', 'events', true), set_config('app.tenant_id', ${literal(tenantId)}, true),
         set_config('synchronous_commit', 'off', true);
       ${filled.join(';\n')};
       commit;`,
    );
    return filled.map((_, i) => results[2 + i].rows);
  } catch (err) {
    await connection.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.releaseConnection(connection);
  }
}

const ownPools = new WeakMap<MikroORM, Pool>();

/**
 * Gives the worker's one-trip statements (inOneTrip: claiming, renewing, recording) `size`
 * connections of their own to the database `orm` opens, apart from its pool: under a full
 * request load every connection of that pool is in a request's transaction, and a claim or a
 * record queued behind them holds up every endpoint's window. Returns what closes them. Not on
 * the embedded database, which serves one connection at a time anyway.
 */
export function ownConnections(orm: MikroORM, size: number): () => Promise<void> {
  const pool = new Pool({
    connectionString: orm.config.get('clientUrl'),
    max: size,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    statement_timeout: 30_000,
  });
  // An idle connection the server dropped: the next statement takes a new one.
  pool.on('error', () => undefined);
  ownPools.set(orm, pool);
  return async () => {
    if (ownPools.get(orm) === pool) ownPools.delete(orm);
    await pool.end();
  };
}

interface PgConnection {
  query(text: string): Promise<{ rows: unknown[] }[]>;
}
