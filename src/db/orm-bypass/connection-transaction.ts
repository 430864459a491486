import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import type { QueryResult } from 'pg';
import type { Rows } from '../rows';
import { Pipeline, refusedAsReadOnly, type PipelineOutcome } from './pipeline';

/** A pooled pg connection as knex hands it out. */
interface PgConnection {
  query(text: string): Promise<{ rows: Rows } | { rows: Rows }[]>;
  query(config: unknown, values?: unknown): Promise<{ rows: Rows }>;
  query(config: unknown, callback: (err: Error | null, result?: unknown) => void): void;
  query(config: unknown, values: unknown, callback: (err: Error | null, result?: unknown) => void): void;
  /** Set by knex's pg dialect when the connection fails; the pool then discards it. */
  __knex__disposed?: unknown;
}

/** What pg takes as a query: text and values, or a config object with a name for a prepared statement. */
export interface QueryConfig {
  text: string;
  values?: readonly unknown[];
  /** A named prepared statement: parsed and planned once per connection, then only bound and run. */
  name?: string;
}

/** Statements that arrived while the connection was busy, and whoever waits for each. */
interface Batch {
  statements: QueryConfig[];
  waiting: { resolve: (result: { rows: Rows }) => void; reject: (err: unknown) => void }[];
}

/** The error a deferred write's refusal stands for (see `ConnectionTransaction.defer`). */
export type Refusal = (error: Error) => Error;

/** The statement a transaction block begins with. */
export const BEGIN: QueryConfig = { text: 'begin' };

/**
 * What a read-only transaction (`ConnectionTransaction.readOnly`) sends before each statement in
 * place of BEGIN: `first` before the first (the settings and what the begin reads), `again`
 * before the others (the settings).
 */
export interface ReadOnlyBegin {
  first: readonly QueryConfig[];
  again: readonly QueryConfig[];
  /** After BEGIN, when a read-only transaction turns into a block: the settings, writable. */
  block: readonly QueryConfig[];
}

/**
 * A transaction on one pooled connection, begun and ended with plain statements, that MikroORM
 * and knex take as their transaction context (`em.setTransactionContext`).
 *
 * Why not `em.begin()`: a knex transaction builds a whole knex instance for itself and sends
 * BEGIN and COMMIT through knex's query runner. Every request opens one, and that cost several
 * times the CPU of the same two statements sent on the connection, a large share of a find/{id}
 * (bench/README.md, "Other measured reasons"). Here BEGIN also shares its round trip with what the request
 * sends first (the tenant's settings and the user).
 *
 * What MikroORM and knex need of a transaction context, and nothing more: `client`, the pool's
 * client bound to this connection (knex's `.transacting(ctx)` runs a statement through it);
 * `commit()`, with `executionPromise` reporting how the commit went (MikroORM's
 * AbstractSqlConnection.commit awaits that, as knex's transactions have it); `rollback()`.
 * Savepoints are not offered: work inside a request joins its transaction (inTransaction).
 * Once the transaction has ended, its client refuses to run anything, so a context kept past
 * its request can never reach the connection's next user.
 *
 * One statement at a time: GraphQL resolves sibling fields in parallel (a feature's epic and its
 * task tally, say), and they all run on this one connection. pg would queue them itself, but
 * that queue is deprecated (pg 9 removes it), so every statement, whether knex's or
 * `query`'s, waits here for the one before it to finish; COMMIT and ROLLBACK wait for all.
 */
