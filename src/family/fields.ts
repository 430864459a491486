import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import type { Context } from '../context';
import { linkSource, listSource, type LinkSource } from './links';
import { FilterOp } from './search-input';
import { linkedValueSql } from './linked-record-repository';

/** `ContactFormWidget` -> `contactFormWidget`: GraphQL field names from type names. */
export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** What a filter, a sort or a search can do with a field depends on its kind. */
export type FieldKind =
  | 'string'
  | 'uuid'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'datetime'
  | 'date'
  | 'enum'
  | 'list'
  | 'json'
  | 'objects';

const ORDERED = [FilterOp.gt, FilterOp.gte, FilterOp.lt, FilterOp.lte];
const ALWAYS = [FilterOp.eq, FilterOp.ne, FilterOp.in, FilterOp.isNull, FilterOp.notNull];
const TEXT = [...ALWAYS, ...ORDERED, FilterOp.contains, FilterOp.startsWith];

/** The filter ops that fit each kind of field: declared once, enforced by where.ts, published by the docs. */
export const OPS_BY_KIND: Record<FieldKind, readonly FilterOp[]> = {
  string: TEXT,
  uuid: TEXT,
  number: [...ALWAYS, ...ORDERED],
  integer: [...ALWAYS, ...ORDERED],
  datetime: [...ALWAYS, ...ORDERED],
  date: [...ALWAYS, ...ORDERED],
  boolean: ALWAYS,
  enum: ALWAYS,
  list: [...ALWAYS, FilterOp.contains],
  // A JSON structure has no order and no equality a client could spell: whether it is there, and
  // a text match on its JSON form.
  json: [FilterOp.isNull, FilterOp.notNull, FilterOp.contains],
  // A list of objects itself: whether it has elements. Its elements' scalars are fields of their own.
  objects: [FilterOp.isNull, FilterOp.notNull],
};

/**
 * Whether a search may sort by a field: not by a JSON structure, and not by a list of objects or
 * a path into its elements, which has one value per element and no one value to order a record by.
 */
export const isSortable = (field: Pick<DocumentedField, 'kind' | 'element'>): boolean =>
  field.kind !== 'json' && field.kind !== 'objects' && !field.element;

/**
 * A documented field whose value the record does not store: the SQL expression that computes it
 * from the row aliased `alias`, so filters, sorts, counts and paging all see the same value the
 * field resolver answers. `ctx` carries the caller, for values that count only what it may see.
 */
export type DerivedSql = (alias: string, ctx: Context) => string;

/** A field of a record as the documents describe it (the GraphQL type the REST shape comes from). */
export interface DocumentedField {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  enumValues?: string[];
  description?: string;
  /** For `customer.name`: the scalar of the linked record's summary that the dot path names. */
  link?: LinkPath;
  /** For a list of objects (`rows`) and the paths into its elements (`rows.total`). */
  element?: ElementPath;
}

/** A list of objects of a record, or a dot path to a scalar of its elements. */
export interface ElementPath {
  /** The record's field that holds the list (`rows`). */
  list: string;
  /** The element's GraphQL type, whose source says where a list the record does not hold comes from. */
  type: string;
  /** The element's scalar the path names (`total`); absent for the list itself. */
  field?: string;
  /** The record's field holding the ids of the linked records the list shows (`memberIds`). */
  ids?: string;
}

/**
 * SQL that holds when some element of the list satisfies `test`, on the row aliased `alias`:
 * `test` gets the SQL of the element's value, typed as the path's kind (nothing for the list
 * itself), and may hold `?` placeholders, bound by the caller.
 */
export type SomeElementSql = (alias: string, ctx: Context, test: (value: string) => string) => string;

/** A dot path into a nested object that summarises a linked record. */
export interface LinkPath {
  /** The record's field that holds the link's id (`customerId`). */
  id: string;
  /** The field of the summary (`name`). */
  field: string;
  source: LinkSource;
}

export interface FieldInfo extends DocumentedField {
  /**
   * What a value compared with the field must be, when the column is stricter than the document
   * (an id documented as text is a uuid column; a count documented as text a bigint): the
   * documented kind decides the ops, this one the values.
   */
  valueKind?: FieldKind;
  /** The stored property that holds the value (a boolean pair's alias names its stored twin). */
  property?: string;
  /** Its column, for SQL that needs it by name (an id's text form). */
  column?: string;
  /** The SQL that computes a value the record does not store. */
  derived?: DerivedSql;
  /** For a list of objects and the paths into its elements: "some element" as SQL. */
  some?: SomeElementSql;
}

