import {
  raw,
  RawQueryFragment,
  ReferenceKind,
  type EntityManager,
  type EntityMetadata,
  type EntityProperty,
  type FilterQuery,
  type QueryOrderMap,
} from '@mikro-orm/core';
import type { QueryBuilder, SqlEntityManager } from '@mikro-orm/postgresql';
import { actorOf } from '../tenancy';
import { knexRows, queryRows } from './statements';
import { viewPrototype } from './view-prototype';

/**
 * Reads for answering queries, kept out of the unit of work.
 *
 * `em.find` registers every row in the identity map, wraps it, snapshots it for change tracking,
 * and the request's commit then compares every snapshot: on a large page that was a large share
 * of the service's CPU (bench/README.md, "Other measured reasons"). Rows read here go through
 * MikroORM's own result mapper and hydrator (the same conversions as `em.find`: decimals, JSON,
 * dates) onto the entity's prototype (so getters and field resolvers work), and are then left alone: no identity map, no snapshot,
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

/**
 * Where a record keeps the values read with it beside its columns (derived and joined fields).
 * A symbol key: JSON, `Object.keys`, MikroORM's snapshots and serialisers never see it. It was a
 * WeakMap; a page made one insertion per row, and every collection walked its ephemerons.
 */
const READ_WITH = Symbol('readWith');

type WithValues = { [READ_WITH]?: Record<string, unknown> };

/** The derived values read with `record`'s statement, by field name; undefined when none were. */
export const derivedOf = (record: object): Record<string, unknown> | undefined =>
  (record as WithValues)[READ_WITH];

/** Remembers the derived values read with `record` (derivedOf answers them). */
export function rememberDerived(record: object, values: Record<string, unknown>): void {
  (record as WithValues)[READ_WITH] = values;
}

/** A row's derived values by field name, left in the row. */
function derivedValues(
  row: Record<string, unknown>,
  derived: readonly DerivedColumn[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const d of derived) values[d.name] = row[DERIVED_PREFIX + d.name];
  return values;
}

/**
 * Moves a row's derived values out of it (before `em.map`, which would set them on the entity)
 * and returns them by field name.
 */
export function takeDerived(
  row: Record<string, unknown>,
  derived: readonly DerivedColumn[],
): Record<string, unknown> {
  const values = derivedValues(row, derived);
  for (const d of derived) delete row[DERIVED_PREFIX + d.name];
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

/** The context MikroORM's hydrator gives custom types' conversions. */
const CONVERSION = { mode: 'serialization' } as const;
const customTyped = new Map<string, EntityProperty[] | undefined>();

/**
 * The properties of `meta` with a custom type (JSON, arrays, decimals...), when all of them are
 * plain columns of the entity; undefined when some property is anything else (a relation, an
 * embeddable, a reference wrapper), which only MikroORM's own conversion handles.
 *
 * With custom types converted here, the hydrator runs without its own conversion, which also
 * turns each converted value back into its database form and keeps it in the row's data for
 * change tracking (a JSON.stringify of every row's JSON columns): a view is never tracked.
 */
function customTypedProps(meta: EntityMetadata): EntityProperty[] | undefined {
  if (customTyped.has(meta.className)) return customTyped.get(meta.className);
  const plain = meta.props.every((p) => p.kind === ReferenceKind.SCALAR && !p.embedded && !p.ref);
  const props = plain ? meta.props.filter((p) => p.customType) : undefined;
  customTyped.set(meta.className, props);
  return props;
}

/**
 * Rows of `entityName` as MikroORM hydrates them, detached from the unit of work. Columns that
 * are not the entity's (the derived values, a page's `__total`) may stay in the rows: the
 * hydrator sets the entity's properties only. Deleting them first turned every row into a
 * dictionary-mode object, slower for the result mapper to walk.
 */
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
  const custom = customTypedProps(meta);
  const platform = driver.getPlatform();
  const views = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const data = driver.mapResult(row as never, meta) as Record<string, unknown>;
    const entity = Object.create(prototype) as T;
    if (custom) {
      for (const prop of custom) {
        const value = data[prop.name];
        if (value !== null && value !== undefined)
          data[prop.name] = prop.customType!.convertToJSValue(value, platform, CONVERSION);
      }
    }
    hydrator.hydrate(entity as object, meta, data as never, factory, 'full', false, !custom);
    if (derived.length) rememberDerived(entity as object, derivedValues(row, derived));
    views[i] = entity;
  }
  return views;
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
 * every find/{id}, and their query builders were a large share of its CPU (bench/README.md). The
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
 * `column` among `ids` as the SQL condition on parameter `$n` (its value: idsValue). One id
 * is compared as a scalar: PostgreSQL plans `= any($n)` anew on every execution of the prepared
 * statement (its generic plan, costed for an array of unknown length, loses to one made for the
 * values), and a find or a loader's batch of one is the commonest read.
 */