export class ConnectionTransaction {
  readonly client: Knex.Client;
  readonly executionPromise: Promise<void>;
  private settle!: (error?: unknown) => void;
  private ended = false;
  /**
   * What must hold before the transaction ends (endTenantTransaction asks): the caller a request
   * relied on is still current (openCallerTransaction).
   */
  check?: () => Promise<boolean>;
  /** What the transaction begins with, until it goes out (see `open`). */
  private pendingBegin?: readonly QueryConfig[];
  private readonly beginRows: Promise<Rows[]>;
  /** Whether the begin may go out as one pipeline with the first statement (`pipelines`). */
  private pipelined = true;
  /** What a read-only transaction sends before each statement instead of BEGIN (see `readOnly`). */
  private readOnlyBegin?: ReadOnlyBegin;
  /** Chosen by `readOnly`: no transaction block; every round trip carries its own settings. */
  private selfContained = false;
  private settleBegin!: (rows: Promise<Rows[]>) => void;
  /** Settles when the last statement handed to the connection has finished, however it went. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Writes that go out ahead of the next statement, or with COMMIT (see `defer`). */
  private deferred: QueryConfig[] = [];
  /** What each deferred write was done for, where its caller named it (see `defer`). */
  private deferredFor: (object | undefined)[] = [];
  /** What each deferred write's refusal means, where its caller said (see `defer`). */
  private deferredRefusals: (Refusal | undefined)[] = [];
  /**
   * The refusal of a deferred write done for someone (`defer`'s `origin`): the block is aborted,
   * and every later statement, COMMIT included, fails with it (see `defer`).
   */
  private refused?: Error;
  /** Statements to go out together, and how many in all (-1 once sent) (see `gather`). */
  private gathering?: { batch: Batch; awaited: number };
  /** Statements waiting for the connection, to go out together (see `query`). */
  private batch?: Batch;

  private constructor(
    private readonly pool: Knex.Client,
    private readonly connection: PgConnection,
  ) {
    const client = Object.create(pool) as Knex.Client & { transacting: boolean };
    client.transacting = true;
    // knex's pg dialect sends statements as `query(config, callback)`; everything else it reads
    // (processID, __knex__disposed) comes from the real connection through the prototype.
    const serial = Object.create(connection) as PgConnection;
    serial.query = ((...args: unknown[]) => {
      const callback =
        typeof args[args.length - 1] === 'function'
          ? (args.pop() as (err: Error | null, result?: unknown) => void)
          : undefined;
      const gathered = this.gathered(args);
      const sent =
        gathered ??
        this.enqueue(async () => {
          if (this.refused) throw this.refused;
          const plain = pipelinable(args);
          if (plain && (this.pendingBegin || this.selfContained || this.deferred.length))
            return this.send(plain);
          // Anything else runs as pg runs it, inside a transaction block begun first.
          if (this.selfContained) this.toBlock();
          if (this.pendingBegin || this.deferred.length) await this.sendOne();
          return (connection.query as (...a: unknown[]) => Promise<unknown>)(...args);
        });
      if (!callback) return sent;
      sent.then(
        (result) => callback(null, result),
        (err: Error) => callback(err),
      );
    }) as PgConnection['query'];
    client.acquireConnection = () =>
      this.ended
        ? Promise.reject(new Error('the transaction has ended; its connection is no longer this request’s'))
        : Promise.resolve(serial);
    client.releaseConnection = () => Promise.resolve();
    this.client = client;
    this.executionPromise = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Only MikroORM's commit awaits this; a failed rollback must not be an unhandled rejection.
    this.executionPromise.catch(() => undefined);
    this.beginRows = new Promise<Rows[]>((resolve) => (this.settleBegin = resolve));
    this.beginRows.catch(() => undefined);
  }

  /**
   * Takes a connection from the ORM's pool for a transaction that begins with `begin` (BEGIN and
   * the statements that must run before any other: the role, the tenant, what authentication
   * reads). Nothing is sent yet: `begin` goes out with the transaction's first statement, in one
   * write and one round trip (pipeline.ts), or alone when `began()` asks for its rows first.
   * A transaction that never sends a statement never reaches the database.
   */
  static async open(
    em: EntityManager,
    begin: readonly QueryConfig[],
    readOnlyBegin?: ReadOnlyBegin,
  ): Promise<ConnectionTransaction> {
    const pool = (em.getConnection() as AbstractSqlConnection).getKnex().client as Knex.Client;
    const connection = (await pool.acquireConnection()) as PgConnection;
    const transaction = new ConnectionTransaction(pool, connection);
    transaction.pendingBegin = begin;
    transaction.readOnlyBegin = readOnlyBegin;
    try {
      transaction.pipelined = await pipelines(pool, connection);
    } catch (err) {
      await transaction.rollback();
      throw err;
    }
    return transaction;
  }

