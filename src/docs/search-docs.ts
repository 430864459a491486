import {
  getNamedType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { FilterOp } from '../family/search-input';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../limits';
import {
  filterableFields,
  isSortable,
  OPS_BY_KIND,
  type DocumentedField,
  type FieldKind,
} from '../family/fields';
import { isRecordType } from '../family/record-types';
import type { JsonSchema, SchemaComponents } from './json-schema';

/**
 * The REST spellings of a dynamic search (src/rest/search-params.ts), which differ from the
 * GraphQL SearchInput they are read into: the query string form of S6/S8 and the body form of
 * S7 (docs/conventions.md). Described once here and used by every row whose argument is read with
 * searchFromQuery or searchFromBody.
 */
const OPS = Object.values(FilterOp).join(', ');

export interface QueryParameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'form' | 'simple';
  explode?: boolean;
  /** A search's fields as data: name to type, enum values and ops. */
  'x-search-fields'?: Record<string, { kind: string; ops: string[] }>;
}

export { SEARCH_QUERY_NAMES } from '../rest/search-params';

/** How the documents name each kind of field; ids and other text columns are all text. */
const KIND_NAMES: Record<Exclude<FieldKind, 'uuid'>, string> = {
  string: 'text',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  datetime: 'date-time',
  date: 'date',
  enum: 'enum',
  list: 'list',
  json: 'JSON',
  objects: 'list of objects',
};
const kindName = (kind: FieldKind) => KIND_NAMES[kind === 'uuid' ? 'string' : kind];

/** The ops of each kind of field, as one sentence (from fields.ts OPS_BY_KIND). */
export function opsByKindText(): string {
  return (Object.keys(KIND_NAMES) as (keyof typeof KIND_NAMES)[])
    .map((k) => `${KIND_NAMES[k]}: ${OPS_BY_KIND[k].join(' ')}`)
    .join('; ');
}

/**
 * The record a family search answers pages of (`searchFeatures` -> Feature), when it is a
 * group's record: those searches filter and sort on the record's documented fields (fields.ts).
 * Other searches (product stock, batches, the enriched transfer form) name their own fields.
 */
export function searchRecordType(field: GraphQLField<unknown, unknown>): GraphQLObjectType | undefined {
  const page = getNamedType(field.type);
  const content = isObjectType(page) ? page.getFields().content : undefined;
  const record = content && getNamedType(content.type);
  return record && isObjectType(record) && isRecordType(record.name) ? record : undefined;
}

const fieldText = (f: DocumentedField) =>
  `\`${f.name}\` (${kindName(f.kind)}${f.kind === 'enum' && f.enumValues ? `: ${f.enumValues.join(', ')}` : ''})`;

/** The filterable and sortable fields of `record`, for a parameter's or a body's description. */
function fieldsText(record: GraphQLObjectType): string {
  return `Filterable and sortable fields: ${filterableFields(record).map(fieldText).join(', ')}. JSON fields, lists of objects and paths into their elements (\`rows.total\`, matched when some element matches) filter but do not sort. Ops by type: ${opsByKindText()}.`;
}

/**
 * The same, as data: field name to its kind and ops (an `x-search-fields` extension). The key is
 * `kind`, not `type`: OpenAPI linters read any object with a `type` as a schema.
 */
function fieldsExtension(record: GraphQLObjectType): Record<string, { kind: string; ops: string[] }> {
  return Object.fromEntries(
    filterableFields(record).map((f) => [
      f.name,
      {
        kind: kindName(f.kind),
        ...(f.enumValues ? { enum: f.enumValues } : {}),
        ops: [...OPS_BY_KIND[f.kind]],
      },
    ]),
  );
}

export function searchQueryParameters(record?: GraphQLObjectType): QueryParameter[] {
  const fields = record ? ` ${fieldsText(record)}` : '';
  const names = record
    ? filterableFields(record)
        .filter((f) => isSortable(f))
        .map((f) => f.name)
    : undefined;
  return [
    {
      name: 'search',
      in: 'query',
      required: false,
      description:
        'Search terms (repeat the parameter for several); every term must occur, ignoring case, in one of the searchable text fields.',
      schema: { type: 'array', items: { type: 'string' } },
      style: 'form',
      explode: true,
    },
    {
      name: 'filters',
      in: 'query',
      required: false,
      description: `Conditions \`field:op:value\` (repeat for several, all must hold). op is one of ${OPS}; \`in\` separates its values with \`|\`; isNull and notNull take no value.${fields}`,
      schema: { type: 'array', items: { type: 'string', pattern: '^[^:]+:[A-Za-z]+(:.*)?$' } },
      ...(record ? { 'x-search-fields': fieldsExtension(record) } : {}),
      style: 'form',
      explode: true,
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description: `Sort keys as \`field,asc\` or \`field,desc\`, several joined by \`;\` or repeated.${names ? ` Sortable fields: ${names.join(', ')}.` : ''}`,
      schema: { type: 'array', items: { type: 'string' } },
      style: 'form',
      explode: true,
    },
    {
      name: 'page',
      in: 'query',
      required: false,
      description: '0-based page number.',
      schema: { type: 'integer', format: 'int32', minimum: 0, default: 0 },
    },
    {
      name: 'size',
      in: 'query',
      required: false,
      description: `Page size, at most ${MAX_PAGE_SIZE}.`,
      schema: {
        type: 'integer',
        format: 'int32',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
      },
    },
  ];
}

/**
 * The S7 body: `filters` as a map of field to condition, sort as {field, ascending} entries;
 * for a group's record, described with its filterable and sortable fields.
 */
