import {
  ReferenceKind,
  Utils,
  type EntityManager,
  type EntityMetadata,
  type EntityProperty,
} from '@mikro-orm/core';
import { ConnectionTransaction, type QueryConfig } from './connection-transaction';
import { viewPrototype } from './view-prototype';

/**
 * Inserts rows of an entity past the unit of work, deferred to go out with the request's next
 * statement (ConnectionTransaction.defer): the history and outbox rows a flush adds to every
 * change. Through the unit of work each was an insert of its own, one round trip each after the
 * record's, and MikroORM's change sets for rows it never reads again.
 *
 * A multi-row VALUES with bound parameters, so every row names its tenant as a value (a
 * distributed database routes an insert by it: docs/integrity.md); a flush's rows are few, and
 * the statement text per row count is prepared once per connection like any other. Values are
 * converted as MikroORM converts them (its custom types: JSON, big integers).
 */
interface InsertShape {
  head: string;
  props: EntityProperty[];
}

/** Rows per statement: PostgreSQL takes at most 65,535 parameters in one. */
const ROWS_PER_STATEMENT = 500;

const shapes = new WeakMap<EntityMetadata, InsertShape>();

/**
 * A column of the record's own that `insertStatements` writes: a stored scalar of one column.
 * The lone writes (lone-create.ts, lone-update.ts) go past the flush only for records that have
 * no other kind of property.
 */
export const isStoredScalar = (p: EntityProperty): boolean =>
  p.kind === ReferenceKind.SCALAR && p.persist !== false && p.fieldNames?.length === 1;

/** Whether an entity has lifecycle hooks, which only a flush runs. */
export const hasLifecycleHooks = (meta: EntityMetadata): boolean =>
  Object.values(meta.hooks).some((hooks) => hooks?.length);

function shapeOf(meta: EntityMetadata): InsertShape {
  let shape = shapes.get(meta);
  if (!shape) {
    const props = meta.props.filter(isStoredScalar);
    const columns = props.map((p) => `"${p.fieldNames[0]}"`).join(', ');
    shape = { head: `insert into "${meta.tableName}" (${columns}) values `, props };
    shapes.set(meta, shape);
  }
  return shape;
}

/** The statements inserting `rows` of `entityName`. */
export function insertStatements(
  em: EntityManager,
  entityName: string,
  rows: readonly object[],
): QueryConfig[] {
  const meta = em.getMetadata().get(entityName);
  const platform = em.getPlatform();
  const { head, props } = shapeOf(meta);
  const statements: QueryConfig[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const params = props.map((p) => {
        const value = (row as Record<string, unknown>)[p.name] ?? null;
        values.push(
          p.customType && value !== null ? p.customType.convertToDatabaseValue(value, platform) : value,
        );
        return `$${values.length}`;
      });
      return `(${params.join(', ')})`;
    });
    statements.push({ text: head + tuples.join(', '), values });
  }
  return statements;
}

/**
 * A new, empty row of `entity` for `deferInsert`. Where `em` is in a request transaction (the
 * row then goes out through `deferInsert`, never through the unit of work), an object on the
 * entity's view prototype (view-prototype.ts, as detached.ts's views: the class's own,
 * `instanceof` included, with MikroORM's change-tracking setters shadowed by plain fields);
 * elsewhere `new entity()`, for the flush to insert. Each field of a class instance goes through
 * MikroORM's setter, which redefines it on the instance at its first assignment: for a history
 * entry or an outbox event, most of the CPU of making the row (bench/README.md, "The write
 * path").
 */
export function newRow<T extends object>(em: EntityManager, entity: new () => T): T {
  if (!(em.getTransactionContext() instanceof ConnectionTransaction)) return new entity();
  return Object.create(viewPrototype(em, entity.name)) as T;
}

/**
 * Defers the insert of `rows` to the request transaction's next statement. False where `em` is
 * not in a request transaction (a job's or a tool's): the caller inserts them as it otherwise
 * would.
 */