  /**
   * The rows of the statements the transaction began with, sending them now if no statement has
   * taken them along yet. Rejects with the error of the first that failed.
   */
  began(): Promise<Rows[]> {
    if (this.pendingBegin && !this.ended)
      void this.enqueue(async () => {
        if (!this.pendingBegin) return undefined;
        return this.selfContained ? this.sendSelfContained() : this.sendOne();
      }).catch(() => undefined);
    return this.beginRows;
  }

  /**
   * For work that only reads (a query), before anything is sent: no transaction block at all.
   * Each round trip is one pipeline of the settings (`readOnlyBegin`, the tenant's and a
   * read-only flag) and the statement, which PostgreSQL runs in one implicit transaction that
   * the pipeline's Sync ends: the settings hold for that statement and are gone after it, as a
   * block's end would take them. There is no BEGIN and no COMMIT: a find is one round trip.
   * Statements read committed data each, as they would in a block at this isolation level.
   * Should the work write after all (a query that stores a default on first read), PostgreSQL
   * refuses the write in its read-only implicit transaction, having written nothing, and from
   * that statement on the transaction is a block as usual: BEGIN, the settings and the
   * statement again, and COMMIT at the end; everything before it only read. Only where
   * pipelines are taken (`pipelines`); elsewhere, and for anything knex sends otherwise, the
   * transaction is a block from the start.
   */
  readOnly(): void {
    if (this.pendingBegin && this.readOnlyBegin && this.pipelined && !this.ended) this.selfContained = true;
  }

  /** From here on a transaction block: BEGIN and the settings go before the next statement. */
  private toBlock(): void {
    this.selfContained = false;
    this.pendingBegin ??= [BEGIN, ...this.readOnlyBegin!.block];
  }

  /**
   * Runs one statement on the transaction's connection once every statement before it has
   * finished. Rejects once the transaction has ended.
   *
   * Statements that arrive while the connection is busy wait together and, in a transaction
   * block, go out as one pipeline when it is free: GraphQL resolves sibling fields at once (a
   * record's events and its task tally after a write, a page's derived values), and each of
   * their statements was a round trip of its own. In a block a failed statement fails the
   * block's later statements anyway, so sending them together changes no outcome. A read-only
   * transaction (`readOnly`) still sends them one by one: there each statement stands alone.
   */
  query(config: QueryConfig): Promise<{ rows: Rows }> {
    if (this.ended)
      return Promise.reject(
        new Error('the transaction has ended; its connection is no longer this request’s'),
      );
    // A gathering under way takes it as it takes knex's (see `gather`).
    const gathered = this.gathered([config]) as Promise<{ rows: Rows }> | undefined;
    if (gathered) return gathered;
    let batch = this.batch;
    if (!batch) {
      const opened: Batch = { statements: [], waiting: [] };
      void this.enqueue(() => this.sendBatch(opened));
      batch = this.batch = opened;
    }
    batch.statements.push(config);
    return new Promise((resolve, reject) => batch.waiting.push({ resolve, reject }));
  }

  private async sendBatch(batch: Batch): Promise<void> {
    if (this.batch === batch) this.batch = undefined;
    const { statements, waiting } = batch;
    if (this.refused) {
      for (const w of waiting) w.reject(this.refused);
      return;
    }
    if (statements.length === 1 || this.selfContained) {
      for (const [i, statement] of statements.entries())
        await this.send(statement).then(waiting[i].resolve, waiting[i].reject);
      return;
    }
    try {
      const outcomes = await this.sendWithPending(statements);
      outcomes.forEach((o, i) => ('error' in o ? waiting[i].reject(o.error) : waiting[i].resolve(o.result)));
    } catch (err) {
      for (const w of waiting) w.reject(err);
    }
  }

