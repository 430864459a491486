import { badRequest } from '../errors';

/** decisions.md "Limits": page size and id lists are capped so one request cannot drain the database. */
export const MAX_PAGE_SIZE = 1000;
export const MAX_IDS = 1000;
export const DEFAULT_PAGE_SIZE = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export function checkPaging(
  page: number | undefined | null,
  size: number | undefined | null,
  names = ['page', 'size'],
) {
  const p = page ?? 0;
  const s = size ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(p) || p < 0)
    throw badRequest(`${names[0]} must be an integer of 0 or more, got ${p}`);
  if (!Number.isInteger(s) || s < 1 || s > MAX_PAGE_SIZE) {
    throw badRequest(`${names[1]} must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${s}`);
  }
  return { page: p, size: s };
}

/** The well-formed ids of a list, in order; malformed ones can name no record and are dropped. */
export function checkIds(ids: readonly string[], name = 'ids'): string[] {
  if (ids.length > MAX_IDS) throw badRequest(`${name} may hold at most ${MAX_IDS} ids, got ${ids.length}`);
  return ids.filter(isUuid);
}
