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
import { linkSource, type LinkSource } from './links';
import { FilterOp } from './search-input';

/** `ContactFormWidget` -> `contactFormWidget`: GraphQL field names from type names. */
export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** What a filter, a sort or a search can do with a field depends on its kind. */
export type FieldKind =
  'string' | 'uuid' | 'number' | 'integer' | 'boolean' | 'datetime' | 'date' | 'enum' | 'list' | 'json';

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
};

/** Kinds a search may sort by: all but JSON structures. */
export const isSortable = (kind: FieldKind): boolean => kind !== 'json';

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
}

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

/**
 * Everything a search can filter on, in the order the type declares it: every field whose value
 * is a scalar, an enum or a list of them (those REST answers leave out, such as `version`,
 * included: a search may still name them); every scalar of a nested object that summarises a
 * linked record, by its dot path (`customer.name`); and, as JSON fields, the JSON values and
 * nested objects the record holds itself. Lists of objects are not fields.
 */
export function filterableFields(type: GraphQLObjectType): DocumentedField[] {
  return Object.values(type.getFields()).flatMap((f): DocumentedField[] => {
    const kind = graphqlKind(f.type);
    if (kind) return [describe(f, kind, !isNonNullType(f.type))];
    const named = getNamedType(f.type);
    const inner = isNonNullType(f.type) ? f.type.ofType : f.type;
    if (isListType(inner)) return [];
    if (JSON_SCALARS.has(named.name)) return [describe(f, 'json', !isNonNullType(f.type))];
    if (!isObjectType(named)) return [];
    const id = linkIdOf(type, f);
    if (!id) return [describe(f, 'json', !isNonNullType(f.type))];
    const source = linkSource(named.name)!;
    // A link may be empty or name a record the caller may not see: every path may be null.
    return Object.values(named.getFields()).flatMap((s): DocumentedField[] => {
      const sub = graphqlKind(s.type);
      if (!sub || sub === 'list') return [];
      return [
        {
          ...describe(s, sub, true),
          name: `${f.name}.${s.name}`,
          link: { id, field: s.name, source },
        },
      ];
    });
  });
}

/**
 * The record's own scalar fields (filterableFields without dot paths and JSON fields): the
 * columns of a CSV export and the fields of a REST answer.
 */
export const documentedFields = (type: GraphQLObjectType): DocumentedField[] =>
  filterableFields(type).filter((f) => !f.link && f.kind !== 'json');

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
    return `select ${value} from ${table} lk where lk.tenant_id = ${a}.tenant_id and lk.id = ${a}.${id}${visible}`;
  };
  return {
    ...field,
    ...(kind && kind !== 'string' && field.kind !== 'list' ? { valueKind: kind } : {}),
    derived: sql,
  };
}
