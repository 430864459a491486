import {
  GraphQLNonNull,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { pathParamsOf, sourceOf, type RestRoute } from '../../rest/route';
import { searchFromBody, searchFromQuery } from '../../rest/search-params';
import { argumentLimits, fieldLimits, withLimits, type Limits } from '../input-limits';
import type { JsonSchema, SchemaComponents } from '../json-schema';
import {
  SEARCH_QUERY_NAMES,
  searchBodySchema,
  searchQueryParameters,
  searchRecordType,
  type QueryParameter,
} from '../search-docs';

/**
 * An operation's inputs: its path and query parameters and its request body, each read from the
 * row's argument sources (src/rest/route.ts) and typed by the GraphQL argument it fills.
 */
export interface OperationInputs {
  parameters: QueryParameter[];
  body?: { required: boolean; schema: JsonSchema };
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A body is a value or absent (requestBody.required says which), never JSON null. */
function bodySchema(type: GraphQLInputType, components: SchemaComponents): JsonSchema {
  return components.input(isNonNullType(type) ? type : new GraphQLNonNull(type));
}

function textParameter(
  name: string,
  where: 'path' | 'query',
  type: GraphQLInputType,
  components: SchemaComponents,
  options: { required: boolean; defaultValue?: unknown; description?: string | null; limits: Limits },
): QueryParameter {
  const inner = isNonNullType(type) ? type.ofType : type;
  // A parameter is a value or absent: text never reads as null.
  let schema = withLimits(components.input(new GraphQLNonNull(inner)), options.limits);
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
        limits: argumentLimits(arg.name, arg.type),
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
        limits: fieldLimits(named.name, f.name),
      }),
    );
  }
  return out;
}

/** The parameter as any text: without the id form (`format`, `maxLength`) its type would promise. */
function anyText(p: QueryParameter): QueryParameter {
  const { format: _format, maxLength: _maxLength, ...schema } = p.schema;
  return { ...p, schema };
}

/** A parameter of an input that is sent either as a body or as query parameters. */
function eitherForm(p: QueryParameter): QueryParameter {
  const needed = p.required ? ' Required when the request has no body.' : '';
  const text = `${p.description ?? ''} Or send the fields as a JSON body instead (not both).${needed}`;
  return { ...p, required: false, description: text.trim() };
}

/** The parameters and body of one row, from the arguments of the GraphQL field it runs. */
export function operationInputs(
  route: RestRoute,
  field: GraphQLField<unknown, unknown>,
  components: SchemaComponents,
): OperationInputs {
  const pathParams = pathParamsOf(route);
  const parameters: QueryParameter[] = [];
  const add = (p: QueryParameter) => {
    if (!parameters.some((q) => q.name === p.name && q.in === p.in)) parameters.push(p);
  };
  let body: OperationInputs['body'];
  // A path id of an operation that answers a list or a page filters it ("by" lists): a malformed
  // id matches nothing and answers an empty one (docs/rest-contract.md), so no id form is
  // promised there.
  const result = isNonNullType(field.type) ? field.type.ofType : field.type;
  const listsByFilter = isListType(result) || getNamedType(result).name.endsWith('Page');

  for (const arg of field.args) {
    const source = sourceOf(route, arg.name, pathParams);
    const required = isNonNullType(arg.type);
    switch (source.from) {
      case 'path': {
        const parameter = textParameter(source.name ?? arg.name, 'path', arg.type, components, {
          required: true,
          description: arg.description,
          limits: argumentLimits(arg.name, arg.type),
        });
        add(listsByFilter ? anyText(parameter) : parameter);
        break;
      }
      case 'query':
        add(
          textParameter(source.name ?? arg.name, 'query', arg.type, components, {
            required: required && source.default === undefined,
            defaultValue: source.default ?? arg.defaultValue,
            description: arg.description,
            limits: argumentLimits(arg.name, arg.type),
          }),
        );
        break;
      case 'body':
        body = {
          required: required && source.default === undefined && !source.orQuery,
          schema: withLimits(bodySchema(arg.type, components), argumentLimits(arg.name, arg.type)),
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
          body = {
            required,
            schema: withLimits(bodySchema(arg.type, components), argumentLimits(arg.name, arg.type)),
          };
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
  return { parameters, body };
}

/** Header parameters shared by operations, in `components.parameters`. */
export const parameterComponents: Record<string, unknown> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry of this write safe: the first request with a key runs, and its answer is kept for 24 hours per caller; the same request with the same key gets that answer again (with `Idempotent-Replayed: true`) without running again. The same key with another request is a 422; while the first is still running, a 409.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
};

/** Every write (POST, PUT, PATCH, DELETE) takes an `Idempotency-Key`. */
export const idempotencyKeyRef = { $ref: '#/components/parameters/IdempotencyKey' };