export function deferInsert(em: EntityManager, entityName: string, rows: readonly object[]): boolean {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return false;
  for (const statement of insertStatements(em, entityName, rows)) transaction.defer(statement);
  return true;
}

/**
 * Defers `text` (a write whose answer nobody reads: a queue's upsert) to go out with the request
 * transaction's next statement, as `deferInsert` defers an insert. False outside a request
 * transaction: the caller sends it as it otherwise would.
 */
export function deferStatement(em: EntityManager, text: string, values: readonly unknown[]): boolean {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return false;
  transaction.defer({ text, values });
  return true;
}

/**
 * Defers the delete of the records `ids` of `entityName` in `tenantId` as `deferInsert` defers an
 * insert: a deletion's answer is the rows it read first, so nothing waits for the statement, and
 * it goes out with the audit log's rows. A refusal (a record still referred to) is then the
 * error of the statement it went with, under the same SQLSTATE, and `origin`'s when given
 * (ConnectionTransaction.defer). False outside a request transaction.
 */
export function deferDelete(
  em: EntityManager,
  entityName: string,
  tenantId: string,
  ids: readonly string[],
  origin?: object,
): boolean {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return false;
  const meta = em.getMetadata().get(entityName);
  transaction.defer(
    {
      text: `delete from "${meta.tableName}" where "tenant_id" = $1 and "id" = any($2::uuid[])`,
      values: [tenantId, ids],
    },
    origin,
  );
  return true;
}

/**
 * Records whose insert by the next flush may go out deferred (ConnectionTransaction.defer),
 * by transaction, entity and id, with what each is written for.
 */
const insertable = new WeakMap<ConnectionTransaction, Map<string, object>>();

const recordKey = (entityName: string, id: unknown) => `${entityName}\u0000${String(id)}`;

/**
 * Lets the flush's insert of `record` (of `entityName`) go out with the request's next statement
 * or its COMMIT instead of in a round trip of its own, as the history and outbox rows do: for a
 * write whose caller reads nothing of the inserted row back that the statement would return
 * (`deferredInsert` decides, row by row, from the entity's metadata) and that answers its
 * refusal as `origin`'s, wherever it surfaces (ConnectionTransaction.defer). Code that catches
 * a refusal of its own flush must not ask for this. False outside a request transaction.
 */
export function insertWithNextStatement(
  em: EntityManager,
  entityName: string,
  record: { id: unknown },
  origin: object,
): boolean {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return false;
  let records = insertable.get(transaction);
  if (!records) insertable.set(transaction, (records = new Map()));
  records.set(recordKey(entityName, record.id), origin);
  return true;
}

/** An insert the flush sends that goes out deferred: its origin and the rows it would have returned. */
export interface DeferredInsert {
  origin: object;
  rows: Record<string, unknown>[];
}

/**
 * Whether the unit of work's insert of `rows` (payloads of `meta`'s entity, by property) may be
 * deferred in `transaction`: every row allowed (`insertWithNextStatement`) for one origin, and
 * every column the insert would return one whose value is known without asking: the version,
 * which a new row takes from its column's default (an integer; the migrations give every table
 * the entity's, and no trigger changes it: test/foundation/deferred-refusals.test.ts checks
 * both). The allowance is used up.
 */
export function deferredInsert(
  transaction: unknown,
  meta: EntityMetadata,
  rows: readonly Record<string, unknown>[],
): DeferredInsert | undefined {
  if (!(transaction instanceof ConnectionTransaction) || !rows.length) return undefined;
  const records = insertable.get(transaction);
  if (!records) return undefined;
  const keys = rows.map((row) => recordKey(meta.className, row.id));
  const origin = records.get(keys[0]);
  if (!origin || keys.some((key) => records.get(key) !== origin)) return undefined;
  // What MikroORM's insert returns (AbstractSqlDriver.nativeInsertMany): the columns with a
  // database default, generated or auto-incremented, that the first row does not set.
  const returned = meta.props.filter(
    (p) =>
      ((p.persist !== false && p.defaultRaw) || p.autoincrement || p.generated) &&
      (!(p.name in rows[0]) || Utils.isRawSql(rows[0][p.name])),
  );
  const known = returned.every((p) => newVersion(p) !== undefined);
  if (!known || rows.some((row) => Object.values(row).some((v) => Utils.isRawSql(v)))) return undefined;
  for (const key of keys) records.delete(key);
  return {
    origin,
    rows: rows.map(() => Object.fromEntries(returned.map((p) => [p.fieldNames[0], newVersion(p)]))),
  };
}

