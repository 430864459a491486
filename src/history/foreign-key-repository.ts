import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

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
