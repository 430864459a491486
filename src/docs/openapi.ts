import { EVENT_ENVELOPE, eventWebhooks } from './event-webhooks';
import {
  GraphQLNonNull,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type FieldNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { IRule } from 'graphql-shield';
import type { CompiledRoute } from '../rest/compile';
import type { ArgSource, RestRoute } from '../rest/route';
import { searchFromBody, searchFromQuery } from '../rest/search-params';
import { describeRule, ruleTree } from '../permissions/rules';
import { SchemaComponents, type JsonSchema } from './json-schema';
import {
  SEARCH_QUERY_NAMES,
  searchBodySchema,
  searchQueryParameters,
  searchRecordType,
  type QueryParameter,
} from './search-docs';

/**
 * The OpenAPI 3.1 document of the REST facade, generated at start-up from the compiled REST
 * table and the GraphQL schema: every row's parameters come from its argument sources and the
 * GraphQL argument types, its body from the GraphQL input type, its response from the return
 * type restricted to the selection the facade actually runs. Nothing here is written per
 * operation, so the document grows with the table and cannot drift from it.
 */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** The events sent to webhook endpoints (docs/event-webhooks.ts). */
  webhooks: Record<string, unknown>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: QueryParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, unknown>;
  'x-graphql-field': string;
  'x-permission'?: string;
  'x-extension'?: true;
};

export const API_BASE = '/api/v1';

/** decisions.md "Errors": every status the service answers with, and when. */
const ERRORS: [status: number, component: string, description: string][] = [
  [
    400,
    'BadRequest',
    'Malformed JSON, a body of the wrong JSON type, a bad, missing or unknown parameter, or failed validation; `detail` names every culprit, and `errors` lists them one by one.',
  ],
  [
    401,
    'Unauthorized',
    'Missing, malformed, expired or wrongly signed credential, or an unknown or inactive user.',
  ],
  [403, 'Forbidden', 'The caller lacks the permission the operation needs.'],
  [404, 'NotFound', 'Unknown path or record (a malformed id, or a record of another tenant, too).'],
  [409, 'Conflict', 'A uniqueness or concurrent-update conflict.'],
  [413, 'PayloadTooLarge', 'The request body is larger than 1 MiB.'],
  [415, 'UnsupportedMediaType', 'The request body is not JSON.'],
  [429, 'TooManyRequests', 'Rate limited; retry after `Retry-After` seconds.'],
  [500, 'InternalServerError', 'An unexpected error; the body never holds a stack trace or SQL.'],
  [503, 'ServiceUnavailable', 'The database is unavailable; retry after `Retry-After` seconds.'],
];

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Segments a family row adds to its group's base path (src/rest/family-routes.ts). */
const FAMILY_SUFFIX_SEGMENTS: Record<string, number> = {
  create: 0,
  'bulk-delete': 0,
  S1: 1,
  S2: 1,
  S3: 2,
  S4: 1,
  S5: 1,
  S6: 1,
  S7: 1,
  S8: 1,
  S9: 1,
  S10: 1,
};