export function searchBodySchema(components: SchemaComponents, record?: GraphQLObjectType): JsonSchema {
  const shared = sharedBodySchema(components);
  return record
    ? { ...shared, description: fieldsText(record), 'x-search-fields': fieldsExtension(record) }
    : shared;
}

function sharedBodySchema(components: SchemaComponents): JsonSchema {
  const condition = components.define('DynamicSearchCondition', {
    description: `A scalar means eq, an array means in, null means isNull; an object holds operators as keys (${OPS}), e.g. {"gte": 3}.`,
  });
  const sort = components.define('DynamicSearchSort', {
    type: 'object',
    description: 'One sort key; `field,asc` / `field,desc` strings are accepted too.',
    properties: {
      field: { type: 'string' },
      ascending: { type: 'boolean', default: true },
    },
    required: ['field'],
  });
  return components.define('DynamicSearchRequest', {
    type: 'object',
    description: 'A dynamic search: every term must match, every filter must hold.',
    properties: {
      search: {
        description: 'Terms; each must occur, ignoring case, in a searchable text field.',
        anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
      },
      filters: {
        type: 'object',
        description: 'Field name to condition.',
        additionalProperties: condition,
      },
      sort: { type: 'array', items: { anyOf: [sort, { type: 'string' }] } },
      page: { type: 'integer', format: 'int32', minimum: 0, default: 0 },
      size: {
        type: 'integer',
        format: 'int32',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
      },
    },
  });
}

/**
 * docs/search.md: per group, the filterable and sortable fields with their types and ops, made
 * from the same field lists the service filters on (scripts/export-search-docs.mjs writes it; a
 * test fails when it is out of date).
 */
export interface SearchDocGroup {
  /** The record's type name. */
  record: string;
  /** The REST dynamic search, when the group publishes one, and its methods. */
  path?: string;
  methods: readonly string[];
  /** Fields computed in SQL rather than stored. */
  derived: readonly string[];
}

export function searchMarkdown(schema: GraphQLSchema, records: readonly SearchDocGroup[]): string {
  const lines = [
    '# Dynamic search: fields and ops',
    '',
    "<!-- Generated by `npm run docs:search` from the records' GraphQL types; do not edit. -->",
    '',
    "Every field a record documents, stored or derived (counts, progress, overdue days), can be used in a dynamic search's filters and as a sort key; derived values are computed in SQL, so pages and totals agree. `contains` and `startsWith` match ids and other non-text columns by their text form; `isNull` also matches an empty list.",
    '',
    "The nested objects that summarise a linked record (a lead's `customer`, a feature's `epic`) are searched by a dot path to each of their scalars: `customer.name:contains:acme`, `sort=customer.name,asc`. Each is read in the same statement from the linked record of the same tenant, so pages and totals agree; it is empty (null) when the link is empty or names a record the caller may not see, as the nested object is.",
    '',
    "Lists of objects (an invoice's `rows`, a record's `events`, a team's `members`) are searched by a dot path to each scalar of their elements, with the ops of that scalar's type: `rows.productId:eq:<id>`, `rows.total:gt:100`, `payments.date:lt:2026-01-01`. A condition holds when some element matches it, computed in SQL over the record's own elements (a list the record holds as JSON, each value read as the path's type) or over its tenant's rows (linked records named by the record's ids, a list computed from another table). The negative ops are the negations of their positive twins, so they keep records without elements: `ne` means no element equals the value, `isNull` no element has a value, `notNull` some element has one. The list itself takes `isNull` (no elements) and `notNull` (at least one). Nested objects and lists inside an element are not paths. Neither the list nor its paths can be sorted (one value per element, none per record): such a sort is a 400 naming the field.",
    '',
    "JSON fields (a JSON value, or a nested object the record holds itself, such as a lead's `address`) take `isNull`, `notNull` and `contains`, which matches the field's JSON text (keys included) ignoring case; they cannot be sorted, and any other op is refused with a 400.",
    '',
    'The CSV export of a group has one column per field below that is neither a dot path, a JSON field nor a list of objects, in this order, with the nested objects the record holds flattened as `a.b` where they stand in the type; a list of objects the record holds itself is one column of JSON.',
    '',
    '## Ops by type',
    '',
    '| Type | Ops |',
    '| ---- | --- |',
    ...(Object.keys(KIND_NAMES) as (keyof typeof KIND_NAMES)[]).map(
      (k) => `| ${KIND_NAMES[k]} | ${OPS_BY_KIND[k].map((o) => `\`${o}\``).join(' ')} |`,
    ),
  ];
  for (const group of records) {
    const type = schema.getType(group.record);
    if (!isObjectType(type)) continue;
    lines.push('', `## ${group.record}`, '');
    lines.push(
      group.path
        ? `${group.methods.join(' and ')} \`${group.path}\``
        : 'No REST dynamic search: GraphQL `search` only.',
      '',
    );
    lines.push('| Field | Type | Nullable | Derived |', '| ----- | ---- | -------- | ------- |');
    for (const f of filterableFields(type)) {
      const kind = f.kind === 'enum' && f.enumValues ? `enum: ${f.enumValues.join(', ')}` : kindName(f.kind);
      const derived = group.derived.includes(f.name)
        ? 'yes'
        : f.link
          ? `from \`${f.link.id}\``
          : f.element?.field
            ? `some element of \`${f.element.list}\``
            : '';
      lines.push(`| \`${f.name}\` | ${kind} | ${f.nullable ? 'yes' : 'no'} | ${derived} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
