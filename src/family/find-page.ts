import type { EntityManager, EntityName, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { toPage, type Page } from '../schema/page';

/**
 * A page of the records of `entity` that match `where`, sorted, with the total: the page and the
 * count go to the request's connection together, as em.findAndCount sends them.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  orderBy: QueryOrderMap<T> | QueryOrderMap<T>[],
  page: number,
  size: number,
): Promise<Page<T>> {
  const [rows, total] = await Promise.all([
    em.find(entity, where, { orderBy, limit: size, offset: page * size }),
    em.count(entity, where),
  ]);
  return toPage(rows, total, page, size, true);
}
