import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { FileRow } from './bundle-files';
import { quoteIdent, rows, type TenantTable } from './tenant-table-repository';

/**
 * A tenant bundle's statements (tenant-bundle.ts): the export's copies of every tenant table as
 * JSON lines, read through a cursor; the import's inserts of those lines into any tenant table;
 * and what the import settles in the rows it copied. Generic over the tables the catalog lists
 * (tenant-table-repository.ts): a copy is of the rows as stored, whatever entity maps them.
 */

/** Rows of one query, read through a cursor so that a large table never sits in memory whole. */
async function* cursorLines(
  trx: Knex.Transaction,
  query: string,
  bindings: Knex.RawBinding[],
): AsyncGenerator<string> {
  const cursor = `bundle_${randomUUID().replace(/-/g, '')}`;
  await trx.raw(`declare ${cursor} no scroll cursor for ${query}`, bindings);
  for (;;) {
    const batch = await rows<{ line: string }>(trx, `fetch 1000 from ${cursor}`);
    for (const r of batch) yield r.line;
    if (batch.length < 1000) break;
  }
  await trx.raw(`close ${cursor}`);
}

/** The tenant's own row, as one JSON line. */
export const tenantRowLines = (trx: Knex.Transaction, tenantId: string) =>
  cursorLines(trx, 'select row_to_json(t)::text as line from tenant t where id = ?', [tenantId]);

/** The tenant's rows of a tenant table, one JSON line each, in the order of its key. */
export const tableLines = (trx: Knex.Transaction, table: TenantTable, tenantId: string) =>
  cursorLines(
    trx,
    `select row_to_json(t)::text as line from ${quoteIdent(table.name)} t where tenant_id = ? order by ${table.key.map(quoteIdent).join(', ')}`,
    [tenantId],
  );

/** The tenant's stored files: each one's key in the store and whether its bytes are served. */
export const storedFileRows = (trx: Knex.Transaction, tenantId: string) =>
  rows<FileRow>(
    trx,
    `select id, storage_key as key, (completed is not null and deleted is null) as live
       from stored_file where tenant_id = ? order by id`,
    [tenantId],
  );

/**
 * The insert of one slice of a table's records. The lines go to the database as they are
 * (json_populate_recordset reads each column with its type, so a numeric keeps every digit);
 * the columns naming the tenant take the new tenant's id, bound once, and the assigned columns
 * their values from a second record set, matched line by line by its ordinality.
 */
export function insertStatement(table: TenantTable, columns: string[], assigned: string[]): string {
  const type = `null::${quoteIdent(table.name)}`;
  const values = columns.map((c) =>
    table.tenantColumns.includes(c) ? '?::uuid' : `${assigned.includes(c) ? 'o' : 'r'}.${quoteIdent(c)}`,
  );
  const from =
    assigned.length === 0
      ? `json_populate_recordset(${type}, ?::json) r`
      : `json_populate_recordset(${type}, ?::json) with ordinality r
         join json_populate_recordset(${type}, ?::json) with ordinality o on o.ordinality = r.ordinality`;
  return `insert into ${quoteIdent(table.name)} (${columns.map(quoteIdent).join(', ')}) select ${values.join(', ')} from ${from}`;
}

/**
 * Runs an `insertStatement` for one slice: the tenant's id once per tenant column, the slice's
 * lines as one JSON array, and the assigned values (when the statement assigns any) as another.
 */
export async function insertSlice(
  trx: Knex.Transaction,
  statement: string,
  tenantBindings: string[],
  lines: string,
  assigned?: string,
): Promise<void> {
  await trx.raw(statement, [...tenantBindings, lines, ...(assigned === undefined ? [] : [assigned])]);
}

/**
 * The exports of an exported tenant ran in the deployment it came from: their archives are in
 * that deployment's store, and one that was running (the export that wrote the bundle) is not to
 * run here. Settles the imported tenant's exports so.
 */
export async function settleImportedExports(trx: Knex.Transaction, tenantId: string): Promise<void> {
  await trx.raw(
    `update tenant_export set archive_key = null, archive_size = null, archive_sha256 = null, lease_until = null,
       status = case when status in ('PENDING', 'RUNNING') then 'FAILED' else status end,
       message = case when status in ('PENDING', 'RUNNING') then 'exported before it ended; imported from a bundle' else message end,
       completed = coalesce(completed, now())
     where tenant_id = ?`,
    [tenantId],
  );
}
