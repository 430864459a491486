import { raw, type EntityMetadata, type FilterQuery } from '@mikro-orm/core';
import type DataLoader from 'dataloader';
import type { ClassType } from 'type-graphql';
import type { Context } from '../context';
import type { TenantScoped } from '../entities/tenant-scoped';
import { knexRows, queryRows } from '../db/orm-bypass/statements';
import { amongIds, idsValue, selectByIds, selectDetached, tenantStatement } from '../db/orm-bypass/detached';
import { isUuid } from '../limits';

/**
 * DataLoaders for derived fields: whatever the size of a page, each derived field costs one
 * query for the whole page. Made per request (ctx.loaders), within the caller's tenant. What they
 * load are views outside the unit of work (detached.ts): code that changes a record reads it
 * through its service instead.
 */

/** Records of `entity` by id (null when absent or malformed). */
export function loaderById<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
): DataLoader<string, T | null> {
  return ctx.loaders.get<string, T | null>(`byId:${entity.name}`, async (ids) => {
    const valid = [...new Set(ids.filter(isUuid))];
    const rows = valid.length ? await selectByIds<T>(ctx.em, entity.name, valid) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** The records of `entity` whose `field` equals each key (one-to-many). */
export function loaderManyBy<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
  field: keyof T & string,
): DataLoader<string, T[]> {
  return ctx.loaders.get<string, T[]>(`manyBy:${entity.name}.${field}`, async (keys) => {
    const valid = [...new Set(keys.filter(isUuid))];
    const rows = valid.length
      ? await selectDetached<T>(
          ctx.em,
          entity.name,
          { [field]: { $in: valid } } as unknown as FilterQuery<T>,
          {
            orderBy: [{ created: 'asc' }, { id: 'asc' }] as never,
          },
        )
      : [];
    const groups = new Map<string, T[]>();
    for (const row of rows) {
      const key = String(row[field]);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(row);
    }
    return keys.map((k) => groups.get(k) ?? []);
  });
}

type Counted = { k: unknown; v?: unknown; n: number };

/**
 * `count(*)` of the records of `entity` whose `field` is one of `keys` (and that match `where`),
 * grouped by `field` (as `k`) and, when given, by the property `by` (as `v`); one statement
 * whatever the number of keys.
 */
async function groupedCounts<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
  field: keyof T & string,
  keys: readonly string[],
  where: Record<string, unknown>,
  by?: keyof T & string,
): Promise<Counted[]> {
  const valid = [...new Set(keys.filter(isUuid))];
  if (valid.length === 0) return [];
  const columnOf = (meta: EntityMetadata, p: string) =>
    meta.properties[p as keyof typeof meta.properties].fieldNames[0];
  if (Object.keys(where).length === 0) {
    // Nothing but the tenant limits the count: the statement is made once per shape.
    const one = valid.length === 1 ? 'one' : 'many';
    const { sql, tenantId } = tenantStatement(
      ctx.em,
      entity.name,
      `count:${field}:${by ?? ''}:${one}`,
      (meta) => {
        const column = (p: string) => `"e"."${columnOf(meta, p)}"`;
        const grouping = by ? `${column(field)}, ${column(by)}` : column(field);
        return (
          `select ${column(field)} as k${by ? `, ${column(by)} as v` : ''}, count(*)::int as n ` +
          `from "${meta.tableName}" as "e" where "e"."tenant_id" = $1 and ${amongIds(column(field), 2, valid)} ` +
          `group by ${grouping}`
        );
      },
    );
    return (await queryRows(ctx.em, sql, [tenantId, idsValue(valid)])) as Counted[];
  }
  const meta = ctx.em.getMetadata().get(entity.name);
  const column = (p: string) => `e.${columnOf(meta, p)}`;
  const qb = (ctx.em as any).createQueryBuilder(entity.name, 'e');
  const grouping = by ? [column(field), column(by)] : [column(field)];
  qb.select([`${column(field)} as k`, ...(by ? [`${column(by)} as v`] : []), raw('count(*)::int as n')])
    .where({ [field]: { $in: valid }, ...where })
    .groupBy(grouping);
  await qb.applyFilters();
  return (await knexRows(ctx.em, qb.getKnexQuery().toSQL())) as Counted[];
}

/** How many records of `entity` have `field` equal to each key (and match `where`). */
export function loaderCountBy<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
  field: keyof T & string,
  where: Record<string, unknown> = {},
  name = '',
): DataLoader<string, number> {
  return ctx.loaders.get<string, number>(`countBy:${entity.name}.${field}:${name}`, async (keys) => {
    const counts = new Map<string, number>();
    for (const row of await groupedCounts(ctx, entity, field, keys, where))
      counts.set(String(row.k), Number(row.n));
    return keys.map((k) => counts.get(k) ?? 0);
  });
}

/**
 * For each key, how many records of `entity` have `field` equal to it, split by the value of
 * `by` (`{TODO: 2, DONE: 1}`; values with no records are absent). One statement serves a total
 * and any number of per-value counts, where loaderCountBy would need one statement for each.
 */
export function loaderTallyBy<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
  field: keyof T & string,
  by: keyof T & string,
  where: Record<string, unknown> = {},
  name = '',
): DataLoader<string, Record<string, number>> {
  return ctx.loaders.get<string, Record<string, number>>(
    `tallyBy:${entity.name}.${field}.${by}:${name}`,
    async (keys) => {
      const tallies = new Map<string, Record<string, number>>();
      for (const row of await groupedCounts(ctx, entity, field, keys, where, by)) {
        const key = String(row.k);
        if (!tallies.has(key)) tallies.set(key, {});
        tallies.get(key)![String(row.v)] = Number(row.n);
      }
      return keys.map((k) => tallies.get(k) ?? {});
    },
  );
}