  /**
   * A write whose rows nothing waits for (the history and outbox rows of a flush): it goes out
   * in the same write as the transaction's next statement, ahead of it, or with COMMIT, instead
   * of a round trip of its own. It runs before anything sent after it, so the request reads it
   * as if it had been sent at once; should it fail, the statement it went with reports its
   * error (and a commit becomes a rollback).
   *
   * `origin`, when given, is what the write was done for (an operation of the request): its
   * refusal is then that operation's (`deferredOriginOf` names it), wherever it surfaced, and
   * from there on every statement of the transaction, COMMIT included, fails with that same
   * error, as PostgreSQL would fail them after it (the block is aborted), so the request sees the
   * refusal and nothing else.
   *
   * `refusal`, when given, turns the database's error for this write into the error its caller
   * would have met had the write gone out on its own (an update that matched no row: the
   * optimistic lock's); every statement failing with it fails with that instead.
   */
  defer(config: QueryConfig, origin?: object, refusal?: Refusal): void {
    if (this.ended) throw new Error('the transaction has ended; its connection is no longer this request’s');
    // A write ahead: a read-only transaction turns into a block now rather than on its refusal.
    if (this.selfContained) this.toBlock();
    this.deferred.push(config);
    this.deferredFor.push(origin);
    this.deferredRefusals.push(refusal);
  }

  /**
   * The next `count` statements sent through the connection knex is handed, or through `query`,
   * go out together, in one pipeline (with the begin and the deferred writes, if pending), once
   * all have arrived:
   * for reads a request makes at once whose statements arrive one by one (a deletion's records
   * and the records linking to them). Should fewer arrive (one of them failing before its
   * statement), those that did go out once the current turn of the event loop has ended.
   */
  gather(count: number): void {
    if (count < 2 || this.selfContained || this.ended) return;
    // A gathering still under way goes out first, as it is.
    if (this.gathering) this.sendGathered(this.gathering);
    const gathering = { batch: { statements: [], waiting: [] } as Batch, awaited: count };
    this.gathering = gathering;
    setImmediate(() => this.sendGathered(gathering));
  }

  /** The statement as part of the gathering under way, if there is one and it can go out in it. */
  private gathered(args: unknown[]): Promise<unknown> | undefined {
    const gathering = this.gathering;
    const plain = gathering && pipelinable(args);
    if (!gathering || !plain) return undefined;
    const sent = new Promise<{ rows: Rows }>((resolve, reject) =>
      gathering.batch.waiting.push({ resolve, reject }),
    );
    gathering.batch.statements.push(plain);
    if (gathering.batch.statements.length === gathering.awaited) this.sendGathered(gathering);
    return sent;
  }

  private sendGathered(gathering: { batch: Batch; awaited: number }): void {
    if (gathering.awaited < 0) return;
    gathering.awaited = -1;
    if (this.gathering === gathering) this.gathering = undefined;
    if (gathering.batch.statements.length) void this.enqueue(() => this.sendBatch(gathering.batch));
  }

  /** One statement, taking the pending begin and the deferred writes along if there are any. */
  private send(config: QueryConfig): Promise<{ rows: Rows }> {
    if (this.selfContained) return this.sendSelfContained(config) as Promise<QueryResult>;
    if (this.pendingBegin || this.deferred.length) return this.sendOne(config) as Promise<QueryResult>;
    return this.connection.query(this.named(config));
  }

  /**
   * The pending begin and deferred writes, with `statement` after them when given. Resolves with
   * that statement's result (pg's, as knex reads it), or with nothing when there is none.
   */
  private async sendOne(statement?: QueryConfig): Promise<QueryResult | undefined> {
    const [outcome] = await this.sendWithPending(statement ? [statement] : []);
    if (!outcome) return undefined;
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  }