const segments = (p: string) => p.split('/').filter(Boolean);
const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /concepts/find/{id}` -> `getConceptsFindById`: stable, URL-safe, readable. */
export function operationIdOf(route: Pick<RestRoute, 'method' | 'path'>): string {
  const words = segments(route.path).flatMap((s) =>
    s.startsWith('{') ? ['by', s.slice(1, -1)] : s.split(/[^A-Za-z0-9]+/).filter(Boolean),
  );
  return route.method.toLowerCase() + words.map(pascal).join('');
}

function rootField(schema: GraphQLSchema, name: string): GraphQLField<unknown, unknown> {
  const field = schema.getQueryType()?.getFields()[name] ?? schema.getMutationType()?.getFields()[name];
  if (!field) throw new Error(`REST table names GraphQL field "${name}", which the schema does not have`);
  return field;
}

/** The same default as compile.ts: path when the path names the argument, otherwise query. */
function sourceOf(route: RestRoute, arg: GraphQLArgument, pathParams: string[]): ArgSource {
  return route.args?.[arg.name] ?? (pathParams.includes(arg.name) ? { from: 'path' } : { from: 'query' });
}

/** What the operation needs, for people (text) and for tools (`x-permission`). */
function permissionOf(rule: IRule | undefined): { text: string; name: string } | undefined {
  if (!rule) return undefined;
  const { kind, permission } = describeRule(rule);
  if (kind === 'permission' && permission) return { text: `the ${permission} permission`, name: permission };
  if (kind === 'superAdmin') return { text: 'the super-admin role', name: 'SUPER_ADMIN' };
  return { text: 'only a valid credential (the caller’s own records)', name: 'AUTHENTICATED' };
}

/** Groups operations by the family base their path lies under, or else by their first segments. */
function tagger(routes: readonly RestRoute[]): (path: string) => string {
  const bases = new Set<string>();
  for (const r of routes) {
    const drop = r.code ? FAMILY_SUFFIX_SEGMENTS[r.code] : undefined;
    if (drop === undefined) continue;
    const s = segments(r.path);
    bases.add(s.slice(0, s.length - drop).join('/'));
  }
  const namespaces = new Set([...bases].filter((b) => b.includes('/')).map((b) => b.split('/')[0]));
  return (path) => {
    const s = segments(path);
    for (let n = s.length; n > 0; n--) {
      const candidate = s.slice(0, n).join('/');
      if (bases.has(candidate)) return candidate;
    }
    return namespaces.has(s[0]) && s.length > 1 && !s[1].startsWith('{') ? `${s[0]}/${s[1]}` : s[0];
  };
}

/** A body is a value or absent (requestBody.required says which), never JSON null. */
function bodySchema(type: GraphQLInputType, components: SchemaComponents): JsonSchema {
  return components.input(isNonNullType(type) ? type : new GraphQLNonNull(type));
}

function textParameter(
  name: string,
  where: 'path' | 'query',
  type: GraphQLInputType,
  components: SchemaComponents,
  options: { required: boolean; defaultValue?: unknown; description?: string | null },
): QueryParameter {
  const inner = isNonNullType(type) ? type.ofType : type;
  // A parameter is a value or absent: text never reads as null.
  let schema = components.input(new GraphQLNonNull(inner));
  if (options.defaultValue !== undefined) schema = { ...schema, default: options.defaultValue };
  const list = isListType(inner);
  const description = [
    options.description ?? undefined,
    list && where === 'query' ? 'Repeat the parameter or separate the values with commas.' : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name,
    in: where,
    required: where === 'path' ? true : options.required,
    ...(description ? { description } : {}),
    schema,
    ...(list && where === 'query' ? { style: 'form' as const, explode: true } : {}),
  };
}

export function buildOpenApi(schema: GraphQLSchema, compiled: readonly CompiledRoute[]): OpenApiDocument {
  const components = new SchemaComponents();
  const errorRef = components.define('Error', {
    type: 'object',
    description: 'The body of every error response.',
    properties: {
      title: { type: 'string', description: 'A short summary of the status, e.g. "Not Found".' },
      detail: { type: 'string', description: 'What went wrong, naming the culprit field or parameter.' },
      time: { type: 'string', format: 'date-time', description: 'When the error happened (UTC).' },
      status: { type: 'integer', description: 'The HTTP status.' },
      requestId: { type: 'string', description: 'The request id, as in the X-Request-Id header.' },
      errors: {
        type: 'array',
        description:
          'Present on a 400 whose culprits can be named one by one: every bad field, missing or unknown parameter, each with its path and what is wrong with it. `detail` says the same in one sentence.',
        items: {
          type: 'object',
          properties: {
            field: {
              type: 'string',
              description:
                'The field (a path such as `rows[1].quantity`) or parameter at fault; `(request)` for the request as a whole.',
            },
            reason: { type: 'string', description: 'What is wrong with it.' },
          },
          required: ['field', 'reason'],
        },
      },
    },
    required: ['title', 'detail', 'time'],
  });
  const headers: Record<string, unknown> = {
    'X-Request-Id': {
      description: 'The request id: the one sent in X-Request-Id, or a generated one. Logs carry it too.',
      schema: { type: 'string' },
    },
    Location: { description: 'The path of the created record.', required: true, schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
    'WWW-Authenticate': { description: 'How to authenticate: `Bearer`.', schema: { type: 'string' } },
  };
  const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const responses: Record<string, unknown> = {};
  for (const [status, name, description] of ERRORS) {
    const extra =
      status === 401
        ? { 'WWW-Authenticate': headerRef('WWW-Authenticate') }
        : status === 429 || status === 503
          ? { 'Retry-After': headerRef('Retry-After') }
          : {};
    responses[name] = {
      description,
      headers: { 'X-Request-Id': headerRef('X-Request-Id'), ...extra },
      content: { 'application/json': { schema: errorRef } },
    };
  }

  const rules = ruleTree(schema);
  const tagOf = tagger(compiled.map((c) => c.route));
  const tagDescriptions = new Map<string, string>();
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  const ordered = [...compiled].sort(
    (a, b) => a.route.path.localeCompare(b.route.path) || a.route.method.localeCompare(b.route.method),
  );

  for (const { route, document } of ordered) {
    const field = rootField(schema, route.field);
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const parameters: QueryParameter[] = [];
    const add = (p: QueryParameter) => {
      if (!parameters.some((q) => q.name === p.name && q.in === p.in)) parameters.push(p);
    };
    let body: { required: boolean; schema: JsonSchema } | undefined;

    for (const arg of field.args) {
      const source = sourceOf(route, arg, pathParams);
      const required = isNonNullType(arg.type);
      switch (source.from) {
        case 'path':
          add(
            textParameter(source.name ?? arg.name, 'path', arg.type, components, {
              required: true,
              description: arg.description,
            }),
          );
          break;
        case 'query':
          add(
            textParameter(source.name ?? arg.name, 'query', arg.type, components, {
              required: required && source.default === undefined,
              defaultValue: source.default ?? arg.defaultValue,
              description: arg.description,
            }),
          );
          break;
        case 'body':
          body = {
            required: required && source.default === undefined && !source.orQuery,
            schema: bodySchema(arg.type, components),
          };
          // The same fields as query parameters, each optional: the body or the parameters.
          if (source.orQuery) flattenedQuery(arg, components).forEach((p) => add(eitherForm(p)));
          break;
        case 'request':
          if (source.read === searchFromQuery) {
            searchQueryParameters(searchRecordType(field)).forEach(add);
          } else if (source.read === searchFromBody) {
            body = { required: false, schema: searchBodySchema(components, searchRecordType(field)) };
          } else if ((source.in ?? (WITH_BODY.has(route.method) ? 'body' : 'query')) === 'body') {
            body = { required, schema: bodySchema(arg.type, components) };
          } else {
            flattenedQuery(arg, components).forEach(add);
          }
          break;
      }
    }
    for (const name of pathParams) {
      if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
        add({ name, in: 'path', required: true, schema: { type: 'string' } });
      }
    }
    // Path parameters first, in the order the path names them; query parameters as read.
    const rank = (p: QueryParameter) => (p.in === 'path' ? pathParams.indexOf(p.name) : pathParams.length);
    parameters.sort((a, b) => rank(a) - rank(b));

    const operation = document.definitions[0] as OperationDefinitionNode;
    const resultNode = operation.selectionSet.selections[0] as FieldNode;
    const status = route.status ?? 200;
    // A null answer of a nullIs404 row is sent as 404, so the 200 body is never null.
    const resultType =
      route.nullIs404 && !isNonNullType(field.type) ? new GraphQLNonNull(field.type) : field.type;
    const resultSchema = components.output(resultType, resultNode.selectionSet);

    const success: Record<string, unknown> =
      status === 204
        ? { description: 'Done; no content.', headers: { 'X-Request-Id': headerRef('X-Request-Id') } }
        : {
            description: status === 201 ? 'Created.' : 'OK.',
            headers: {
              'X-Request-Id': headerRef('X-Request-Id'),
              ...(status === 201 ? { Location: headerRef('Location') } : {}),
            },
            content: {
              'application/json': { schema: resultSchema },
              ...(route.csv ? { 'text/csv': csvContent(route.csv.filename) } : {}),
            },
          };
    const opResponses: Record<string, unknown> = { [String(status)]: success };
    for (const [code, name] of ERRORS) {
      if ((code === 413 || code === 415) && !body) continue;
      if (code === 409 && route.method === 'GET') continue;
      opResponses[String(code)] = { $ref: `#/components/responses/${name}` };
    }

    const tag = tagOf(route.path);
    if (!tagDescriptions.has(tag)) {
      const named = getNamedType(field.type);
      if (route.code && route.code !== 'custom' && isObjectType(named) && !named.name.endsWith('Page')) {
        tagDescriptions.set(tag, named.description ?? `${named.name} records.`);
      }
    }

    let operationId = operationIdOf(route);
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${operationIdOf(route)}${n}`;
    operationIds.add(operationId);

    const kind = schema.getMutationType()?.getFields()[route.field] ? 'Mutation' : 'Query';
    const permission = permissionOf(rules[kind][route.field]);
    const description = [
      field.description ?? '',
      `GraphQL: \`${kind === 'Mutation' ? 'mutation' : 'query'} { ${route.field} }\`.`,
      permission ? `Needs ${permission.text}.` : '',
      route.extension ? 'Not in the interface specification: an extension of this service.' : '',
    ]
      .filter(Boolean)
      .join('\n\n');

    const op: OpenApiOperation = {
      operationId,
      summary: route.summary ?? field.description ?? `${route.method} ${route.path}`,
      description,
      tags: [tag],
      ...(parameters.length ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              required: body.required,
              content: { 'application/json': { schema: body.schema } },
            },
          }
        : {}),
      responses: opResponses,
      'x-graphql-field': route.field,
      ...(permission ? { 'x-permission': permission.name } : {}),
      ...(route.extension ? { 'x-extension': true as const } : {}),
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = op;
  }

  const tags = [...new Set(Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.tags[0])))]
    .sort()
    .map((name) => ({
      name,
      description: tagDescriptions.get(name) ?? `Operations under \`${API_BASE}/${name}\`.`,
    }));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Business management service',
      version: 'v1',
      description: INFO_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: API_BASE, description: 'This server' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    webhooks: eventWebhooks(components.schemas),
    components: {
      schemas: sortKeys({ ...components.schemas, EventEnvelope: EVENT_ENVELOPE }),
      responses,
      headers,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'HS256 JWT with the claims sub, email, tenantId and exp.',
        },
      },
    },
  };
}

