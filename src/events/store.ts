import { createHash, randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { escapeLiteral } from 'pg';
import type { EntityManager } from '@mikro-orm/core';
import type { Rows } from '../db/rows';
import { queryRows } from '../db/orm-bypass/statements';
import { sessionPool, sessionsFor, type SessionPool } from '../db/sessions';
import { tripText, WORKER_SETTINGS } from './worker-session-repository';

/** Runs one statement with `?` placeholders in the worker's transaction. */
export type Query = <R = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<R[]>;

/**
 * The same in a request's own transaction (as the application role, bound to the caller's
 * tenant), for what a request reads or queues of the event worker's tables: a transaction of its
 * own would wait for the embedded database's one connection, which the request holds.
 */
export const requestQuery =
  (em: EntityManager): Query =>
  async <R>(sql: string, params: readonly unknown[] = []) => {
    let n = 0;
    return (await queryRows(
      em,
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    )) as R[];
  };

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
    await q(WORKER_SETTINGS, [tenantId ?? '']);
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
 * On the worker's own connections (ownConnections) each statement is a prepared statement of
 * its connection (prepared in the first trip that runs it there, then EXECUTEd with its values):
 * a claim's plan took longer to make than to run, and its connection keeps it instead
 * (bench/README.md, "Events: claiming and draining"; PostgreSQL plans a prepared statement anew
 * for each execution until a generic plan proves no dearer). So a statement's text must be one of
 * a bounded set (values go in its `?` parameters), or each connection would keep a plan of every
 * text it ever ran. On the process's pool (the embedded database, or no connections of its own)
 * the values are written into the statement as literals and it is planned each time: those
 * connections are shared, and whatever else uses them may drop prepared statements.
 *
 * Their commits do not wait for the WAL flush (`synchronous_commit` off, for this transaction
 * only): a busy endpoint's window moves on a claim and a record, so a flush each would bound its
 * pace. What a database crash can lose is the last fraction of a second of this bookkeeping, never
 * a change or its event: a lost claim frees the delivery (as an expired lease does), a lost record
 * sends the event again, which at-least-once delivery allows (docs/events.md). On a server with a
 * synchronous standby (`synchronous_standby_names` set) they commit as every other transaction
 * does instead, waiting for the standby: a failover to it is a planned event, after which the
 * standby must know of every delivery already made, or it would make them again.
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
  /**
   * Planned at every execution, never by a plan its connection keeps: for statements that reach
   * their rows by primary key from a list of values. A generic plan is made once, at the sixth
   * execution, with the table as it is then; made while `event_delivery` was small (a new
   * database, a worker started before a burst of events), a record's kept plan scanned the whole
   * table at every record for the connection's life, long after the table had grown.
   */
  planEachTime?: boolean;
}

/**
 * The prepared statements each of the worker's own connections holds, by name, and since when
 * (inOneTripEach), with the prefix of the names it gives them.
 */
const preparedOn = new WeakMap<object, { names: Set<string>; since: number; prefix: string }>();

/**
 * A name carries this module's instance and its connection, and a connection only ever drops its
 * own names: a host that serves several connections from one session (the embedded database's,
 * reached by URL from two service processes) would otherwise have one process's PREPARE refused
 * as already existing and its recovery drop the other's statements under it.
 */
const INSTANCE = randomBytes(4).toString('hex');
let connections = 0;

/**
 * How long a connection keeps its prepared statements before it makes them, and their plans,
 * afresh. A kept plan is the one PostgreSQL judged best with the tables as they were then; a
 * worker started on a nearly empty `event_delivery` that then fills (a new database, a burst of
 * events) kept plans fit for a few rows, and delivered a tenth as fast a minute later.
 */
const REPLAN_MS = 10_000;

/**
 * A statement as a prepared one: its name (`prefix` and its text's), its PREPARE and its EXECUTE.
 */