export const amongIds = (column: string, n: number, ids: readonly string[]): string =>
  ids.length === 1 ? `${column} = $${n}::uuid` : `${column} = any($${n}::uuid[])`;

/** The value of amongIds' parameter. */
export const idsValue = (ids: readonly string[]): unknown => (ids.length === 1 ? ids[0] : ids);

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
  const among = amongIds('"e0"."id"', 2, ids);
  const byIds = (meta: EntityMetadata, extra = '') =>
    `select "e0".*${extra} from "${meta.tableName}" as "e0" where "e0"."tenant_id" = $1 and ${among}`;
  const { sql: shared, tenantId } = tenantStatement(em, entityName, among, (meta) => byIds(meta));
  const sql = derived.length
    ? byIds(em.getMetadata().get(entityName), derived.map((d) => `, ${derivedSelect(d)}`).join(''))
    : shared;
  const rows = await queryRows(em, sql, [tenantId, idsValue(ids)]);
  return hydrateDetached<T>(em, entityName, rows, derived);
}

/**
 * Records by id, managed (the unit of work tracks their changes), as `em.find` by id makes them
 * (the same flush first, the same factory call per row), from selectByIds's statement: a find
 * builds its statement with MikroORM's query builder on every call, a visible share of an
 * update's CPU. Records already managed are returned as they are, as a find returns them.
 */
export function selectManagedByIds<T extends object>(
  em: EntityManager,
  entityName: string,
  ids: readonly string[],
): Promise<T[]> {
  return selectManaged<T>(em, entityName, 'id', ids);
}

/**
 * The records whose `property` (a uuid column: a link) is one of `ids`, managed, as `em.find`
 * with `{ [property]: { $in: ids } }` makes them, as selectManagedByIds makes records by id: a
 * deletion reads so the records linking to those it removes, whose links it clears through the
 * flush, on every delete. Undefined where the property is not one uuid column of a tenant's
 * record: the caller finds them with `em.find`.
 */
export function selectManagedByLink<T extends object>(
  em: EntityManager,
  entityName: string,
  property: string,
  ids: readonly string[],
): Promise<T[]> | undefined {
  const meta = em.getMetadata().get(entityName);
  const prop = meta.properties[property as never] as EntityProperty | undefined;
  if (!meta.properties.tenantId || prop?.fieldNames?.length !== 1 || prop.columnTypes?.[0] !== 'uuid')
    return undefined;
  return selectManaged<T>(em, entityName, prop.fieldNames[0], ids);
}

async function selectManaged<T extends object>(
  em: EntityManager,
  entityName: string,
  column: string,
  ids: readonly string[],
): Promise<T[]> {
  const among = amongIds(`"e0"."${column}"`, 2, ids);
  const { sql, tenantId } = tenantStatement(
    em,
    entityName,
    among,
    (meta) => `select "e0".* from "${meta.tableName}" as "e0" where "e0"."tenant_id" = $1 and ${among}`,
  );
  // What em.find does before it reads (FlushMode.AUTO: pending changes to these records first).
  await em.tryFlush(entityName, {});
  const rows = await queryRows(em, sql, [tenantId, idsValue(ids)]);
  const meta = em.getMetadata().get(entityName);
  const driver = (em as SqlEntityManager).getDriver();
  const factory = em.getEntityFactory();
  // As em.find makes each record of its rows (merged: one already managed is returned as it is).
  return rows.map((row) =>
    factory.create<T>(entityName, driver.mapResult(row as never, meta) as never, {
      merge: true,
      convertCustomTypes: true,
    }),
  );
}

/**
 * A search's condition and order as a shape: the operators, keys, list lengths and raw
 * fragments' SQL that decide the statement's text, with the values that fill its parameters
 * collected in the order met. Two conditions of one shape make the same text with different
 * values, so the text is built once per shape (pageStatement).
 */
