import type { EntityManager, EntityMetadata } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

/**
 * Links a deletion clears. A foreign key declared `on delete set null` (docs/integrity.md) clears
 * an optional link when its record goes: the database does it, past the flush, so the records
 * whose link it cleared would change without a history entry or an event. Before a group deletes
 * records, the records linking to them are read and their link cleared through the flush instead,
 * which records it like any other change (the database then finds nothing left to clear).
 *
 * The rules are the database's own (its catalog), read once per process: the migrations declare
 * them, and nothing here repeats them.
 */
interface ClearedLink {
  /** The referencing table and its column that the delete clears. */
  table: string;
  column: string;
  /** The referenced table. */
  parent: string;
}

let links: Promise<readonly ClearedLink[]> | undefined;

function clearedLinks(em: EntityManager): Promise<readonly ClearedLink[]> {
  links ??= queryRows(
    em,
    `select child.relname as "table", col.attname as "column", parent.relname as "parent"
       from pg_constraint c
       join pg_class child on child.oid = c.conrelid
       join pg_class parent on parent.oid = c.confrelid
       join pg_attribute col on col.attrelid = c.conrelid and col.attnum = any(c.conkey) and col.attname <> 'tenant_id'
      where c.contype = 'f' and c.confdeltype = 'n' and child.relnamespace = current_schema()::regnamespace`,
    [],
  ).then(
    (rows) => rows as unknown as ClearedLink[],
    (err: unknown) => {
      links = undefined;
      throw err;
    },
  );
  return links;
}

/**
 * Clears, through the flush, the links of records that refer to the records `ids` of
 * `entityName` by a set-null key. The changed records are flushed with the caller's next flush.
 */
export async function clearLinksTo(
  em: EntityManager,
  entityName: string,
  ids: readonly string[],
): Promise<void> {
  const metadata = em.getMetadata();
  const table = metadata.get(entityName).tableName;
  const byTable = new Map<string, EntityMetadata>(
    Object.values(metadata.getAll()).map((meta) => [meta.tableName, meta] as const),
  );
  for (const link of (await clearedLinks(em)).filter((l) => l.parent === table)) {
    const meta = byTable.get(link.table);
    const prop = meta?.props.find((p) => p.fieldNames?.[0] === link.column);
    if (!meta || !prop) continue;
    const linked = await em.find(meta.class, { [prop.name]: { $in: [...ids] } } as never);
    for (const record of linked) (record as Record<string, unknown>)[prop.name] = null;
  }
}
