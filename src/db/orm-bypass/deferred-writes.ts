import { ReferenceKind, type EntityManager, type EntityMetadata, type EntityProperty } from '@mikro-orm/core';
import { ConnectionTransaction, type QueryConfig } from './connection-transaction';

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

function shapeOf(meta: EntityMetadata): InsertShape {
  let shape = shapes.get(meta);
  if (!shape) {
    const props = meta.props.filter(
      (p) => p.kind === ReferenceKind.SCALAR && p.persist !== false && p.fieldNames?.length === 1,
    );
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
 * Defers the delete of the records `ids` of `entityName` in `tenantId` as `deferInsert` defers an
 * insert: a deletion's answer is the rows it read first, so nothing waits for the statement, and
 * it goes out with the audit log's rows. A refusal (a record still referred to) is then the
 * error of the statement it went with, under the same SQLSTATE. False outside a request
 * transaction.
 */
export function deferDelete(
  em: EntityManager,
  entityName: string,
  tenantId: string,
  ids: readonly string[],
): boolean {
  const transaction = em.getTransactionContext();
  if (!(transaction instanceof ConnectionTransaction)) return false;
  const meta = em.getMetadata().get(entityName);
  transaction.defer({
    text: `delete from "${meta.tableName}" where "tenant_id" = $1 and "id" = any($2::uuid[])`,
    values: [tenantId, ids],
  });
  return true;
}
