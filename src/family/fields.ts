import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import type { Context } from '../context';
import { FilterOp } from './search-input';

/** `ContactFormWidget` -> `contactFormWidget`: GraphQL field names from type names. */
export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** What a filter, a sort or a search can do with a field depends on its kind. */
export type FieldKind =
  'string' | 'uuid' | 'number' | 'integer' | 'boolean' | 'datetime' | 'date' | 'enum' | 'list';

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
};

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

/** Scalars whose values are JSON documents: neither comparable nor ordered, so not filterable. */
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

/**
 * The filterable and sortable fields of a record, in the order its type declares them: every
 * field whose value is a scalar, an enum or a list of them (those REST answers leave out, such as
 * `version`, included: a search may still name them). Nested objects (the summaries of linked
 * records, stored JSON structures) are left out; their link ids are fields.
 */
export function documentedFields(type: GraphQLObjectType): DocumentedField[] {
  return Object.values(type.getFields()).flatMap((f): DocumentedField[] => {
    const kind = graphqlKind(f.type);
    if (!kind) return [];
    const named = getNamedType(f.type);
    return [
      {
        name: f.name,
        kind,
        nullable: !isNonNullType(f.type),
        enumValues: isEnumType(named) ? named.getValues().map((v) => v.value as string) : undefined,
        description: f.description ?? undefined,
      },
    ];
  });
}

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
): Map<string, FieldInfo> {
  const aliases = new Map(booleanPairs.map(([stored, alias]) => [alias, stored]));
  const infos = new Map<string, FieldInfo>();
  for (const field of documented) {
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