/**
 * The version a new row takes from its column's default, known without reading it back: for the
 * version property of one column whose default is an integer (the migrations give every table
 * the entity's, and no trigger changes it: test/foundation/deferred-refusals.test.ts checks both).
 * Undefined for any other property.
 */
export function newVersion(prop: EntityProperty): number | undefined {
  if (!prop.version || !/^\d+$/.test(prop.defaultRaw ?? '') || prop.fieldNames?.length !== 1)
    return undefined;
  return Number(prop.defaultRaw);
}

/** Records whose update by the next flush may go out deferred, by transaction, entity and id. */
const updatable = new WeakMap<ConnectionTransaction, Map<string, { origin: object; record: object }>>();

/**
 * Runs `flush` with its update of `record` (of `entityName`) allowed to go out with the request's
 * next statement or its COMMIT instead of in a round trip of its own, as `insertWithNextStatement`
 * allows a record's insert: for a write that answers its refusal as `origin`'s wherever it
 * surfaces (`deferredUpdate` decides from the update itself). Outside a request transaction,
 * `flush` runs as it is.
 */
export async function updateWithNextStatement<R>(
  em: EntityManager,
  entityName: string,
  record: { id: unknown },
  origin: object,
  flush: () => Promise<R>,
): Promise<R> {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return flush();
  let records = updatable.get(transaction);
  if (!records) updatable.set(transaction, (records = new Map()));
  const key = recordKey(entityName, record.id);
  records.set(key, { origin, record });
  try {
    return await flush();
  } finally {
    records.delete(key);
  }
}

/** An update the flush sends that goes out deferred: its origin and the row it would have returned. */
export interface DeferredUpdate {
  origin: object;
  /** The record updated (an optimistic lock's error names it). */
  record: object;
  row: Record<string, unknown>;
}

/**
 * Whether the unit of work's update of one record (`where`, by property, its optimistic lock
 * included; `data`, the changed columns) may be deferred in `transaction`: the record allowed
 * (`updateWithNextStatement`), its condition naming the integer version the record was read at,
 * and nothing returned but the version, which the update sets to that plus one
 * (QueryBuilderHelper.updateVersionProperty), so the answer is known without the statement.
 */
export function deferredUpdate(
  transaction: unknown,
  meta: EntityMetadata,
  where: unknown,
  data: Record<string, unknown>,
): DeferredUpdate | undefined {
  if (!(transaction instanceof ConnectionTransaction) || !meta.versionProperty) return undefined;
  const records = updatable.get(transaction);
  if (!records || !Utils.isPlainObject(where)) return undefined;
  const cond = where as Record<string, unknown>;
  const allowed = records.get(recordKey(meta.className, cond.id));
  const version = cond[meta.versionProperty];
  const versionProp = meta.properties[meta.versionProperty];
  if (
    !allowed ||
    typeof version !== 'number' ||
    !Number.isInteger(version) ||
    versionProp.runtimeType !== 'number' ||
    versionProp.fieldNames.length !== 1 ||
    meta.versionProperty in data ||
    meta.props.some((p) => p.generated && !p.primary) ||
    Object.values(data).some((v) => Utils.isRawSql(v))
  )
    return undefined;
  return { ...allowed, row: { [versionProp.fieldNames[0]]: version + 1 } };
}
