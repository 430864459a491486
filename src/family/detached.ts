import {
  raw,
  type EntityManager,
  type EntityMetadata,
  type FilterQuery,
  type QueryOrderMap,
} from '@mikro-orm/core';
import type { QueryBuilder, SqlEntityManager } from '@mikro-orm/postgresql';
import { knexRows, queryRows } from '../db/statements';
import { actorOf } from '../db/tenancy';

/**
 * Reads for answering queries, kept out of the unit of work.
 *
 * `em.find` registers every row in the identity map, wraps it, snapshots it for change tracking,
 * and the request's commit then compares every snapshot: on a page of 200 that was a third of
 * the service's CPU (bench/, issue 7). Rows read here go through MikroORM's own result mapper and
 * hydrator (the same conversions as `em.find`: decimals, JSON, dates) onto the entity's prototype
 * (so getters and field resolvers work), and are then left alone: no identity map, no snapshot,
 * nothing for the commit to compare.
 *
 * The price: what these return is a view, not a managed entity. Writing to it changes nothing;
 * code that changes records reads them with `em.find` (FamilyService.one and friends).
 * Tenancy is unchanged: the query builder applies the same filters as `em.find` (the tenant
 * filter), and row-level security holds underneath either way.
 */

/** A derived field's SQL, selected beside a page's columns (CSV exports). */
export interface DerivedColumn {
  name: string;
  sql: (alias: string) => string;
}

const PAGE_ALIAS = 'e0';
const DERIVED_PREFIX = '__derived_';

/** Values read with each view beside its columns (derived and joined fields), by view. */
const readWith = new WeakMap<object, Record<string, unknown>>();

/** The derived values read with `record`'s statement, by field name; undefined when none were. */
export const derivedOf = (record: object): Record<string, unknown> | undefined => readWith.get(record);

/** Remembers the derived values read with `record` (derivedOf answers them). */
export function rememberDerived(record: object, values: Record<string, unknown>): void {
  readWith.set(record, values);
}

/** Moves a row's derived values out of it (before hydration) and returns them by field name. */
export function takeDerived(
  row: Record<string, unknown>,
  derived: readonly DerivedColumn[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const d of derived) {
    values[d.name] = row[DERIVED_PREFIX + d.name];
    delete row[DERIVED_PREFIX + d.name];
  }
  return values;
}

/** The select-list entry of a derived value, on the row aliased PAGE_ALIAS. */
const derivedSelect = (d: DerivedColumn) => `(${d.sql(PAGE_ALIAS)}) as "${DERIVED_PREFIX}${d.name}"`;

export interface ReadOptions<T> {
  orderBy?: QueryOrderMap<T>[];
  /** Values selected beside the columns; derivedOf reads them from each view. */
  derived?: readonly DerivedColumn[];
  limit?: number;
  offset?: number;
}

function builder<T extends object>(
  em: EntityManager,
  entityName: string,
  where: FilterQuery<T>,
): QueryBuilder<T> {
  const qb = (em as SqlEntityManager).createQueryBuilder(
    entityName,
    PAGE_ALIAS,
  ) as unknown as QueryBuilder<T>;
  return qb.where(where as never);
}

const viewPrototypes = new Map<string, object>();

/**
 * The prototype of `entityName`'s views: the entity class's own (getters, methods, instanceof),
 * with MikroORM's change-tracking setters shadowed by plain fields. MikroORM puts a setter on the
 * class prototype for each tracked property; on first assignment it creates the entity's
 * wrapper and redefines the property on the instance, which for a page of 200 was thousands
 * of defineProperty calls and 200 wrappers that nothing would ever read.
 */
function viewPrototype(em: EntityManager, entityName: string): object {
  let proto = viewPrototypes.get(entityName);
  if (proto) return proto;
  const meta = em.getMetadata().get(entityName);
  proto = Object.create(meta.class.prototype as object) as object;
  for (const name of Object.keys(meta.properties)) {
    for (
      let p: object | null = meta.class.prototype as object;
      p && p !== Object.prototype;
      p = Object.getPrototypeOf(p)
    ) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (!d) continue;
      if (d.set && !d.get)
        Object.defineProperty(proto, name, { value: undefined, writable: true, configurable: true });
      break;
    }
  }
  viewPrototypes.set(entityName, proto);
  return proto;
}

/** Rows of `entityName` as MikroORM hydrates them, detached from the unit of work. */
export function hydrateDetached<T>(
  em: EntityManager,
  entityName: string,
  rows: Record<string, unknown>[],
  derived: readonly DerivedColumn[] = [],
): T[] {
  const meta = em.getMetadata().get(entityName);
  const driver = (em as SqlEntityManager).getDriver();
  const hydrator = em.config.getHydrator(em.getMetadata());
  const factory = em.getEntityFactory();
  const prototype = viewPrototype(em, entityName);
  return rows.map((row) => {
    const values = derived.length ? takeDerived(row, derived) : undefined;
    const data = driver.mapResult(row as never, meta) as Record<string, unknown>;
    const entity = Object.create(prototype) as T;
    hydrator.hydrate(entity as object, meta, data as never, factory, 'full', false, true);
    if (values) readWith.set(entity as object, values);
    return entity;
  });
}

