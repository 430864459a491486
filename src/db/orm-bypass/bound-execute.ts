import {
  JsonProperty,
  OptimisticLockError,
  ReferenceKind,
  Utils,
  type Configuration,
  type Dictionary,
  type EntityMetadata,
  type EntityProperty,
  type EntityData,
  type FilterQuery,
  type LoggingOptions,
  type NativeInsertUpdateManyOptions,
  type NativeInsertUpdateOptions,
  type QueryResult,
  type Transaction,
} from '@mikro-orm/core';
import { AbstractSqlDriver, PostgreSqlPlatform, type Knex } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { sqlStateOf } from '../refusals';
import { ConnectionTransaction, type QueryConfig } from './connection-transaction';
import { deferredInsert, deferredUpdate, type DeferredInsert, type DeferredUpdate } from './deferred-writes';
import { SessionConnection } from './session-connection';

/** An insert of the flush's, by its text, to go out deferred (`BoundDriver.nativeInsertMany`). */
const deferring = new WeakMap<ConnectionTransaction, DeferredInsert & { sql: string }>();

/** The flush's update to go out deferred, with the record it is of (`BoundDriver.nativeUpdate`). */
const deferringUpdate = new WeakMap<ConnectionTransaction, DeferredUpdate>();

/** The statements MikroORM hands `BoundConnection.execute` in a transaction, while watched. */
const capturing = new WeakMap<ConnectionTransaction, { sql: string; params: unknown[] }[]>();

/**
 * How many update statement texts are kept: a shape is a set of columns, which clients
 * choose (the fields a PATCH sends), so the count is bounded rather than left to grow with them.
 */
const KEPT_TEXTS = 1000;

/** PostgreSQL's SQLSTATE for a division by zero: the deferred update's "no row matched". */
const DIVISION_BY_ZERO = '22012';

/**
 * `update` (one record's, by its optimistic lock) as a statement that fails when it matches no
 * row: its refusal then aborts the block, so COMMIT keeps none of the request's writes (the
 * history and outbox rows of an update that did not happen included), where the unit of work
 * would have read the row count and thrown. No function of our own in the database: a division
 * by the count is PostgreSQL's own error, on both databases.
 */
function failingWithoutRow(update: QueryConfig): QueryConfig {
  return {
    text: `with "updated" as (${update.text}) select 1 / count(*) as "one" from "updated"`,
    values: update.values,
  };
}

/**
 * MikroORM's `Connection.execute` for the statements its unit of work and query builders send in
 * a request's transaction, with bound parameters.
 *
 * MikroORM writes every parameter into the statement's text (`Platform.formatQuery`: each value
 * escaped and quoted) and runs the text through knex's query runner. For a write, every insert
 * and update is then a text PostgreSQL has never seen: parsed and planned each time, and, being
 * sent in a pipeline, numbered as a prepared statement of its own until the bound on those is
 * spent; and the escaping walks every value of the record in Node. Here the same statement goes
 * to the request's `ConnectionTransaction` connection as text with `$n` placeholders and its
 * values, past knex's runner; one that goes out with the begin or the deferred writes (a
 * write's insert or update, its first read) is prepared once per connection and only bound
 * after.
 *
 * The values are what MikroORM would have written inline, in the same form (its date format,
 * JSON text, a list for `in (?)`); a parameter of any other kind (a raw fragment, an
 * identifier) keeps MikroORM's own way for that statement, as does everything outside a request
 * transaction (jobs, tools, migrations).
 */