  /**
   * The pending begin, the deferred writes and `statements`, in that order: as one pipeline, or
   * one by one where pipelines are not safe (`pipelines`). Resolves with the outcomes of
   * `statements` (a failure before them is theirs too); with none, rejects with a deferred
   * write's failure (the begin's is `began()`'s to report).
   */
  private async sendWithPending(statements: readonly QueryConfig[]): Promise<PipelineOutcome[]> {
    const begin = this.pendingBegin ?? [];
    this.pendingBegin = undefined;
    const writes = this.deferred;
    const origins = this.deferredFor;
    const refusals = this.deferredRefusals;
    this.deferred = [];
    this.deferredFor = [];
    this.deferredRefusals = [];
    const parts = [...begin, ...writes, ...statements];
    const outcomes = this.pipelined ? this.inPipeline(parts) : this.oneByOne(parts);
    if (begin.length) this.settleBegin(outcomes.then((all) => rowsOf(all.slice(0, begin.length))));
    let all = await outcomes;
    // The part that failed (those after it fail with its error): a deferred write done for
    // someone makes the refusal theirs, in the form they gave it.
    const failedAt = all.findIndex((o) => 'error' in o) - begin.length;
    const refusal = failedAt >= 0 ? refusals[failedAt] : undefined;
    if (refusal) {
      const { error: raw } = all[begin.length + failedAt] as { error: Error };
      const error = refusal(raw);
      if (error !== raw) answeredAs.set(error, raw);
      all = all.map((o) => ('error' in o && o.error === raw ? { error } : o));
    }
    const origin = failedAt >= 0 ? origins[failedAt] : undefined;
    if (origin) {
      const { error } = all[begin.length + failedAt] as { error: Error };
      refusedFor.set(error, origin);
      this.refused = error;
    }
    const failed = all.slice(begin.length, begin.length + writes.length).find((o) => 'error' in o);
    if (!statements.length && failed && 'error' in failed) throw failed.error;
    return all.slice(begin.length + writes.length);
  }

  /**
   * A read-only round trip (see `readOnly`): the settings, the first time with what the begin
   * reads (the caller version), and `statement`. The begin's rows are reported as a block's
   * would be, BEGIN's (none) first.
   */
  private async sendSelfContained(statement?: QueryConfig): Promise<QueryResult | undefined> {
    const first = this.pendingBegin !== undefined;
    this.pendingBegin = undefined;
    const prefix = first ? this.readOnlyBegin!.first : this.readOnlyBegin!.again;
    const outcomes = this.inPipeline(statement ? [...prefix, statement] : prefix);
    if (first) this.settleBegin(outcomes.then((all) => [[], ...rowsOf(all.slice(0, prefix.length))]));
    const all = await outcomes;
    const failed = all.find((o) => 'error' in o) as { error: Error } | undefined;
    if (failed && statement && refusedAsReadOnly(failed.error)) {
      this.toBlock();
      return this.sendOne(statement);
    }
    if (failed) throw failed.error;
    if (!statement) return undefined;
    return (all[prefix.length] as { result: QueryResult }).result;
  }

  private async inPipeline(parts: readonly QueryConfig[]): Promise<PipelineOutcome[]> {
    const pipeline = new Pipeline(
      parts.map((config) => this.named(config, true)),
      this.connection as unknown as ConstructorParameters<typeof Pipeline>[1],
    );
    (this.connection.query as (q: unknown) => unknown)(pipeline);
    const outcomes = await pipeline.done;
    // A statement being prepared failed: whether its name now exists on the connection is
    // unknown, so the connection must not serve another request (knex's pool discards it).
    if (pipeline.preparedUnknown)
      this.connection.__knex__disposed ??= new Error('prepared statements unknown');
    return outcomes;
  }

  private async oneByOne(parts: readonly QueryConfig[]): Promise<PipelineOutcome[]> {
    const outcomes: PipelineOutcome[] = [];
    let failed: Error | undefined;
    for (const config of parts) {
      if (failed) {
        outcomes.push({ error: failed });
        continue;
      }
      try {
        const result = (await this.connection.query(this.named(config))) as QueryResult;
        outcomes.push({ rows: result.rows as Rows, result });
      } catch (err) {
        failed = err as Error;
        outcomes.push({ error: failed });
      }
    }
    return outcomes;
  }