/**
 * Search pieces read from text keep their REST spelling wherever they appear: a sort list is
 * `field,asc;field,desc`, a filter list `field:op:value` (src/rest/search-params.ts).
 */
const SEARCH_PIECES: Record<string, string> = { SortInput: 'sort', FilterInput: 'filters' };

function searchPiece(typeName: string, name: string): QueryParameter | undefined {
  const piece = SEARCH_PIECES[typeName];
  const parameter = piece && searchQueryParameters().find((p) => p.name === piece);
  return parameter ? { ...parameter, name } : undefined;
}

/** The fields of an input object read from the query string, one parameter each. */
function flattenedQuery(arg: GraphQLArgument, components: SchemaComponents): QueryParameter[] {
  const named = getNamedType(arg.type);
  if (!isInputObjectType(named)) {
    return [
      textParameter(arg.name, 'query', arg.type, components, {
        required: isNonNullType(arg.type),
        description: arg.description,
      }),
    ];
  }
  const piece = searchPiece(named.name, arg.name);
  if (piece) return [piece];
  const fields = Object.values(named.getFields());
  const isSearch = ['filters', 'sort'].every((n) => fields.some((f) => f.name === n));
  const out: QueryParameter[] = isSearch ? searchQueryParameters() : [];
  for (const f of fields) {
    if (isSearch && (SEARCH_QUERY_NAMES as readonly string[]).includes(f.name)) continue;
    const leaf = getNamedType(f.type);
    const nested = isInputObjectType(leaf) ? searchPiece(leaf.name, f.name) : undefined;
    if (nested) out.push(nested);
    if (!isScalarType(leaf) && !isEnumType(leaf)) continue;
    out.push(
      textParameter(f.name, 'query', f.type, components, {
        required: isNonNullType(f.type) && f.defaultValue === undefined,
        defaultValue: f.defaultValue,
        description: f.description,
      }),
    );
  }
  return out;
}