export class BoundConnection extends SessionConnection {
  override execute<T>(
    queryOrKnex: string | Knex.QueryBuilder | Knex.Raw,
    params: unknown[] = [],
    method: 'all' | 'get' | 'run' = 'all',
    ctx?: Transaction,
    loggerContext?: LoggingOptions,
  ): Promise<T> {
    if (typeof queryOrKnex === 'string' && params.length && ctx instanceof ConnectionTransaction) {
      capturing.get(ctx)?.push({ sql: queryOrKnex, params: [...params] });
      const sql = this.config.get('onQuery')(queryOrKnex, params);
      const bound = boundStatement(this.platform as PostgreSqlPlatform, sql, params);
      const deferred = deferring.get(ctx);
      deferring.delete(ctx);
      // The flush's insert of a record that may go out with the next statement: answered with the
      // rows the statement would return, known without it.
      if (bound && deferred?.sql === queryOrKnex)
        return this.executeQuery(
          sql,
          () => {
            ctx.defer(bound, deferred.origin);
            const rows = deferred.rows;
            return Promise.resolve(this.transformRawResult<T>({ rows, rowCount: rows.length }, method));
          },
          { query: sql, params, ...loggerContext },
        );
      // The flush's update of a record that may go out with the next statement: answered as
      // having matched its row, which the deferred statement makes sure of (failingWithoutRow).
      const update = deferringUpdate.get(ctx);
      if (bound && update && /^update /i.test(queryOrKnex)) {
        deferringUpdate.delete(ctx);
        return this.executeQuery(
          sql,
          () => {
            ctx.defer(failingWithoutRow(bound), update.origin, (err) =>
              sqlStateOf(err) === DIVISION_BY_ZERO ? OptimisticLockError.lockFailed(update.record) : err,
            );
            const rows = [update.row];
            return Promise.resolve(this.transformRawResult<T>({ rows, rowCount: rows.length }, method));
          },
          { query: sql, params, ...loggerContext },
        );
      }
      // Through the connection knex would have used (the transaction's serial one), so the
      // statement waits its turn and joins the begin or the deferred writes exactly as before.
      if (bound)
        return this.executeQuery(
          sql,
          async () => {
            const connection = (await ctx.client.acquireConnection()) as SerialConnection;
            return this.transformRawResult<T>(await connection.query(bound), method);
          },
          { query: sql, params, ...loggerContext },
        );
    }
    return super.execute<never>(queryOrKnex, params, method, ctx, loggerContext);
  }
}

/** The request transaction's connection as knex is handed it (ConnectionTransaction.client). */
interface SerialConnection {
  query(config: QueryConfig): Promise<unknown>;
}

/**
 * MikroORM's PostgreSQL driver on `BoundConnection`. Its insert of records allowed to go out
 * with the next statement (deferred-writes.ts, `insertWithNextStatement`) is handed to the
 * request's transaction to go out so (ConnectionTransaction.defer), answered with the values it
 * would have returned, where those are known without it (`deferredInsert`).
 */
export class BoundDriver extends AbstractSqlDriver<BoundConnection, PostgreSqlPlatform> {
  constructor(config: Configuration) {
    super(config, new PostgreSqlPlatform(), BoundConnection, ['knex', 'pg']);
  }

  override async nativeInsertMany<T extends object>(
    entityName: string,
    data: EntityData<T>[],
    options: NativeInsertUpdateManyOptions<T> = {},
    transform?: (sql: string) => string,
  ): Promise<QueryResult<T>> {
    const ctx = options.ctx;
    const meta = this.metadata.find(entityName);
    const deferred =
      !transform && meta && ctx instanceof ConnectionTransaction
        ? deferredInsert(ctx, meta, data as Record<string, unknown>[])
        : undefined;
    if (!deferred || !(ctx instanceof ConnectionTransaction))
      return super.nativeInsertMany(entityName, data, options, transform);
    // BoundConnection.execute, which MikroORM calls with the statement's text at once, defers
    // exactly that statement. Not taken by then, it is sent as usual.
    const result = super.nativeInsertMany(entityName, data, options, (sql) => {
      deferring.set(ctx, { ...deferred, sql });
      return sql;
    });
    deferring.delete(ctx);
    return result;
  }

  /**
   * The update statements' texts MikroORM's query builder made, by entity, schema and the
   * columns changed and matched (`updateShape`): the text depends on nothing else.
   */
  private readonly updateTexts = new LRUCache<string, string>({ max: KEPT_TEXTS });