  /** `config` under its prepared statement's name, when it has one (`preparedName`). */
  private named(config: QueryConfig, extended = false): QueryConfig {
    const name = config.name ?? preparedName(this.connection, config, extended);
    return name ? { ...config, name } : config;
  }

  private enqueue<T>(send: () => Promise<T>): Promise<T> {
    // What comes after this must not join a batch waiting before it.
    this.batch = undefined;
    const result = this.tail.then(send);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Never rejects: how the commit went is `executionPromise`'s to say (see above). */
  commit(): Promise<void> {
    return this.end('commit').catch(() => undefined);
  }

  /** Resolves even if ROLLBACK fails: the connection is then discarded, which ends the transaction too. */
  rollback(): Promise<void> {
    return this.end('rollback').catch(() => undefined);
  }

  private abandonBegin(): void {
    this.pendingBegin = undefined;
    this.settleBegin(Promise.reject(new Error('the transaction ended before it began')));
  }

  transaction(): never {
    throw new Error('a ConnectionTransaction has no nested transactions; run the work in it (inTransaction)');
  }

  /**
   * COMMIT, with the deferred writes ahead of it in the same round trip; ROLLBACK. A deferred
   * write that fails leaves the block aborted and COMMIT unsent (PostgreSQL skips to the Sync):
   * it is rolled back, and the write's error is the commit's.
   */
  private async endBlock(statement: 'commit' | 'rollback'): Promise<void> {
    if (statement === 'rollback' || !this.deferred.length) {
      await this.connection.query(statement);
      return;
    }
    try {
      await this.sendOne({ text: statement });
    } catch (err) {
      await this.connection.query('rollback').catch(() => undefined);
      throw err;
    }
  }

  private async end(statement: 'commit' | 'rollback'): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    try {
      // Never begun: there is no transaction on the connection to end.
      await this.enqueue(async () => {
        if (statement === 'commit' && this.refused) {
          await this.connection.query('rollback');
          throw this.refused;
        }
        if (statement === 'rollback') {
          this.deferred = [];
          this.deferredFor = [];
          this.deferredRefusals = [];
        }
        if (this.pendingBegin && this.deferred.length) await this.sendOne();
        if (this.pendingBegin) this.abandonBegin();
        // Read-only round trips each ended with their Sync: no block is open.
        else if (!this.selfContained) await this.endBlock(statement);
      });
      this.settle();
    } catch (err) {
      // PostgreSQL answering COMMIT with an error (a deferred constraint, a serialisation
      // failure) has ended the transaction, and the connection is as good as any: it goes back
      // to the pool. Anything else (the connection lost, the server going away) leaves it in an
      // unknown state, so it must not serve another request: knex's pool discards it.
      if (!answeredWithError(err)) this.connection.__knex__disposed ??= err;
      this.settle(err);
      throw err;
    } finally {
      await this.pool.releaseConnection(this.connection);
    }
  }
}

/**
 * The next `count` statements `em`'s request transaction sends through MikroORM go out together
 * (ConnectionTransaction.gather); nothing outside one.
 */
export function gatherReads(em: EntityManager, count: number): void {
  const transaction = em.getTransactionContext();
  if (transaction instanceof ConnectionTransaction) transaction.gather(count);
}

/** The refused deferred writes, by their error, and what each was done for (see `defer`). */
const refusedFor = new WeakMap<object, object>();

/**
 * What the deferred write whose refusal `err` is was done for (`defer`'s `origin`), when it was
 * one: the error may surface at a later statement of the request, or at its COMMIT.
 */
export function deferredOriginOf(err: unknown): object | undefined {
  return typeof err === 'object' && err !== null ? refusedFor.get(err) : undefined;
}

