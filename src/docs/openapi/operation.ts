import {
  GraphQLNonNull,
  isNonNullType,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { IRule } from 'graphql-shield';
import type { CompiledRoute } from '../../rest/compile';
import { takesIdempotencyKey, type RestRoute } from '../../rest/route';
import { describeRule } from '../../permissions/rules';
import type { SchemaComponents } from '../json-schema';
import { idempotencyKeyRef, operationInputs } from './parameters';
import { operationResponses } from './responses';
import { segments } from './tags';
import type { OpenApiOperation } from './types';

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** What a 204 answer means: done, nothing in the body; for a row that 404s on a miss, also that. */
function noContentText(route: RestRoute): string {
  const miss = route.nullIs404 ? ' A record that does not exist (for this caller) is a 404.' : '';
  return `Answers 204 with no body when done.${miss}`;
}

/** `GET /concepts/find/{id}` -> `getConceptsFindById`: stable, URL-safe, readable. */
export function operationIdOf(route: Pick<RestRoute, 'method' | 'path'>): string {
  const words = segments(route.path).flatMap((s) =>
    s.startsWith('{') ? ['by', s.slice(1, -1)] : s.split(/[^A-Za-z0-9]+/).filter(Boolean),
  );
  return route.method.toLowerCase() + words.map(pascal).join('');
}

export function rootField(schema: GraphQLSchema, name: string): GraphQLField<unknown, unknown> {
  const field = schema.getQueryType()?.getFields()[name] ?? schema.getMutationType()?.getFields()[name];
  if (!field) throw new Error(`REST table names GraphQL field "${name}", which the schema does not have`);
  return field;
}

/** What the operation needs, for people (text) and for tools (`x-permission`). */
function permissionOf(rule: IRule | undefined): { text: string; name: string } | undefined {
  if (!rule) return undefined;
  const { kind, permission } = describeRule(rule);
  if (kind === 'permission' && permission) return { text: `the ${permission} permission`, name: permission };
  if (kind === 'superAdmin') return { text: 'the super-admin role', name: 'SUPER_ADMIN' };
  return { text: 'only a valid credential (the caller’s own records)', name: 'AUTHENTICATED' };
}

export interface OperationContext {
  schema: GraphQLSchema;
  components: SchemaComponents;
  rules: Record<'Query' | 'Mutation', Record<string, IRule>>;
}

/** One operation of the document, from one compiled row; its id and tag are chosen by the caller. */
export function buildOperation(
  { route, document }: CompiledRoute,
  { schema, components, rules }: OperationContext,
  operationId: string,
  tag: string,
): OpenApiOperation {
  const field = rootField(schema, route.field);
  const { parameters, body } = operationInputs(route, field, components);

  const operation = document.definitions[0] as OperationDefinitionNode;
  const resultNode = operation.selectionSet.selections[0] as FieldNode;
  // A null answer of a nullIs404 row is sent as 404, so the 200 body is never null.
  const resultType =
    route.nullIs404 && !isNonNullType(field.type) ? new GraphQLNonNull(field.type) : field.type;
  const resultSchema = components.output(resultType, resultNode.selectionSet);

  const kind = schema.getMutationType()?.getFields()[route.field] ? 'Mutation' : 'Query';
  const permission = permissionOf(rules[kind][route.field]);
  const graphql = `GraphQL: \`${kind === 'Mutation' ? 'mutation' : 'query'} { ${route.field} }\``;
  // A 204 row sends no body, so what the GraphQL field returns (a count, a flag, a list) is
  // said of GraphQL only, and the operation is described by what its status means.
  const noContent = (route.status ?? 200) === 204;
  const description = [
    noContent ? noContentText(route) : (field.description ?? ''),
    noContent && field.description
      ? `${graphql}, which returns more: ${lowerFirst(field.description)}`
      : `${graphql}.`,
    permission ? `Needs ${permission.text}.` : '',
    route.extension ? 'Not in the interface specification: an extension of this service.' : '',
  ]
    .filter(Boolean)
    .join('\n\n');

  return {
    operationId,
    summary: route.summary ?? field.description ?? `${route.method} ${route.path}`,
    description,
    tags: [tag],
    ...(parameters.length || takesIdempotencyKey(route)
      ? { parameters: [...parameters, ...(takesIdempotencyKey(route) ? [idempotencyKeyRef] : [])] }
      : {}),
    ...(body
      ? {
          requestBody: {
            required: body.required,
            content: {
              'application/json': { schema: body.schema },
              ...(route.xmlBody
                ? {
                    'application/xml': {
                      schema: { type: 'string', description: 'The XML document itself.' },
                    },
                  }
                : {}),
              ...(route.rawMessageBody
                ? {
                    'message/rfc822': {
                      schema: { type: 'string', format: 'binary', description: 'The message itself.' },
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    responses: operationResponses(route, resultSchema, Boolean(body)),
    'x-graphql-field': route.field,
    ...(permission ? { 'x-permission': permission.name } : {}),
    ...(route.extension ? { 'x-extension': true as const } : {}),
  };
}