  override async nativeUpdate<T extends object>(
    entityName: string,
    where: FilterQuery<T>,
    data: EntityData<T>,
    options: NativeInsertUpdateOptions<T> = {},
  ): Promise<QueryResult<T>> {
    const ctx = options.ctx;
    const meta = this.metadata.find(entityName);
    if (!meta || !(ctx instanceof ConnectionTransaction) || options.upsert)
      return super.nativeUpdate(entityName, where, data, options);
    const deferred = deferredUpdate(ctx, meta, where, data as Record<string, unknown>);
    // The statement is handed to BoundConnection.execute, which defers the first update it is
    // given for this transaction. Not taken by then, it is sent as usual.
    if (deferred) deferringUpdate.set(ctx, deferred);
    try {
      return await this.updateByShape(entityName, meta, where, data, options, ctx);
    } finally {
      if (deferred) deferringUpdate.delete(ctx);
    }
  }

  /**
   * `nativeUpdate` of one record with the statement's text MikroORM's query builder made for the
   * same shape of update, and the values bound as it binds them (`updateParams`). The query
   * builder costs more than the rest of an update's statement together (processing the data and
   * the condition, knex's compiler); its text for a shape is kept from its first use, and only
   * where its values there are the ones `updateParams` gives, each told apart from the others,
   * so the positions match too.
   */
  private async updateByShape<T extends object>(
    entityName: string,
    meta: EntityMetadata<T>,
    where: FilterQuery<T>,
    data: EntityData<T>,
    options: NativeInsertUpdateOptions<T>,
    ctx: ConnectionTransaction,
  ): Promise<QueryResult<T>> {
    const shape = updateShape(this.platform, meta, where, data, options);
    if (shape === undefined) return super.nativeUpdate(entityName, where, data, options);
    options.convertCustomTypes ??= true;
    const params = this.updateParams(meta, where, data, options.convertCustomTypes);
    const text = this.updateTexts.get(shape);
    if (text !== undefined && params)
      return this.rethrow(
        this.getConnection('write').execute<QueryResult<T>>(text, params, 'run', ctx, {
          // What the query builder passes: no entity manager's id of its own.
          id: undefined,
          ...options.loggerContext,
        } as LoggingOptions),
      );
    const sent: { sql: string; params: unknown[] }[] = [];
    capturing.set(ctx, sent);
    try {
      return await super.nativeUpdate(entityName, where, data, options);
    } finally {
      capturing.delete(ctx);
      if (params && sent.length === 1 && sameValues(sent[0].params, params) && allDistinct(params))
        this.updateTexts.set(shape, sent[0].sql);
    }
  }

  /**
   * The values MikroORM's query builder binds for an update of `updateShape`'s kind: the data's,
   * mapped to columns as it maps them (`mapDataToFieldNames`: custom types, JSON, the columns'
   * order), without those left undefined, which knex leaves out; then the condition's, as given.
   * Undefined for a value of another kind than the statement's text was made with.
   */
  private updateParams(
    meta: EntityMetadata,
    where: unknown,
    data: unknown,
    convertCustomTypes: boolean,
  ): unknown[] | undefined {
    const mapped = this.mapDataToFieldNames(data as Dictionary, true, meta.properties, convertCustomTypes);
    const params: unknown[] = [];
    for (const value of Object.values(mapped)) {
      if (value === undefined) continue;
      if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value))
        return undefined;
      params.push(value);
    }
    for (const value of Object.values(where as Dictionary)) params.push(value);
    return params;
  }
}

/**
 * The key of an update's statement text: the entity, schema, and the properties changed (those
 * left undefined marked: knex leaves them out) and matched, in order. Undefined where the text
 * could depend on a value (a raw fragment, a null or an operator in the condition), or on
 * anything but scalar columns (relations, embeddables, many-to-many collections, a conversion
 * written in SQL, a custom type in the condition).
 */