/** Scalars whose values are JSON documents: neither comparable nor ordered (JSON fields). */
const JSON_SCALARS = new Set(['JSON', 'JSONObject']);

function graphqlKind(type: GraphQLOutputType): FieldKind | undefined {
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(type);
  if (isListType(inner)) return isScalarType(named) || isEnumType(named) ? 'list' : undefined;
  if (isEnumType(named)) return 'enum';
  if (!isScalarType(named) || JSON_SCALARS.has(named.name)) return undefined;
  switch (named.name) {
    case 'Int':
      return 'integer';
    case 'Float':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'DateTimeISO':
    case 'DateTime':
      return 'datetime';
    case 'Date':
    case 'LocalDate':
      return 'date';
    default:
      return 'string';
  }
}

const describe = (f: GraphQLField<unknown, unknown>, kind: FieldKind, nullable: boolean) => {
  const named = getNamedType(f.type);
  return {
    name: f.name,
    kind,
    nullable,
    enumValues: isEnumType(named) ? named.getValues().map((v) => v.value as string) : undefined,
    description: f.description ?? undefined,
  };
};

/** The field of `record` that holds the id of the record `field` summarises, if it is a link. */
function linkIdOf(record: GraphQLObjectType, field: GraphQLField<unknown, unknown>): string | undefined {
  const named = getNamedType(field.type);
  if (!isObjectType(named) || !linkSource(named.name)) return undefined;
  const id = (field.extensions?.linkId as string | undefined) ?? `${field.name}Id`;
  return record.getFields()[id] ? id : undefined;
}

/** The field of `record` that holds the ids of the linked records a list of objects shows. */
function linkIdsOf(record: GraphQLObjectType, field: GraphQLField<unknown, unknown>): string | undefined {
  const id = (field.extensions?.linkId as string | undefined) ?? `${field.name.replace(/s$/, '')}Ids`;
  return record.getFields()[id] ? id : undefined;
}

/**
 * A list of objects: the list itself, and a dot path to each scalar or enum of its element type
 * (`rows.total`); the element's nested objects and lists are not paths. Every path may be null:
 * a list may be empty.
 */
function listFields(record: GraphQLObjectType, f: GraphQLField<unknown, unknown>): DocumentedField[] {
  const named = getNamedType(f.type);
  if (!isObjectType(named)) return [];
  const ids = linkSource(named.name) ? linkIdsOf(record, f) : undefined;
  const element: ElementPath = { list: f.name, type: named.name, ...(ids ? { ids } : {}) };
  return [
    { ...describe(f, 'objects', !isNonNullType(f.type)), element },
    ...scalarPaths(f.name, named, (field) => ({ element: { ...element, field } })),
  ];
}

/**
 * A dot path to each scalar or enum of a nested object type (`customer.name`, `rows.total`);
 * lists inside it, and fields marked `searchable: false`, are not paths. Each may be null: the link or the list may be empty.
 */
function scalarPaths(
  parent: string,
  nested: GraphQLObjectType,
  origin: (field: string) => Pick<DocumentedField, 'link' | 'element'>,
): DocumentedField[] {
  return Object.values(nested.getFields()).flatMap((s): DocumentedField[] => {
    const sub = graphqlKind(s.type);
    // A value made for the answer (a shape's download URL) is in no stored JSON to filter.
    if (!sub || sub === 'list' || s.extensions?.searchable === false) return [];
    return [{ ...describe(s, sub, true), name: `${parent}.${s.name}`, ...origin(s.name) }];
  });
}

/**
 * Everything a search can filter on, in the order the type declares it: every field whose value
 * is a scalar, an enum or a list of them (those REST answers leave out, such as `version`,
 * included: a search may still name them); every scalar of a nested object that summarises a
 * linked record, by its dot path (`customer.name`); as JSON fields, the JSON values and nested
 * objects the record holds itself; and every list of objects, with a dot path to each scalar of
 * its elements (`rows.total`), matched by "some element".
 */
export function filterableFields(type: GraphQLObjectType): DocumentedField[] {
  return Object.values(type.getFields()).flatMap((f): DocumentedField[] => {
    // A field that takes arguments (a record's paged `history`) is a query of its own, not a value.
    if (f.args.length > 0) return [];
    const kind = graphqlKind(f.type);
    if (kind) return [describe(f, kind, !isNonNullType(f.type))];
    const named = getNamedType(f.type);
    const inner = isNonNullType(f.type) ? f.type.ofType : f.type;
    if (isListType(inner)) return listFields(type, f);
    if (JSON_SCALARS.has(named.name)) return [describe(f, 'json', !isNonNullType(f.type))];
    if (!isObjectType(named)) return [];
    const id = linkIdOf(type, f);
    if (!id) return [describe(f, 'json', !isNonNullType(f.type))];
    const source = linkSource(named.name)!;
    // A link may be empty or name a record the caller may not see: every path may be null.
    return scalarPaths(f.name, named, (field) => ({ link: { id, field, source } }));
  });
}

