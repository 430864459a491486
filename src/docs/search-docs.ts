import { FilterOp } from '../family/search-input';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../family/limits';
import type { JsonSchema, SchemaComponents } from './json-schema';

/**
 * The REST spellings of a dynamic search (src/rest/search-params.ts), which differ from the
 * GraphQL SearchInput they are read into: the query string form of S6/S8 and the body form of
 * S7 (decisions.md). Described once here and used by every row whose argument is read with
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
}

export { SEARCH_QUERY_NAMES } from '../rest/search-params';

export function searchQueryParameters(): QueryParameter[] {
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
      description: `Conditions \`field:op:value\` (repeat for several, all must hold). op is one of ${OPS}; \`in\` separates its values with \`|\`; isNull and notNull take no value.`,
      schema: { type: 'array', items: { type: 'string', pattern: '^[^:]+:[A-Za-z]+(:.*)?$' } },
      style: 'form',
      explode: true,
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description: 'Sort keys as `field,asc` or `field,desc`, several joined by `;` or repeated.',
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

/** The S7 body: `filters` as a map of field to condition, sort as {field, ascending} entries. */
export function searchBodySchema(components: SchemaComponents): JsonSchema {
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
