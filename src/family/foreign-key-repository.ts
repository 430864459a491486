import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../db/orm-bypass/statements';

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
