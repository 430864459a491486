import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection, Knex } from '@mikro-orm/postgresql';
import { APP_ROLE } from '../db/tenant-transaction';

/*
 * The tenant tables' catalog reads (pg_class, pg_attribute, pg_constraint, pg_policies) and the
 * settings that bind a knex transaction to a tenant, for the statements that work on every tenant
 * table at once: the bundles, the tenant's removal and a person's data (their repositories).
 */

/**
 * A tenant's tables as the database catalog describes them: every table of the schema with a
 * `tenant_id` column. Export, import, deletion and personal-data erasure all read this list, so a
 * table a later migration adds is carried by them without a change here.
 */
export interface TenantTable {
  name: string;
  /** Stored columns in table order (generated columns are left out: they cannot be inserted). */
  columns: string[];
  /** Each column's type, as PostgreSQL writes it (`text`, `jsonb`, `uuid`, `text[]`...). */
  types: Record<string, string>;
  /** The primary key's columns: rows are exported in that order, so two exports compare. */
  key: string[];
  /** Tables this one references through a foreign key checked at each statement (not deferred). */
  parents: string[];
  /** Whether a row may reference another row of the same table (checked at the end of a statement). */
  selfReferencing: boolean;
  /**
   * The columns that name the row's tenant, as the catalog says: those its row-level policies
   * compare with `app.tenant_id` (`tenant_id`; the tenant's own row's `id`) and those with a
   * foreign key to the tenant.
   */
  tenantColumns: string[];
}

/** The ORM's knex: these statements are the database's, not any entity's. */
export const knexOf = (orm: MikroORM): Knex =>
  (orm.em.getConnection() as AbstractSqlConnection).getKnex() as Knex;

/**
 * What these statements run on: a knex transaction or connection, or anything that runs a
 * statement with `?` placeholders the same way (a request's transaction: personal-data.ts).
 */
export interface Sql {
  raw(text: string, bindings: Knex.RawBinding[]): PromiseLike<unknown>;
}

export async function rows<R>(sql: Sql, text: string, bindings: readonly unknown[] = []): Promise<R[]> {
  const result = (await sql.raw(text, bindings as Knex.RawBinding[])) as { rows: R[] };
  return result.rows;
}

/**
 * Tenant tables whose rows follow from other tables' (kept by triggers on them): an export
 * leaves them out, an import makes them anew as it inserts those tables' rows (carrying them too
 * would insert each row twice), and a deletion removes them with the rows they follow from.
 */
const DERIVED_TABLES = ['webhook_backlog'];

type TableShape = Omit<TenantTable, 'parents' | 'selfReferencing'>;

/**
 * The columns of the table `c` that name a tenant: those its row-level policies compare with
 * `app.tenant_id`, and those with a foreign key to the tenant's id.
 */
const TENANT_COLUMNS = `array(
    select m[1] from pg_policies p
    cross join lateral regexp_matches(coalesce(p.qual, '') || ' ' || coalesce(p.with_check, ''),
      '(\\w+) = \\(NULLIF\\(current_setting\\(''app\\.tenant_id''', 'g') m
    where p.schemaname = current_schema() and p.tablename = c.relname
    union
    select a.attname::text from pg_constraint k
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.conrelid = c.oid and k.contype = 'f' and k.confrelid = 'tenant'::regclass
      and cardinality(k.conkey) = 1)`;

/** The tables of the schema that `where` admits (a condition on `c`, the table's pg_class row). */
async function tableShapes(sql: Sql, where: string, bindings: unknown[]): Promise<TableShape[]> {
  const found = await rows<{
    name: string;
    columns: string[];
    types: string[];
    key: string[] | null;
    tenant: string[];
  }>(
    sql,
    `select c.relname as name,
       array(select a.attname::text from pg_attribute a
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
             order by a.attnum) as columns,
       array(select format_type(a.atttypid, a.atttypmod) from pg_attribute a
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
             order by a.attnum) as types,
       array(select a.attname::text from pg_index i
             cross join lateral unnest(i.indkey) with ordinality k(attnum, n)
             join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
             where i.indrelid = c.oid and i.indisprimary order by k.n) as key,
       ${TENANT_COLUMNS} as tenant
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p') and ${where}
     order by c.relname`,
    bindings,
  );
  return found.map((t) => ({
    name: t.name,
    columns: t.columns,
    types: Object.fromEntries(t.columns.map((c, i) => [c, t.types[i]])),
    key: t.key && t.key.length > 0 ? t.key : t.columns,
    // A table whose policy a migration has yet to make still names its tenant by tenant_id.
    tenantColumns: t.columns.filter((c) => t.tenant.includes(c) || c === 'tenant_id'),
  }));
}

