import type { FilterQuery } from '@mikro-orm/core';
import type DataLoader from 'dataloader';
import type { ClassType } from 'type-graphql';
import type { Context } from '../context';
import type { TenantScoped } from '../entities/tenant-scoped';
import { isUuid } from './limits';

/**
 * DataLoaders for derived fields: whatever the size of a page, each derived field costs one
 * query for the whole page. Made per request (ctx.loaders), within the caller's tenant.
 */

/** Records of `entity` by id (null when absent or malformed). */
export function loaderById<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
): DataLoader<string, T | null> {
  return ctx.loaders.get<string, T | null>(`byId:${entity.name}`, async (ids) => {
    const valid = [...new Set(ids.filter(isUuid))];
    const rows = valid.length
      ? await ctx.em.find(entity, { id: { $in: valid } } as unknown as FilterQuery<T>)
      : [];
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
      ? await ctx.em.find(entity, { [field]: { $in: valid } } as unknown as FilterQuery<T>, {
          orderBy: { created: 'asc', id: 'asc' } as never,
        })
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

/** How many records of `entity` have `field` equal to each key (and match `where`). */
export function loaderCountBy<T extends TenantScoped>(
  ctx: Context,
  entity: ClassType<T>,
  field: keyof T & string,
  where: Record<string, unknown> = {},
  name = '',
): DataLoader<string, number> {
  return ctx.loaders.get<string, number>(`countBy:${entity.name}.${field}:${name}`, async (keys) => {
    const valid = [...new Set(keys.filter(isUuid))];
    const counts = new Map<string, number>();
    if (valid.length) {
      const meta = ctx.em.getMetadata().get(entity.name);
      const column = meta.properties[field as keyof typeof meta.properties].fieldNames[0];
      const qb = (ctx.em as any).createQueryBuilder(entity.name, 'e');
      qb.select([`e.${column} as k`, 'count(*)::int as n'])
        .where({ [field]: { $in: valid }, ...where })
        .groupBy(`e.${column}`);
      await qb.applyFilters();
      for (const row of (await qb.execute('all', false)) as { k: string; n: number }[])
        counts.set(String(row.k), Number(row.n));
    }
    return keys.map((k) => counts.get(k) ?? 0);
  });
}
