import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import type { Rows } from '../rows';
import { ConnectionTransaction } from './connection-transaction';

export type { Rows } from '../rows';

/**
 * Runs one statement on the pg connection of `em`'s transaction, with bound parameters.
 *
 * `Connection.execute` of MikroORM inlines every parameter into the SQL text and runs it through
 * knex's query runner (events, formatting, promise chains); for the statements every request
 * sends (set_config, the user, a record, a page, a tally) that was a large part of the CPU of a
 * simple read (bench/README.md, "Other measured reasons"). Here the text goes to the transaction's
 * own connection as it is.
 * The connection is the transaction's own (ConnectionTransaction: requests', and jobs' and
 * tools' through inTransaction), so ordering, the transaction's settings (role, tenant) and its
 * end are unchanged. Outside a transaction (tools), the ORM's execute runs the statement.
 *
 * `sql` uses PostgreSQL's `$1` placeholders; `knexSql` passes a query builder's compiled form.
 * `Row` is the shape the statement's columns give, declared once by the repository that writes it
 * (pg hands rows over untyped; this is the one place they are taken to be what the SQL selects).
 */
export async function queryRows<Row extends object = Rows[number]>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
): Promise<Row[]> {
  const trx = em.getTransactionContext();
  if (!trx) {
    const questionMarks = sql.replace(/\$\d+/g, '?');
    const ordered = [...sql.matchAll(/\$(\d+)/g)].map((m) => params[Number(m[1]) - 1]);
    return em.getConnection().execute<Row[]>(questionMarks, ordered, 'all');
  }
  // A transaction MikroORM opened itself (em.transactional, em.begin) hands out its connection
  // only through a knex internal; the service's own transactions (inTransaction, the tenant
  // transactions) are all ConnectionTransactions.
  if (!(trx instanceof ConnectionTransaction))
    throw new Error('queryRows runs in a transaction opened by inTransaction or a tenant transaction');
  return (await trx.query({ text: sql, values: params })).rows as Row[];
}

/** A query builder's compiled statement (`qb.getKnexQuery().toSQL()`), run as queryRows does. */
export async function knexRows(em: EntityManager, compiled: Knex.Sql): Promise<Rows> {
  if (!em.getTransactionContext())
    return em.getConnection().execute(compiled.sql, [...compiled.bindings], 'all');
  const native = compiled.toNative();
  return queryRows(em, native.sql, native.bindings);
}
