import type { Request } from 'express';
import { badRequest } from '../errors';
import { FilterOp, type FilterInput, type SearchInput, type SortInput } from '../family/search-input';

/**
 * The two spellings of a dynamic search (docs/conventions.md S6, S7) turned into the one SearchInput the
 * GraphQL core takes. Only syntax is handled here; which fields and values are allowed is the
 * core's business.
 */
const OPS = new Set<string>(Object.values(FilterOp));

/** The names a search reads from the query string; other fields of a search input come after. */
export const SEARCH_QUERY_NAMES = ['search', 'filters', 'sort', 'page', 'size'] as const;

/** Query values that may be repeated (`?a=1&a=2`) arrive as arrays; a single one as a string. */
export function queryList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => {
    if (typeof v !== 'string') throw badRequest(`query parameter ${name} must be text`);
    return v;
  });
}

function queryInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value))
    throw badRequest(`query parameter ${name} must be an integer`);
  return Number(value);
}

/** `field:op:value`; the value may itself hold colons (times), `in` values are split on `|`. */
export function parseFilter(text: string): FilterInput {
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  const field = first < 0 ? text : text.slice(0, first);
  const op = first < 0 ? '' : second < 0 ? text.slice(first + 1) : text.slice(first + 1, second);
  const value = second < 0 ? undefined : text.slice(second + 1);
  if (!field) throw badRequest(`filter "${text}" must be field:op:value`);
  if (!OPS.has(op))
    throw badRequest(`filter "${text}": unknown op "${op}"; use one of ${[...OPS].join(', ')}`);
  if (op !== FilterOp.isNull && op !== FilterOp.notNull && value === undefined) {
    throw badRequest(`filter "${text}" needs a value: field:op:value`);
  }
  return { field, op: op as FilterOp, value: op === FilterOp.in ? value!.split('|') : value };
}

/** `field,asc;other,desc` */
export function parseSort(text: string): SortInput[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((part) => {
      const [field, dir = 'asc', ...rest] = part.split(',').map((p) => p.trim());
      const d = dir.toLowerCase();
      if (!field || rest.length > 0 || (d !== 'asc' && d !== 'desc')) {
        throw badRequest(`sort "${part}" must be field,asc or field,desc`);
      }
      return { field, ascending: d === 'asc' };
    });
}

export function searchFromQuery(req: Request): SearchInput {
  const q = req.query as Record<string, unknown>;
  return {
    search: queryList(q.search, 'search'),
    filters: queryList(q.filters, 'filters').map(parseFilter),
    sort: queryList(q.sort, 'sort').flatMap(parseSort),
    page: queryInt(q.page, 'page'),
    size: queryInt(q.size, 'size'),
  };
}

function filtersFromMap(map: unknown): FilterInput[] {
  if (map === undefined || map === null) return [];
  if (typeof map !== 'object' || Array.isArray(map))
    throw badRequest('filters must be an object of field: condition');
  return Object.entries(map as Record<string, unknown>).flatMap(([field, cond]): FilterInput[] => {
    if (Array.isArray(cond)) return [{ field, op: FilterOp.in, value: cond }];
    if (cond === null) return [{ field, op: FilterOp.isNull }];
    if (typeof cond !== 'object') return [{ field, op: FilterOp.eq, value: cond }];
    return Object.entries(cond as Record<string, unknown>).map(([op, value]) => {
      if (!OPS.has(op))
        throw badRequest(`filters.${field}: unknown op "${op}"; use one of ${[...OPS].join(', ')}`);
      return { field, op: op as FilterOp, value };
    });
  });
}

function intField(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${name} must be an integer`);
  return value;
}

export function searchFromBody(req: Request): SearchInput {
  // No body is an empty search; a body of `null` or any other non-object is refused.
  const b = (req.body === undefined ? {} : req.body) as Record<string, unknown>;
  if (b === null || typeof b !== 'object' || Array.isArray(b))
    throw badRequest('the body must be a JSON object');
  const search =
    b.search === undefined || b.search === null ? [] : Array.isArray(b.search) ? b.search : [b.search];
  if (!search.every((s) => typeof s === 'string')) throw badRequest('search must be a list of strings');
  const sortList = b.sort === undefined || b.sort === null ? [] : Array.isArray(b.sort) ? b.sort : [b.sort];
  const sort = sortList.map((s, i): SortInput => {
    if (typeof s === 'string') return parseSort(s)[0];
    const entry = s as Record<string, unknown>;
    if (!entry || typeof entry.field !== 'string') throw badRequest(`sort[${i}] must be {field, ascending}`);
    if (entry.ascending !== undefined && typeof entry.ascending !== 'boolean')
      throw badRequest(`sort[${i}].ascending must be true or false`);
    return { field: entry.field, ascending: entry.ascending !== false };
  });
  return {
    search: search as string[],
    filters: filtersFromMap(b.filters),
    sort,
    page: intField(b.page, 'page'),
    size: intField(b.size, 'size'),
  };
}