function updateShape(
  platform: PostgreSqlPlatform,
  meta: EntityMetadata,
  where: unknown,
  data: unknown,
  options: NativeInsertUpdateOptions<never>,
): string | undefined {
  if (!Utils.isPlainObject(where) || !Utils.isPlainObject(data)) return undefined;
  const scalar = (name: string) => {
    const prop = meta.properties[name as never] as EntityProperty | undefined;
    return prop?.kind === ReferenceKind.SCALAR &&
      prop.fieldNames?.length === 1 &&
      !prop.embeddedProps &&
      !prop.hasConvertToDatabaseValueSQL
      ? prop
      : undefined;
  };
  let key = `${meta.className}\u0000${options.schema ?? ''}\u0000${options.convertCustomTypes !== false}\u0000`;
  let changed = 0;
  for (const [name, value] of Object.entries(data as Dictionary)) {
    if (!scalar(name) || Utils.isRawSql(value) || platform.isRaw(value)) return undefined;
    key += value === undefined ? `${name}?,` : `${name},`;
    if (value !== undefined) changed++;
  }
  if (!changed) return undefined;
  key += '\u0000';
  const matched = Object.entries(where as Dictionary);
  if (!matched.length) return undefined;
  for (const [name, value] of matched) {
    const prop = scalar(name);
    const plain =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value));
    if (!prop || prop.customType || !plain) return undefined;
    key += `${name},`;
  }
  return key;
}

/** Whether `a` and `b` hold the same values in the same order (dates by their instant). */
function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return (
    a.length === b.length &&
    a.every((value, i) =>
      value instanceof Date && b[i] instanceof Date ? value.getTime() === b[i].getTime() : value === b[i],
    )
  );
}

/** Whether no two of `values` could be taken for each other (so that matching values means matching positions). */
function allDistinct(values: readonly unknown[]): boolean {
  const seen = new Set(values.map((value) => (value instanceof Date ? `date:${value.getTime()}` : value)));
  return seen.size === values.length;
}

/**
 * `sql` in MikroORM's form (`?` a value, `??` an identifier, `\?` a question mark) with PostgreSQL's
 * placeholders, and the values as `formatQuery` would have written them; undefined when a
 * parameter is one only the inline form can take.
 */
export function boundStatement(
  platform: PostgreSqlPlatform,
  sql: string,
  params: readonly unknown[],
): QueryConfig | undefined {
  const values: unknown[] = [];
  let text = '';
  let pos = 0;
  let next = 0;
  for (;;) {
    const at = sql.indexOf('?', pos);
    if (at === -1) break;
    if (at > 0 && sql[at - 1] === '\\') {
      text += sql.slice(pos, at - 1) + '?';
      pos = at + 1;
      continue;
    }
    if (sql[at + 1] === '?' || next >= params.length) return undefined;
    const placeholders = bind(platform, params[next++], values);
    if (placeholders === undefined) return undefined;
    text += sql.slice(pos, at) + placeholders;
    pos = at + 1;
  }
  if (next !== params.length) return undefined;
  return { text: text + sql.slice(pos), values };
}

/** The placeholders of one parameter, its values pushed onto `values`; undefined if it cannot be bound. */
function bind(platform: PostgreSqlPlatform, value: unknown, values: unknown[]): string | undefined {
  if (value === null || value === undefined) return push(values, null);
  switch (typeof value) {
    case 'string':
      return push(values, value);
    case 'boolean':
      return push(values, value);
    case 'bigint':
      return push(values, String(value));
    case 'number':
      return Number.isFinite(value) ? push(values, value) : undefined;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value instanceof Date) return push(values, platform.formatDate(value));
  if (Buffer.isBuffer(value)) return push(values, value);
  if (Array.isArray(value)) {
    // `in (?)` with a list: each element its own placeholder, as the inline form lists them.
    if (value.length === 0) return undefined;
    const each: string[] = [];
    for (const element of value) {
      if (Array.isArray(element)) return undefined;
      const one = bind(platform, element, values);
      if (one === undefined) return undefined;
      each.push(one);
    }
    return each.join(', ');
  }
  if (Utils.isRawSql(value) || platform.isRaw(value)) return undefined;
  if (Utils.isPlainObject(value) || (value as Record<symbol, unknown>)[JsonProperty])
    return push(values, JSON.stringify(value));
  return undefined;
}

function push(values: unknown[], value: unknown): string {
  values.push(value);
  return `$${values.length}`;
}
