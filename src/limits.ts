import { badRequest } from './errors';

/** docs/conventions.md "Limits": page size and id lists are capped so one request cannot drain the database. */
export const MAX_PAGE_SIZE = 1000;
export const MAX_IDS = 1000;
export const DEFAULT_PAGE_SIZE = 20;

/** A limit below as JSON Schema keywords, for the OpenAPI document to state. */
export interface NumberLimits {
  minimum?: number;
  maximum?: number;
  maxItems?: number;
}
const PAGE_NUMBER = { minimum: 0 } as const;
const PAGE_SIZE = { minimum: 1, maximum: MAX_PAGE_SIZE } as const;

/**
 * The checks below by the names of the arguments they are applied to: every `page`/`pageNumber`
 * and `size`/`pageSize` argument goes through checkPaging, every `ids` argument through checkIds.
 */
export const ARGUMENT_LIMITS: Record<string, NumberLimits> = {
  page: PAGE_NUMBER,
  pageNumber: PAGE_NUMBER,
  size: PAGE_SIZE,
  pageSize: PAGE_SIZE,
  ids: { maxItems: MAX_IDS },
};
/** Arguments read with checkIds, which skips a malformed id (it names no record) rather than refusing it. */
export const LENIENT_ID_LISTS: readonly string[] = ['ids'];
/** Input types whose `page` and `size` fields go through checkPaging too. */
export const PAGED_INPUTS: readonly string[] = ['SearchInput'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export function checkPaging(
  page: number | undefined | null,
  size: number | undefined | null,
  names = ['page', 'size'],
) {
  const p = page ?? 0;
  const s = size ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(p) || p < PAGE_NUMBER.minimum)
    throw badRequest(`${names[0]} must be an integer of 0 or more, got ${p}`);
  if (!Number.isInteger(s) || s < PAGE_SIZE.minimum || s > PAGE_SIZE.maximum) {
    throw badRequest(
      `${names[1]} must be an integer from ${PAGE_SIZE.minimum} to ${PAGE_SIZE.maximum}, got ${s}`,
    );
  }
  return { page: p, size: s };
}

/** The well-formed ids of a list, in order; malformed ones can name no record and are dropped. */
export function checkIds(ids: readonly string[], name = 'ids'): string[] {
  if (ids.length > MAX_IDS) throw badRequest(`${name} may hold at most ${MAX_IDS} ids, got ${ids.length}`);
  return ids.filter(isUuid);
}