/** The CSV itself, for a client that asks for it with `Accept: text/csv`. */
const csvContent = (filename: string) => ({
  schema: {
    type: 'string',
    description: `The same CSV as the JSON string, answered when the request's \`Accept\` ranks \`text/csv\` above \`application/json\`, with \`Content-Disposition: attachment; filename="${filename}"\`.`,
  },
});

/** A parameter of an input that is sent either as a body or as query parameters. */
function eitherForm(p: QueryParameter): QueryParameter {
  const needed = p.required ? ' Required when the request has no body.' : '';
  const text = `${p.description ?? ''} Or send the fields as a JSON body instead (not both).${needed}`;
  return { ...p, required: false, description: text.trim() };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

const INFO_DESCRIPTION = `The REST interface of the multi-tenant business-management service. Every operation runs a
GraphQL operation against the same schema that \`/graphql\` serves; each operation names its GraphQL
field, so the richer GraphQL interface is one step away.

**Credentials.** Every operation takes \`Authorization: Bearer <JWT>\`; the caller's tenant comes
from the token, and records of other tenants behave as if they did not exist.

**Errors.** Error responses carry \`{title, detail, time, status, requestId}\` as JSON; a 400 also
lists each culprit in \`errors\` (\`{field, reason}\`). A query parameter an operation does not
document is a 400 naming it.

**Request ids.** Send \`X-Request-Id\` (letters, digits, \`. _ : -\`, up to 128) to choose the id of a
request; otherwise one is generated. It comes back in the \`X-Request-Id\` header, in error bodies
and in the service's logs.

**Extensions.** Operations marked \`x-extension\` are not in the interface specification.`;
