import { raw, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { Context } from '../context';
import { badRequest } from '../errors';
import { withArticle } from '../schema/descriptions';
import { isUuid } from '../limits';
import { isSortable, OPS_BY_KIND, type FieldInfo } from './fields';
import { FilterOp, type FilterInput, type SortInput } from './search-input';

/**
 * Turns a dynamic search (terms, filters, sort) into a MikroORM query, checking every field, op
 * and value against what the group allows. Errors name the culprit.
 */

const TEXT_OPS: FilterOp[] = [FilterOp.contains, FilterOp.startsWith];

/**
 * The left-hand side of a condition or sort key: the property for a stored value (so MikroORM
 * maps the column and its indexes apply), the SQL expression for a derived one, and for text
 * matches on a column that is not text (an id, a number) its text form. A raw fragment is made
 * for each use: MikroORM recognises one fragment once.
 */
function subject(field: FieldInfo, ctx: Context, asText = false): string {
  if (field.derived)
    return raw(
      (alias: string) => `(${field.derived!(alias, ctx)})${asText ? '::text' : ''}`,
    ) as unknown as string;
  const name = field.property ?? field.name;
  if (asText) return raw((alias: string) => `${alias}.${columnOf(field)}::text`) as unknown as string;
  return name;
}

/** The quoted column of a stored field (fields.ts keeps it beside the property). */
const columnOf = (field: FieldInfo): string => {
  if (!field.column) throw new Error(`${field.name} has no column`);
  return `"${field.column}"`;
};

/** Escapes LIKE wildcards so a term matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function coerce(field: FieldInfo, raw: unknown, op: FilterOp): unknown {
  const fail = (what: string): never => {
    throw badRequest(`filter ${field.name}:${op}: ${JSON.stringify(raw)} is not ${what}`);
  };
  switch (field.valueKind ?? field.kind) {
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
    case 'json':
    case 'objects':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      return fail('a string');
  }
}

function condition(field: FieldInfo, filter: FilterInput, ctx: Context): FilterQuery<any> {
  const { op } = filter;
  const name = field.name;
  if (!OPS_BY_KIND[field.kind].includes(op)) {
    throw badRequest(
      `filter ${name}: the op ${op} does not apply to ${withArticle(field.kind)} field; use one of ${OPS_BY_KIND[field.kind].join(', ')}`,
    );
  }
  if (field.some) return someElement(field, filter, ctx);
  const key = () => subject(field, ctx);
  // An empty list is how a record says it has none: isNull matches it as well as null.
  if (op === FilterOp.isNull)
    return field.kind === 'list' ? { $or: [{ [key()]: null }, { [key()]: { $eq: [] } }] } : { [key()]: null };
  if (op === FilterOp.notNull)
    return field.kind === 'list'
      ? { $and: [{ [key()]: { $ne: null } }, { [key()]: { $ne: [] } }] }
      : { [key()]: { $ne: null } };
  if (filter.value === undefined || filter.value === null) {
    throw badRequest(`filter ${name}:${op} needs a value`);
  }
  if (field.kind === 'list') {
    // A list field matches when it holds the value (eq/contains/in) or does not (ne).
    if (op === FilterOp.in) {
      const values = asList(filter.value, name).map((v) => coerce(field, v, op));
      return { [key()]: { $overlap: values } };
    }
    if (op === FilterOp.eq || op === FilterOp.contains)
      return { [key()]: { $contains: [coerce(field, filter.value, op)] } };
    // ne keeps records whose list is empty or absent, as for any other field.
    return {
      $or: [{ $not: { [key()]: { $contains: [coerce(field, filter.value, op)] } } }, { [key()]: null }],
    };
  }
  if (TEXT_OPS.includes(op)) {
    // Ids are matched by their text form, so a client can find a record by a part of its id.
    // A column that is not text (an id, a number documented as text) is matched by its text form.
    const stored = field.valueKind ?? field.kind;
    const target = stored !== 'string' && stored !== 'enum' ? subject(field, ctx, true) : key();
    return { [target]: { $ilike: likePattern(field, filter.value, op) } };
  }
  switch (op) {
    case FilterOp.eq:
      return { [key()]: { $eq: coerce(field, filter.value, op) } };
    case FilterOp.ne:
      // "not equal" keeps records where the field is empty, as a person reading the filter expects.
      return { $or: [{ [key()]: { $ne: coerce(field, filter.value, op) } }, { [key()]: null }] };
    case FilterOp.in:
      return { [key()]: { $in: asList(filter.value, name).map((v) => coerce(field, v, op)) } };
    default:
      return { [key()]: { [`$${op}`]: coerce(field, filter.value, op) } };
  }
}

/**
 * A condition on a list of objects or a path into its elements (`rows.total:gt:100`): some
 * element's value matches. The negative ops are the negations of their positive twins, so a
 * record with no elements is kept by them: `ne` is "no element equals", `isNull` "no element has
 * a value" (for the list itself: it has no elements), `notNull` "some element has one".
 */
function someElement(field: FieldInfo, filter: FilterInput, ctx: Context): FilterQuery<any> {
  const { op } = filter;
  const holds = (test: (value: string) => string, params: unknown[] = [], negate = false) => ({
    [raw((alias: string) => `${negate ? 'not ' : ''}${field.some!(alias, ctx, test)}`, params)]: [],
  });
  if (op === FilterOp.isNull || op === FilterOp.notNull) {
    const test = field.kind === 'objects' ? () => 'true' : (v: string) => `${v} is not null`;
    return holds(test, [], op === FilterOp.isNull);
  }
  if (filter.value === undefined || filter.value === null)
    throw badRequest(`filter ${field.name}:${op} needs a value`);
  const value = () => coerce(field, filter.value, op);
  switch (op) {
    case FilterOp.eq:
    case FilterOp.ne:
      return holds((v) => `${v} = ?`, [value()], op === FilterOp.ne);
    case FilterOp.in:
      return holds(
        (v) => `${v} = any(?)`,
        [asList(filter.value, field.name).map((v) => coerce(field, v, op))],
      );
    case FilterOp.contains:
    case FilterOp.startsWith:
      return holds((v) => `${v}::text ilike ?`, [likePattern(field, filter.value, op)]);
    default:
      return holds((v) => `${v} ${COMPARISONS[op]} ?`, [value()]);
  }
}

const COMPARISONS: Partial<Record<FilterOp, string>> = {
  [FilterOp.gt]: '>',
  [FilterOp.gte]: '>=',
  [FilterOp.lt]: '<',
  [FilterOp.lte]: '<=',
};

/** The ilike pattern of a contains/startsWith filter, its text escaped. */
function likePattern(field: FieldInfo, value: unknown, op: FilterOp): string {
  const text = likeEscape(typeof value === 'string' ? value : coerceText(field, value, op));
  return op === FilterOp.contains ? `%${text}%` : `${text}%`;
}

/** The text a contains/startsWith compares: numbers and booleans as written, nothing else. */
function coerceText(field: FieldInfo, value: unknown, op: FilterOp): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw badRequest(`filter ${field.name}:${op}: ${JSON.stringify(value)} is not a string`);
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
  ctx: Context,
): FilterQuery<any>[] {
  return filters.map((f) => {
    const field = fields.get(f.field);
    if (!field) throw unknownField(fields, f.field, entity, 'filter');
    return condition(field, f, ctx);
  });
}

/** A 400 for a field the search does not know, naming the dot paths when it names a linked record. */
function unknownField(fields: Map<string, FieldInfo>, name: string, entity: string, what: string): Error {
  const paths = [...fields.keys()].filter((k) => k.startsWith(`${name}.`));
  const hint = paths.length
    ? `; '${name}' is a linked record: name one of its fields, ${paths.join(', ')}`
    : `; use one of ${[...fields.keys()].join(', ')}`;
  return badRequest(`${what} field '${name}' does not exist in '${entity}' or cannot be ${what}ed${hint}`);
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
  ctx: Context,
): QueryOrderMap<any>[] {
  return sort.map((s) => {
    const field = fields.get(s.field);
    if (!field) throw unknownField(fields, s.field, entity, 'sort');
    if (!isSortable(field))
      throw badRequest(
        field.element
          ? `sort field '${s.field}' is ${field.element.field ? `a field of the elements of the list '${field.element.list}'` : 'a list of objects'}: it can be filtered (some element matches) but not sorted`
          : `sort field '${s.field}' is a JSON field: it can be filtered (isNull, notNull, contains) but not sorted`,
      );
    return { [subject(field, ctx)]: s.ascending === false ? 'desc' : 'asc' };
  });
}