export function preparedForm({ sql, params = [], planEachTime = false }: TripStatement, prefix = 'bms_trip') {
  const pieces = placeholders(sql, params);
  const name = `${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
  return {
    name,
    prepare: `prepare ${name} as ${pieces.reduce((text, piece, i) => `${text}$${i}${piece}`)}`,
    execute: params.length ? `execute ${name}(${params.map(literal).join(', ')})` : `execute ${name}`,
    planEachTime,
  };
}

/** A statement with its values written in as literals. */
function literalForm({ sql, params = [] }: TripStatement) {
  const pieces = placeholders(sql, params);
  return { execute: pieces.reduce((text, piece, i) => text + literal(params[i - 1]) + piece) };
}

function placeholders(sql: string, params: readonly Literal[]): string[] {
  const pieces = sql.split('?');
  if (pieces.length !== params.length + 1) throw new Error('inOneTrip: one value per ? placeholder');
  return pieces;
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
  const own = ownPools.get(orm);
  if (!own) return runTrip(knexConnections(orm), statements.map(literalForm), tenantId);
  const client = await own.acquire();
  const connection = client as unknown as PgConnection;
  try {
    let known = preparedOn.get(connection);
    if (!known) {
      known = { names: new Set(), since: Date.now(), prefix: `bms_trip_${INSTANCE}_${++connections}` };
      preparedOn.set(connection, known);
    }
    const stale = known.names.size > 0 && Date.now() - known.since > REPLAN_MS;
    const dropped = stale ? [...known.names] : [];
    if (stale) Object.assign(known, { names: new Set(), since: Date.now() });
    const names = known.names;
    const forms = statements.map((s) => preparedForm(s, known.prefix));
    // A trip's own statements, prepared once even when it runs one twice.
    const missing = [
      ...dropped.map((name) => `deallocate ${name}`),
      ...new Map(forms.filter((f) => !names.has(f.name)).map((f) => [f.name, f.prepare])).values(),
    ];
    try {
      const rows = await runTrip({ connection }, forms, tenantId, missing);
      for (const f of forms) names.add(f.name);
      return rows;
    } catch (err) {
      // Which of the trip's statements got prepared before the failure is unknown: start afresh,
      // dropping each of this connection's names on its own (one that does not exist fails alone).
      for (const name of new Set([...dropped, ...names, ...forms.map((f) => f.name)]))
        await connection.query(`deallocate ${name}`).catch(() => undefined);
      names.clear();
      throw err;
    }
  } finally {
    own.release(client);
  }
}

/** The process's pool (knex's), for a worker without connections of its own. */
function knexConnections(orm: MikroORM) {
  return (orm.em.getConnection() as AbstractSqlConnection).getKnex().client as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(connection: PgConnection): Promise<void>;
  };
}

/**
 * One trip on a connection (`connection`, or one taken from `pool` for it): `before` (outside
 * the transaction's statements: PREPAREs), then the transaction with its settings and
 * `forms`' statements. A failure rolls the transaction back.
 */
async function runTrip(
  from:
    | { connection: PgConnection }
    | { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> },
  forms: readonly { execute: string; planEachTime?: boolean }[],
  tenantId: string,
  before: readonly string[] = [],
): Promise<unknown[][]> {
  const connection = 'connection' in from ? from.connection : await from.acquireConnection();
  try {
    // Each form's statements, the index of its own result among them last.
    const steps = forms.map((f) =>
      f.planEachTime
        ? [`set local plan_cache_mode = force_custom_plan`, f.execute, `set local plan_cache_mode to default`]
        : [f.execute],
    );
    const results = await connection.query(tripText(before, literal(tenantId), steps.flat()));
    let at = before.length + 2;
    return steps.map((step) => {
      const own = results[at + (step.length === 1 ? 0 : 1)].rows;
      at += step.length;
      return own;
    });
  } catch (err) {
    await connection.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    if (!('connection' in from)) await from.releaseConnection(connection);
  }
}

const ownPools = new WeakMap<MikroORM, SessionPool>();

/**
 * Gives the worker's one-trip statements (inOneTrip: claiming, renewing, recording) `size`
 * connections of their own to the database `orm` opens, apart from its pool: under a full
 * request load every connection of that pool is in a request's transaction, and a claim or a
 * record queued behind them holds up every endpoint's window. Returns what closes them. Not on
 * the embedded database, which serves one connection at a time anyway.
 */
export function ownConnections(orm: MikroORM, size: number): () => Promise<void> {
  // Sessions of the same hosts as the request pool's (sessions.ts): a session the server ends,
  // idle or in a trip, fails that trip only and is replaced at the next.
  const pool = sessionPool(sessionsFor(orm.config.get('clientUrl')!), {
    max: size,
    idleTimeoutMillis: 30_000,
    acquireTimeoutMillis: 5_000,
    config: { connectionTimeoutMillis: 5_000, statement_timeout: 30_000 },
  });
  ownPools.set(orm, pool);
  return async () => {
    if (ownPools.get(orm) === pool) ownPools.delete(orm);
    await pool.end();
  };
}

interface PgConnection {
  query(text: string): Promise<{ rows: unknown[] }[]>;
}
