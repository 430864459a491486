import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from './orm-bypass/statements';

/**
 * The foreign keys as the database's catalog declares them: what a restore checks (history) and
 * what a deletion clears (family), with the restore's check that a referenced row exists.
 */

/** A reference column of a table and the table its key points to. */
export interface Reference {
  column: string;
  target: string;
}

/** The table's references as its foreign keys declare them, from the database's catalog. */
export function foreignKeysOf(em: EntityManager, table: string): Promise<Reference[]> {
  return queryRows<Reference>(
    em,
    `select a.attname as "column", t.relname as "target"
         from pg_constraint c
         join pg_class t on t.oid = c.confrelid
         join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey) and a.attname <> 'tenant_id'
        where c.contype = 'f' and c.conrelid = to_regclass($1)`,
    [table],
  );
}

/** Whether the tenant's row `id` of `table` (a name the catalog gave) exists. */
export async function rowExists(
  em: EntityManager,
  table: string,
  tenantId: string,
  id: string,
): Promise<boolean> {
  const [found] = await queryRows<{ found: number }>(
    em,
    `select 1 as found from "${table}" where tenant_id = $1 and id = $2::uuid`,
    [tenantId, id],
  );
  return found !== undefined;
}

/** A link a deletion clears: the referencing table and column, and the referenced table. */
export interface SetNullLink {
  table: string;
  column: string;
  parent: string;
}

/** The foreign keys of the schema declared `on delete set null`, from the database's catalog. */
export function setNullLinks(em: EntityManager): Promise<SetNullLink[]> {
  return queryRows<SetNullLink>(
    em,
    `select child.relname as "table", col.attname as "column", parent.relname as "parent"
       from pg_constraint c
       join pg_class child on child.oid = c.conrelid
       join pg_class parent on parent.oid = c.confrelid
       join pg_attribute col on col.attrelid = c.conrelid and col.attnum = any(c.conkey) and col.attname <> 'tenant_id'
      where c.contype = 'f' and c.confdeltype = 'n' and child.relnamespace = current_schema()::regnamespace`,
    [],
  );
}