/**
 * Whether the database behind `pool` takes pipelines safely: every PostgreSQL server does. The
 * embedded database's socket host (src/db/pglite-host.js) serves all connections from one
 * session and takes their messages one at a time, keeping a connection's messages together
 * only once its transaction has begun; before that, the Parse, Bind and Execute messages of
 * two connections' pipelines interleave and take each other's portals. There the begin is sent
 * as plain statements, BEGIN first, one round trip each. Asked once per pool.
 */
const pipelining = new WeakMap<object, Promise<boolean>>();

function pipelines(pool: object, connection: PgConnection): Promise<boolean> {
  let known = pipelining.get(pool);
  if (!known) {
    known = (connection.query('select version() as version') as Promise<{ rows: Rows }>).then(
      ({ rows }) => !/\bPGlite\b/.test(String(rows[0]?.version)),
    );
    pipelining.set(pool, known);
    known.catch(() => pipelining.delete(pool));
  }
  return known;
}

/**
 * A statement as knex hands it over (`query(config)`, the callback taken off), as a pipeline can
 * take it: text and values only. Anything else (a row mode, a stream) runs as pg runs it.
 */
function pipelinable(args: unknown[]): QueryConfig | undefined {
  if (args.length !== 1) return undefined;
  const [config] = args;
  if (typeof config === 'string') return { text: config };
  if (typeof config !== 'object' || config === null) return undefined;
  const keys = Object.keys(config);
  return keys.every((k) => k === 'text' || k === 'values' || k === 'name')
    ? (config as QueryConfig)
    : undefined;
}

/** Each statement's rows; the first error if any failed. */
function rowsOf(outcomes: readonly PipelineOutcome[]): Rows[] {
  return outcomes.map((o) => {
    if ('error' in o) throw o.error;
    return o.rows;
  });
}

/**
 * Whether PostgreSQL itself answered the statement with an error that ends no more than the
 * statement or transaction (severity ERROR): the session is then idle and reusable. pg gives
 * such answers the server's severity; errors of the connection carry none.
 */
function answeredWithError(err: unknown): boolean {
  const answer = (typeof err === 'object' && err !== null && answeredAs.get(err)) || err;
  return (answer as { severity?: unknown } | null)?.severity === 'ERROR';
}

/** A deferred write's refusal, in its caller's form, and the database's answer it stands for. */
const answeredAs = new WeakMap<object, Error>();

/**
 * Statements with bound parameters run as named prepared statements: PostgreSQL parses and plans
 * one the first time a connection sees it and then only binds and executes it, where an unnamed
 * statement is parsed and planned on every request. pg remembers per connection which names it
 * has prepared, and a name must always stand for the same text, so texts are numbered in one map.
 * That map is bounded: a search's text varies with its filters and sort, and every prepared
 * statement holds memory in each backend for the connection's life; past the bound, statements
 * run unnamed as before.
 *
 * A name also carries its connection and this module's instance: the embedded database serves
 * every connection, of this process and of others (the CLI beside a running server), from one
 * session, where the same name prepared by two connections would collide.
 */
const PREPARED_LIMIT = 500;
const textNumbers = new Map<string, number>();
const INSTANCE = randomBytes(4).toString('hex');
const connectionNumbers = new WeakMap<object, number>();
let connections = 0;

function preparedName(connection: object, config: QueryConfig, extended = false): string | undefined {
  // Without parameters pg uses the simple protocol, which allows several statements in one text;
  // a prepared statement holds exactly one. A pipeline's statements are each one already.
  if (!extended && !config.values?.length) return undefined;
  let text = textNumbers.get(config.text);
  if (text === undefined) {
    if (textNumbers.size >= PREPARED_LIMIT) return undefined;
    text = textNumbers.size + 1;
    textNumbers.set(config.text, text);
  }
  let number = connectionNumbers.get(connection);
  if (number === undefined) connectionNumbers.set(connection, (number = ++connections));
  return `bms_${INSTANCE}_${number}_${text}`;
}