/** The records of `entityName` matching `where` (within the request's tenant). */
export async function selectDetached<T extends object>(
  em: EntityManager,
  entityName: string,
  where: FilterQuery<T>,
  options: ReadOptions<T> = {},
): Promise<T[]> {
  const qb = builder(em, entityName, where).select('*');
  for (const d of options.derived ?? []) qb.addSelect(raw(derivedSelect(d)));
  if (options.orderBy?.length) qb.orderBy(options.orderBy as never);
  if (options.limit !== undefined) qb.limit(options.limit);
  if (options.offset) qb.offset(options.offset);
  await qb.applyFilters();
  return hydrateDetached<T>(em, entityName, await knexRows(em, qb.getKnexQuery().toSQL()), options.derived);
}

const tenantStatements = new Map<string, string>();

/**
 * A statement about the request tenant's records of `entityName`, made once per `shape` from the
 * metadata (`build`) instead of by a query builder on every call: by-id reads and tallies run on
 * every find/{id}, and their query builders were a sixth and a seventh of its CPU (bench/). The
 * tenant condition is the tenant filter's, written out as `$1` with the tenant returned beside
 * the statement; row-level security holds underneath as for every statement.
 */
export function tenantStatement(
  em: EntityManager,
  entityName: string,
  shape: string,
  build: (meta: EntityMetadata) => string,
): { sql: string; tenantId: string } {
  const tenantId = actorOf(em)?.tenantId;
  if (!tenantId) throw new Error(`${entityName} read without a tenant`);
  const key = `${entityName}:${shape}`;
  let sql = tenantStatements.get(key);
  if (!sql) {
    const meta = em.getMetadata().get(entityName);
    if (!meta.properties.tenantId) throw new Error(`${entityName} is not a tenant's record`);
    sql = build(meta);
    tenantStatements.set(key, sql);
  }
  return { sql, tenantId };
}

/**
 * Records by id, the commonest read (find/{id}, every by-id loader). With `derived` values the
 * statement is made for the call: their SQL may name the caller's scope.
 */
export async function selectByIds<T extends object>(
  em: EntityManager,
  entityName: string,
  ids: readonly string[],
  derived: readonly DerivedColumn[] = [],
): Promise<T[]> {
  const byIds = (meta: EntityMetadata, extra = '') =>
    `select "e0".*${extra} from "${meta.tableName}" as "e0" where "e0"."tenant_id" = $1 and "e0"."id" = any($2::uuid[])`;
  const { sql: shared, tenantId } = tenantStatement(em, entityName, 'byIds', (meta) => byIds(meta));
  const sql = derived.length
    ? byIds(em.getMetadata().get(entityName), derived.map((d) => `, ${derivedSelect(d)}`).join(''))
    : shared;
  return hydrateDetached<T>(em, entityName, await queryRows(em, sql, [tenantId, ids]), derived);
}

/**
 * A page of raw rows and the number of all matching ones, in one statement: the count is
 * lateral-joined to the page, so each keeps its own plan (an index-only count, the page's index
 * scan with its limit) and a page costs one round trip instead of two. A window count
 * (`count(*) over ()`) was measured and rejected: it makes the page read every matching row.
 */
export async function pageRows<T extends object>(
  em: EntityManager,
  entityName: string,
  where: FilterQuery<T> | (() => FilterQuery<T>),
  options: ReadOptions<T> & { limit: number; derived?: readonly DerivedColumn[] },
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const condition = (): FilterQuery<T> =>
    typeof where === 'function' ? (where as () => FilterQuery<T>)() : where;
  const page = builder(em, entityName, condition())
    .select('*')
    .orderBy(options.orderBy as never);
  for (const d of options.derived ?? []) page.addSelect(raw(derivedSelect(d)));
  page.limit(options.limit).offset(options.offset ?? 0);
  const count = builder(em, entityName, condition()).count();
  await Promise.all([page.applyFilters(), count.applyFilters()]);
  const p = page.getKnexQuery().toSQL().toNative();
  const c = count.getKnexQuery().toSQL().toNative();
  // Both are numbered from $1: the page's placeholders move past the count's.
  const shift = c.bindings.length;
  const pageSql = p.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + shift}`);
  const rows = await queryRows(
    em,
    `select c.count as "__total", p.* from (${c.sql}) as c left join lateral (${pageSql}) as p on true`,
    [...c.bindings, ...p.bindings],
  );
  const total = Number(rows[0]?.__total ?? 0);
  // With no row on the page, the join still yields the count beside one row of nulls.
  const found = rows.filter((r) => r.id !== null).map(({ __total: _total, ...columns }) => columns);
  return { rows: found, total };
}
