import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { badRequest } from '../errors';
import type { FieldInfo } from './fields';
import { isUuid } from './limits';
import { FilterOp, type FilterInput, type SortInput } from './search-input';

/**
 * Turns a dynamic search (terms, filters, sort) into a MikroORM query, checking every field, op
 * and value against what the group allows. Errors name the culprit.
 */

const ORDERED: FilterOp[] = [FilterOp.gt, FilterOp.gte, FilterOp.lt, FilterOp.lte];
const TEXT_OPS: FilterOp[] = [FilterOp.contains, FilterOp.startsWith];

/** Escapes LIKE wildcards so a term matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function coerce(field: FieldInfo, raw: unknown, op: FilterOp): unknown {
  const fail = (what: string): never => {
    throw badRequest(`filter ${field.name}:${op}: ${JSON.stringify(raw)} is not ${what}`);
  };
  switch (field.kind) {
    case 'number':
    case 'integer': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) fail('a number');
      if (field.kind === 'integer' && !Number.isInteger(n)) fail('an integer');
      return n;
    }
    case 'boolean':
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      return fail('true or false');
    case 'datetime': {
      const d = typeof raw === 'string' || typeof raw === 'number' ? new Date(raw) : undefined;
      if (!d || Number.isNaN(d.getTime())) fail('a date-time');
      return d;
    }
    case 'date':
      if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(raw)))
        fail('a date (YYYY-MM-DD)');
      return raw;
    case 'enum':
      if (typeof raw !== 'string' || !field.enumValues!.includes(raw))
        fail(`one of ${field.enumValues!.join(', ')}`);
      return raw;
    case 'uuid':
      if (!isUuid(raw)) fail('an id');
      return raw;
    case 'string':
    case 'list':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      return fail('a string');
  }
}

function condition(field: FieldInfo, filter: FilterInput): FilterQuery<any> {
  const { op } = filter;
  const name = field.name;
  if (op === FilterOp.isNull) return field.kind === 'list' ? { [name]: { $eq: [] } } : { [name]: null };
  if (op === FilterOp.notNull)
    return field.kind === 'list' ? { [name]: { $ne: [] } } : { [name]: { $ne: null } };
  if (filter.value === undefined || filter.value === null) {
    throw badRequest(`filter ${name}:${op} needs a value`);
  }
  if (field.kind === 'list') {
    // A list field matches when it holds the value (eq/contains/in) or does not (ne).
    if (op === FilterOp.in) {
      const values = asList(filter.value, name).map((v) => coerce(field, v, op));
      return { [name]: { $overlap: values } };
    }
    if (op === FilterOp.eq || op === FilterOp.contains)
      return { [name]: { $contains: [coerce(field, filter.value, op)] } };
    if (op === FilterOp.ne) return { $not: { [name]: { $contains: [coerce(field, filter.value, op)] } } };
    throw badRequest(`filter ${name}: the op ${op} does not apply to a list field`);
  }
  if (TEXT_OPS.includes(op)) {
    if (field.kind !== 'string') throw badRequest(`filter ${name}: the op ${op} applies to text fields only`);
    const text = likeEscape(String(coerce(field, filter.value, op)));
    return { [name]: { $ilike: op === FilterOp.contains ? `%${text}%` : `${text}%` } };
  }
  if (ORDERED.includes(op) && (field.kind === 'boolean' || field.kind === 'enum')) {
    throw badRequest(`filter ${name}: the op ${op} does not apply to a ${field.kind} field`);
  }
  switch (op) {
    case FilterOp.eq:
      return { [name]: { $eq: coerce(field, filter.value, op) } };
    case FilterOp.ne:
      // "not equal" keeps records where the field is empty, as a person reading the filter expects.
      return { $or: [{ [name]: { $ne: coerce(field, filter.value, op) } }, { [name]: null }] };
    case FilterOp.in:
      return { [name]: { $in: asList(filter.value, name).map((v) => coerce(field, v, op)) } };
    default:
      return { [name]: { [`$${op}`]: coerce(field, filter.value, op) } };
  }
}

function asList(value: unknown, name: string): unknown[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split('|') : [value];
  if (list.length === 0) throw badRequest(`filter ${name}:in needs at least one value`);
  if (list.length > 1000) throw badRequest(`filter ${name}:in may list at most 1000 values`);
  return list;
}

export function filterWhere(
  fields: Map<string, FieldInfo>,
  filters: readonly FilterInput[] = [],
  entity: string,
): FilterQuery<any>[] {
  return filters.map((f) => {
    const field = fields.get(f.field);
    if (!field) {
      throw badRequest(
        `filter field '${f.field}' does not exist in '${entity}' or cannot be filtered; use one of ${[...fields.keys()].join(', ')}`,
      );
    }
    return condition(field, f);
  });
}

export function searchWhere(
  searchable: readonly string[],
  terms: readonly string[] = [],
): FilterQuery<any>[] {
  const words = terms.map((t) => t.trim()).filter((t) => t.length > 0);
  if (words.length > 0 && searchable.length === 0) return [{ id: null }];
  return words.map((term) => {
    if (term.length > 200) throw badRequest('a search term may be at most 200 characters long');
    const pattern = `%${likeEscape(term)}%`;
    return { $or: searchable.map((f) => ({ [f]: { $ilike: pattern } })) };
  });
}

export function orderBy(
  fields: Map<string, FieldInfo>,
  sort: readonly SortInput[] = [],
  entity: string,
): QueryOrderMap<any>[] {
  return sort.map((s) => {
    if (!fields.has(s.field)) {
      throw badRequest(
        `sort field '${s.field}' does not exist in '${entity}' or cannot be sorted; use one of ${[...fields.keys()].join(', ')}`,
      );
    }
    return { [s.field]: s.ascending === false ? 'desc' : 'asc' };
  });
}
