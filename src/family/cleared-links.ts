import type { EntityManager } from '@mikro-orm/core';
import { selectManagedByLink } from '../db/orm-bypass/detached';
import { setNullLinks, type SetNullLink } from '../db/foreign-key-repository';

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

/** A cleared link as the flush writes it: the referencing entity and its property, by referenced table. */
interface ClearedProperty {
  entityName: string;
  property: string;
}

let links: Promise<ReadonlyMap<string, readonly ClearedProperty[]>> | undefined;

/**
 * The catalog's set-null links resolved to the entities and properties that hold them, grouped
 * by the referenced table: read and resolved once per process, at its first delete.
 */
function clearedLinks(em: EntityManager): Promise<ReadonlyMap<string, readonly ClearedProperty[]>> {
  links ??= setNullLinks(em).then(
    (rows) => byParent(em, rows),
    (err: unknown) => {
      links = undefined;
      throw err;
    },
  );
  return links;
}

function byParent(em: EntityManager, rows: readonly SetNullLink[]): Map<string, ClearedProperty[]> {
  const all = Object.values(em.getMetadata().getAll());
  const out = new Map<string, ClearedProperty[]>();
  for (const link of rows) {
    const meta = all.find((m) => m.tableName === link.table);
    const prop = meta?.props.find((p) => p.fieldNames?.[0] === link.column);
    // A table no entity maps (or a column no property holds) has nothing the flush could record.
    if (!meta || !prop) continue;
    out.set(link.parent, [
      ...(out.get(link.parent) ?? []),
      { entityName: meta.className, property: prop.name },
    ]);
  }
  return out;
}

/** Records read for their link to records being deleted, and the property holding it. */
export interface LinkingRecords {
  property: string;
  records: readonly object[];
}

/**
 * The reads of the records that refer to records of `entityName` by a set-null key, one per
 * link: each takes the ids of the records to be deleted. What they read is handed to
 * `clearLinks`; a read sends one statement, so a caller can send them together with its own.
 */
export async function readLinksTo(
  em: EntityManager,
  entityName: string,
): Promise<((ids: readonly string[]) => Promise<LinkingRecords>)[]> {
  const table = em.getMetadata().get(entityName).tableName;
  return ((await clearedLinks(em)).get(table) ?? []).map(
    ({ entityName: linking, property }) =>
      async (ids) => ({
        property,
        records:
          (await selectManagedByLink<object>(em, linking, property, ids)) ??
          ((await em.find(linking, { [property]: { $in: [...ids] } } as never)) as object[]),
      }),
  );
}

/**
 * Clears, through the flush, the links of the records read (`readLinksTo`) that refer to one of
 * the records `ids`, which are being deleted; records linking to others are left as they are.
 * The changed records are flushed with the caller's next flush.
 */
export function clearLinks(linked: readonly LinkingRecords[], ids: readonly string[]): void {
  const deleted = new Set(ids);
  for (const { property, records } of linked)
    for (const record of records) {
      const fields = record as Record<string, unknown>;
      // A record that names itself (a shipped transfer is its own incoming transfer) goes with
      // the deletion: clearing it would update a row the deletion removed.
      if (deleted.has(fields.id as string)) continue;
      if (deleted.has(fields[property] as string)) fields[property] = null;
    }
}