interface Shape {
  values: unknown[];
  /** Raw fragments named as keys: MikroORM keeps them until a query builder reads them. */
  rawKeys: string[];
  /** False when something was met whose effect on the text the shape cannot tell. */
  known: boolean;
}

function rawKey(key: string, shape: Shape): string {
  if (!RawQueryFragment.isKnownFragment(key)) return JSON.stringify(key);
  shape.rawKeys.push(key);
  const fragment = RawQueryFragment.getKnownFragment(key, false)!;
  if (fragment.params.length) shape.known = false;
  return `raw(${fragment.sql})`;
}

function describe(value: unknown, shape: Shape): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') {
    shape.values.push(value);
    return typeof value;
  }
  if (value instanceof Date) {
    shape.values.push(value);
    return 'date';
  }
  if (RawQueryFragment.isRaw(value)) {
    const fragment = value as RawQueryFragment;
    if (fragment.params.length) shape.known = false;
    return `raw(${fragment.sql})`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => describe(v, shape)).join(',')}]`;
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    // An entity, a reference, a class instance: MikroORM reads it in ways the shape cannot see.
    shape.known = false;
    return '?';
  }
  return `{${Object.entries(value)
    .map(([k, v]) => `${rawKey(k, shape)}:${describe(v, shape)}`)
    .join(',')}}`;
}

/** Sort keys and directions are part of the text, not parameters. */
const describeOrder = (orderBy: readonly object[], shape: Shape): string =>
  orderBy
    .map((o) =>
      Object.entries(o)
        .map(([k, dir]) => `${rawKey(k, shape)}:${typeof dir === 'string' ? dir : describe(dir, shape)}`)
        .join(','),
    )
    .join(';');

/** Frees the raw fragments a shape met that no query builder will read. */
function releaseRawKeys(shape: Shape): void {
  for (const key of shape.rawKeys) RawQueryFragment.getKnownFragment(key);
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());

/**
 * Where each of a built statement's parameters comes from among `candidates` (the condition's
 * values, then the tenant), or undefined when that cannot be told for sure: a parameter equal to
 * no candidate (a value MikroORM converted) or to several, or a value of the condition that fills
 * no parameter or several (one written into the text).
 */
function parameterSources(
  bindings: readonly unknown[],
  candidates: readonly unknown[],
  conditionValues: number,
): number[] | undefined {
  const sources: number[] = [];
  const uses = new Array<number>(candidates.length).fill(0);
  for (const b of bindings) {
    let found = -1;
    for (let i = 0; i < candidates.length; i++) {
      if (!sameValue(b, candidates[i])) continue;
      if (found >= 0) return undefined;
      found = i;
    }
    if (found < 0) return undefined;
    uses[found]++;
    sources.push(found);
  }
  for (let i = 0; i < candidates.length; i++)
    if (i < conditionValues ? uses[i] !== 1 : uses[i] > 1) return undefined;
  return sources;
}

/** The source of a page's offset, which knex writes last (placed by position). */
const OFFSET = -1;

interface PageStatement {
  sql: string;
  /** The index among the candidates (parameterSources), or OFFSET, of each parameter. */
  sources: number[];
}

/** The column a page's rows carry their count in: hydrateDetached ignores it, `em.map` must not see it. */
export const PAGE_TOTAL = '__total';

/** Page statements by shape; shapes vary with filters, so the map is bounded. */
const pageStatements = new Map<string, PageStatement>();
const PAGE_STATEMENTS = 1000;

/**
 * A page of raw rows (each still carrying the count in its PAGE_TOTAL column: a copy of every
 * row without it was a measurable share of a large page) and the number of all matching ones,
 * in one statement: the count is
 * lateral-joined to the page, so each keeps its own plan (an index-only count, the page's index
 * scan with its limit) and a page costs one round trip instead of two. A window count
 * (`count(*) over ()`) was measured and rejected: it makes the page read every matching row.
 *
 * The statement's text is made by MikroORM's query builders once per shape of the condition and
 * order (as `tenantStatement` does for fixed statements): building it was a large share of a
 * page's CPU. Each later request of the shape binds its own values to the parameters the first
 * one's build placed; a shape whose values cannot all be placed with certainty is built every time.
 */
export async function pageRows<T extends object>(
  em: EntityManager,
  entityName: string,
  where: FilterQuery<T> | (() => FilterQuery<T>),
  options: ReadOptions<T> & { limit: number; derived?: readonly DerivedColumn[] },
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const condition = (): FilterQuery<T> =>
    typeof where === 'function' ? (where as () => FilterQuery<T>)() : where;
  const derived = options.derived ?? [];
  const orderBy = (options.orderBy ?? []) as object[];
  const offset = options.offset ?? 0;
  const shape: Shape = { values: [], rawKeys: [], known: true };
  const key = [
    entityName,
    describe(condition(), shape),
    describeOrder(orderBy, shape),
    derived.map((d) => `${d.name}=${d.sql(PAGE_ALIAS)}`).join('\u0000'),
    offset ? 'offset' : '',
    options.limit,
  ].join('\u0001');
  const conditionValues = shape.values.length;
  const tenantId = actorOf(em)?.tenantId;
  const candidates = [...shape.values, tenantId];
  const valueOf = (i: number) => (i === OFFSET ? offset : candidates[i]);
  let statement = pageStatements.get(key);
  let params: unknown[];
  if (statement) {
    releaseRawKeys(shape);
    params = statement.sources.map(valueOf);
  } else {
    const built = await buildPage(em, entityName, condition, {
      ...options,
      orderBy: orderBy as never,
      derived,
    });
    releaseRawKeys(shape);
    params = [...built.countParams, ...built.pageParams];
    // The count and the page each take the condition's values once; the page's offset comes
    // last, placed by position since it may equal a value.
    const tail = offset ? [OFFSET] : [];
    const own = built.pageParams.slice(0, built.pageParams.length - tail.length);
    const countSources =
      shape.known && tenantId ? parameterSources(built.countParams, candidates, conditionValues) : undefined;
    const pageSources =
      countSources && tail.every((t, i) => sameValue(built.pageParams[own.length + i], valueOf(t)))
        ? parameterSources(own, candidates, conditionValues)
        : undefined;
    if (countSources && pageSources) {
      statement = { sql: built.sql, sources: [...countSources, ...pageSources, ...tail] };
      if (pageStatements.size >= PAGE_STATEMENTS) pageStatements.delete(pageStatements.keys().next().value!);
      pageStatements.set(key, statement);
    } else statement = { sql: built.sql, sources: [] };
  }
  const rows = await queryRows(em, statement.sql, params);
  const total = Number(rows[0]?.[PAGE_TOTAL] ?? 0);
  // With no row on the page, the join still yields the count beside one row of nulls.
  return { rows: rows[0]?.id === null ? [] : rows, total };
}

/** The page statement made by MikroORM's query builders, with its parameters. */
async function buildPage<T extends object>(
  em: EntityManager,
  entityName: string,
  condition: () => FilterQuery<T>,
  options: ReadOptions<T> & { limit: number; derived: readonly DerivedColumn[] },
): Promise<{ sql: string; countParams: unknown[]; pageParams: unknown[] }> {
  const page = builder(em, entityName, condition())
    .select('*')
    .orderBy(options.orderBy as never);
  for (const d of options.derived) page.addSelect(raw(derivedSelect(d)));
  page.offset(options.offset ?? 0);
  const count = builder(em, entityName, condition()).count();
  await Promise.all([page.applyFilters(), count.applyFilters()]);
  // The page's size is written into the text (knex's skipBinding; MikroORM's limit is always a
  // parameter): with `limit $n` PostgreSQL costs the prepared statement's generic plan for an
  // unknown row count, finds it dearer than a plan made for the values, and so plans the
  // statement anew on every execution. With the size in the text the generic plan is chosen and
  // planning is skipped. Sizes are few, so the texts stay few too.
  const p = page.getKnexQuery().limit(options.limit, { skipBinding: true }).toSQL().toNative();
  const c = count.getKnexQuery().toSQL().toNative();
  // Both are numbered from $1: the page's placeholders move past the count's.
  const shift = c.bindings.length;
  const pageSql = p.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + shift}`);
  return {
    sql: `select c.count as "${PAGE_TOTAL}", p.* from (${c.sql}) as c left join lateral (${pageSql}) as p on true`,
    countParams: [...c.bindings],
    pageParams: [...p.bindings],
  };
}