/** The tenant's own row's table, in the terms of a tenant table: the column naming the tenant is `id`. */
export async function tenantRowTable(sql: Sql): Promise<TenantTable> {
  const [shape] = await tableShapes(sql, `c.relname = 'tenant'`, []);
  return { ...shape, parents: [], selfReferencing: false };
}

/**
 * The tenant tables, ordered so that a table comes after every table it references: inserted in
 * this order, each statement's references are already there; deleted in the reverse order, no
 * row is left referenced. A table's references to itself are checked at the end of its one
 * statement, and deferred keys at commit, so neither orders anything.
 */
export async function tenantTables(sql: Sql): Promise<TenantTable[]> {
  const found = await tableShapes(
    sql,
    `exists (select 1 from pg_attribute t
             where t.attrelid = c.oid and t.attname = 'tenant_id' and not t.attisdropped)
     and c.relname <> all(string_to_array(?, ','))`,
    [DERIVED_TABLES.join(',')],
  );
  const keys = await rows<{ child: string; parent: string }>(
    sql,
    `select distinct ch.relname as child, pa.relname as parent
     from pg_constraint k
     join pg_class ch on ch.oid = k.conrelid
     join pg_class pa on pa.oid = k.confrelid
     where k.contype = 'f' and not k.condeferred
       and ch.relnamespace = (select oid from pg_namespace where nspname = current_schema())`,
  );
  const names = new Set(found.map((t) => t.name));
  const tables = new Map<string, TenantTable>(
    found.map((t) => [
      t.name,
      {
        ...t,
        parents: keys
          .filter((k) => k.child === t.name && k.parent !== t.name && names.has(k.parent))
          .map((k) => k.parent),
        selfReferencing: keys.some((k) => k.child === t.name && k.parent === t.name),
      },
    ]),
  );
  const ordered: TenantTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TenantTable, path: string[]) => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting')
      throw new Error(`tenant tables reference each other in a cycle: ${[...path, table.name].join(' -> ')}`);
    state.set(table.name, 'visiting');
    for (const parent of table.parents) visit(tables.get(parent)!, [...path, table.name]);
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables.values()) visit(table, []);
  return ordered;
}

/**
 * Tables without `tenant_id` whose rows are keyed by a tenant's id (`id` is the tenant id), as
 * their row-level policies say: the tenant itself and the counters kept per tenant.
 */
export async function tablesKeyedByTenant(sql: Sql): Promise<string[]> {
  const found = await rows<{ name: string }>(
    sql,
    `select distinct p.tablename::text as name from pg_policies p
     where p.schemaname = current_schema()
       and p.qual like '(id = (NULLIF(current_setting(''app.tenant_id''%'
     order by 1`,
  );
  return found.map((r) => r.name);
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Binds a statement's transaction to one tenant, as a request does, so row-level policies admit its rows. */
export async function actAsTenant(trx: Knex.Transaction, tenantId: string): Promise<void> {
  await trx.raw(`select set_config('app.tenant_id', ?, true), set_config('statement_timeout', '0', true)`, [
    tenantId,
  ]);
}

/**
 * Binds the transaction to one tenant as a request's transaction is bound: as the application
 * role, under row-level security, so that no statement of it can read or write another tenant's
 * rows, whatever they say. Checked, since a connection whose user may not take that role would
 * otherwise go on as itself.
 */
export async function actAsApplication(trx: Knex.Transaction, tenantId: string): Promise<void> {
  await actAsTenant(trx, tenantId);
  await trx.raw(`select set_config('role', ?, true)`, [APP_ROLE]);
  const [me] = await rows<{ role: string }>(trx, 'select current_user::text as role');
  if (me?.role !== APP_ROLE) throw new Error(`the transaction runs as ${me?.role}, not as ${APP_ROLE}`);
}
