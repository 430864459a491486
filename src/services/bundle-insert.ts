import type { Knex } from '@mikro-orm/postgresql';
import type { RecordFile } from './bundle-manifest';
import { parseRow, recordLines, slices, type BundleRow, type RecordLine } from './bundle-records';
import { insertSlice, insertStatement } from './bundle-repository';
import type { TenantTable } from './tenant-table-repository';

/** Rows inserted per statement on import. */
const IMPORT_SLICE = 2000;

/**
 * What the import decides itself in a table, beside the tenant columns (which always get the new
 * tenant's id): records it leaves out, and values it sets by column, the same columns for every
 * record of the table. Everything else is inserted as the bundle wrote it.
 */
export interface TablePlan {
  assigned: string[];
  skip?(row: BundleRow): boolean;
  assign?(row: BundleRow): Record<string, unknown>;
}

/**
 * Inserts the records of one record file as rows of `tenantId`, read again as a stream (and
 * hashed again: a file changed since its check fails before the commit). A table whose rows
 * reference each other goes in one statement, which checks those references at its end whatever
 * the rows' order; others go in slices of bounded size. Returns how many rows went in.
 */
export async function insertRecords(
  trx: Knex.Transaction,
  dir: string,
  table: TenantTable,
  record: RecordFile,
  tenantId: string,
  plan: TablePlan = { assigned: [] },
): Promise<{ lines: number; inserted: number }> {
  const columns = [...new Set([...record.columns, ...table.tenantColumns, ...plan.assigned])];
  const statement = insertStatement(table, columns, plan.assigned);
  const tenantBindings = columns.filter((c) => table.tenantColumns.includes(c)).map(() => tenantId);
  const size = table.selfReferencing ? Math.max(1, record.count) : IMPORT_SLICE;
  const perRow = plan.assigned.length > 0 || plan.skip !== undefined;
  let lines = 0;
  let inserted = 0;
  for await (const slice of slices(recordLines(dir, table.name, record), size)) {
    lines += slice.length;
    let kept: RecordLine[] = slice;
    const assigned: Record<string, unknown>[] = [];
    if (perRow) {
      kept = [];
      for (const line of slice) {
        const row = parseRow(table.name, record, line);
        if (plan.skip?.(row)) continue;
        kept.push(line);
        assigned.push(plan.assign?.(row) ?? {});
      }
    }
    if (kept.length === 0) continue;
    const rows = `[${kept.map((l) => l.text).join(',')}]`;
    await insertSlice(
      trx,
      statement,
      tenantBindings,
      rows,
      plan.assigned.length > 0 ? JSON.stringify(assigned) : undefined,
    );
    inserted += kept.length;
  }
  return { lines, inserted };
}