/**
 * The record's own scalar fields (filterableFields without dot paths, JSON fields and lists of
 * objects): the columns of a CSV export and the fields of a REST answer.
 */
export const documentedFields = (type: GraphQLObjectType): DocumentedField[] =>
  filterableFields(type).filter((f) => !f.link && !f.element && f.kind !== 'json');

export function kindOf(prop: EntityProperty): FieldKind {
  if (prop.enum) return 'enum';
  const column = (prop.columnTypes?.[0] ?? String(prop.type)).toLowerCase();
  if (column.endsWith('[]')) return 'list';
  if (column === 'uuid') return 'uuid';
  if (column.startsWith('timestamp')) return 'datetime';
  if (column === 'date') return 'date';
  if (column === 'boolean') return 'boolean';
  if (/^(int|integer|smallint|bigint)/.test(column)) return 'integer';
  if (/^(numeric|decimal|double|real|float)/.test(column)) return 'number';
  return 'string';
}

/**
 * Where each documented field's value comes from: a stored column (whose type decides what a
 * value compared with it must be, so an id documented as text is still compared as a uuid), the stored twin of a
 * boolean alias, or the group's SQL for a derived value. A documented field with none of these
 * is a programming error, caught when the group is first searched.
 */
export function searchFields(
  meta: EntityMetadata,
  documented: readonly DocumentedField[],
  derived: Readonly<Record<string, DerivedSql>> = {},
  booleanPairs: readonly (readonly [string, string])[] = [],
  metaOf: (entity: string) => EntityMetadata = () => {
    throw new Error(`${meta.className}: searchFields needs the metadata of linked records`);
  },
): Map<string, FieldInfo> {
  const aliases = new Map(booleanPairs.map(([stored, alias]) => [alias, stored]));
  const infos = new Map<string, FieldInfo>();
  for (const field of documented) {
    if (field.link) {
      infos.set(field.name, linkedField(meta, field, field.link, metaOf(field.link.source.entity)));
      continue;
    }
    if (field.element) {
      infos.set(field.name, elementField(meta, field, field.element, metaOf));
      continue;
    }
    const sql = derived[field.name];
    const name = aliases.get(field.name) ?? field.name;
    const prop = meta.properties[name as keyof typeof meta.properties] as EntityProperty | undefined;
    if (sql) infos.set(field.name, { ...field, derived: sql });
    else if (prop && prop.persist !== false && prop.kind === 'scalar') {
      const kind = kindOf(prop);
      infos.set(field.name, {
        ...field,
        valueKind: field.kind === 'list' || kind === 'string' ? field.kind : kind,
        enumValues: field.enumValues ?? (kind === 'enum' ? (prop.items as string[]) : undefined),
        property: name,
        column: prop.fieldNames[0],
      });
    } else {
      throw new Error(
        `${meta.className}.${field.name} is documented but neither stored nor derived: give its group a derived SQL expression`,
      );
    }
  }
  for (const name of Object.keys(derived)) {
    if (!infos.has(name)) throw new Error(`${meta.className} derives "${name}", which it does not document`);
  }
  return infos;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The column of a stored scalar property, or a programming error naming it. */
function storedColumn(meta: EntityMetadata, name: string): { prop: EntityProperty; column: string } {
  const prop = meta.properties[name as keyof typeof meta.properties] as EntityProperty | undefined;
  if (!prop || prop.persist === false || prop.kind !== 'scalar')
    throw new Error(`${meta.className}.${name} is not a stored column`);
  return { prop, column: quoted(prop.fieldNames[0]) };
}

/**
 * A dot path into a linked record's summary, as a correlated subquery on the linked row of the
 * same tenant (its primary key), so it filters, sorts and counts in the statement that pages.
 * The value is null when the link is empty or names a row the caller may not see, as the
 * field resolver answers.
 */
function linkedField(
  meta: EntityMetadata,
  field: DocumentedField,
  link: LinkPath,
  target: EntityMetadata,
): FieldInfo {
  const id = storedColumn(meta, link.id).column;
  const own = link.source.derived?.[link.field];
  const stored = own ? undefined : storedColumn(target, link.field);
  const kind = stored ? kindOf(stored.prop) : undefined;
  const table = quoted(target.tableName);
  const sql: DerivedSql = (a, ctx) => {
    const value = own ? own('lk') : `lk.${stored!.column}`;
    const visible = link.source.visible ? ` and ${link.source.visible('lk', ctx)}` : '';
    return linkedValueSql(value, table, a, id, visible);
  };
  return {
    ...field,
    ...(kind && kind !== 'string' && field.kind !== 'list' ? { valueKind: kind } : {}),
    derived: sql,
  };
}

/** Where the elements of a list come from: `from ... where ...`, each aliased `el`, and their values. */
interface Elements {
  from: (alias: string, ctx: Context) => string;
  /** The SQL of an element's scalar, typed as its kind, and what a value compared with it must be. */
  value: (field: string, kind: FieldKind) => { sql: string; valueKind?: FieldKind };
}

/** A JSON value of an element typed as `kind`: null when the element holds none of that type. */
function jsonValue(field: string, kind: FieldKind): string {
  const key = `'${field.replace(/'/g, "''")}'`;
  const text = `(el.v ->> ${key})`;
  const typed = (json: string, cast: string) =>
    `(case when jsonb_typeof(el.v -> ${key}) = '${json}' then ${text}::${cast} end)`;
  switch (kind) {
    case 'number':
    case 'integer':
      return typed('number', 'numeric');
    case 'boolean':
      return typed('boolean', 'boolean');
    // Only text shaped as a date is cast, so an odd value reads as no value rather than failing.
    case 'datetime':
      return `(case when ${text} ~ '^\\d{4}-\\d{2}-\\d{2}' then ${text}::timestamptz end)`;
    case 'date':
      return `(case when ${text} ~ '^\\d{4}-\\d{2}-\\d{2}' then ${text}::date end)`;
    default:
      return text;
  }
}

/**
 * The elements of a list of objects: those of the record's own JSON column, the linked records of
 * the same tenant its ids name (as the field resolver loads them), or the rows its element type's
 * registered source selects (links.ts). A list with none of these is a programming error.
 */
function elementsOf(
  meta: EntityMetadata,
  element: ElementPath,
  metaOf: (entity: string) => EntityMetadata,
): Elements {
  const prop = meta.properties[element.list as keyof typeof meta.properties] as EntityProperty | undefined;
  if (
    prop &&
    prop.persist !== false &&
    prop.kind === 'scalar' &&
    /^jsonb?$/.test(String(prop.columnTypes?.[0]))
  ) {
    const column = quoted(prop.fieldNames[0]);
    return {
      from: (a) =>
        `from jsonb_array_elements(case jsonb_typeof(${a}.${column}) when 'array' then ${a}.${column} else '[]'::jsonb end) as el(v) where true`,
      value: (field, kind) => ({ sql: jsonValue(field, kind) }),
    };
  }
  const link = linkSource(element.type);
  if (link && element.ids) {
    const ids = storedColumn(meta, element.ids).column;
    const target = metaOf(link.entity);
    const table = quoted(target.tableName);
    return {
      from: (a, ctx) =>
        `from ${table} el where el.tenant_id = ${a}.tenant_id and el.id::text = any(${a}.${ids}::text[])${
          link.visible ? ` and ${link.visible('el', ctx)}` : ''
        }`,
      value: (field) => {
        const own = link.derived?.[field];
        if (own) return { sql: own('el') };
        const stored = storedColumn(target, field);
        const kind = kindOf(stored.prop);
        return { sql: `el.${stored.column}`, ...(kind !== 'string' ? { valueKind: kind } : {}) };
      },
    };
  }
  const source = listSource(element.type);
  if (source)
    return {
      from: (a, ctx) => `from (${source.elements(a, ctx)}) as el where true`,
      value: (field) => ({ sql: `el.${quoted(field)}` }),
    };
  throw new Error(
    `${meta.className}.${element.list} is a list of ${element.type} that is neither stored as JSON, nor linked records by ids, nor registered with registerListSource`,
  );
}

/**
 * A list of objects or a path into its elements, as an EXISTS over the elements of the record's
 * own row or of its tenant's rows, so ids in elements never reach another tenant's records.
 */
function elementField(
  meta: EntityMetadata,
  field: DocumentedField,
  element: ElementPath,
  metaOf: (entity: string) => EntityMetadata,
): FieldInfo {
  const elements = elementsOf(meta, element, metaOf);
  const value = element.field ? elements.value(element.field, field.kind) : undefined;
  return {
    ...field,
    ...(value?.valueKind ? { valueKind: value.valueKind } : {}),
    some: (a, ctx, test) => `exists (select 1 ${elements.from(a, ctx)} and (${test(value?.sql ?? '')}))`,
  };
}
