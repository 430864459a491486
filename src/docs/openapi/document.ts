import type { GraphQLSchema } from 'graphql';
import type { CompiledRoute } from '../../rest/compile';
import type { TransferRoute } from '../../http/transfer-route';
import { ruleTree } from '../../permissions/rules';
import { EVENT_ENVELOPE, eventWebhooks } from '../event-webhooks';
import { SchemaComponents, withInt32Bounds } from '../json-schema';
import { info, security, securitySchemes, servers } from './info';
import { buildOperation, operationIdOf, rootField } from './operation';
import { parameterComponents } from './parameters';
import { publicPaths } from './public-routes';
import { defineErrorSchema, errorResponses, headers } from './responses';
import { TagDescriptions, tagger } from './tags';
import { transferPaths } from './transfers';
import type { OpenApiDocument } from './types';

/**
 * The OpenAPI 3.1 document of the REST facade, generated from the compiled REST table and the
 * GraphQL schema (a process does so once, when first asked): every row's parameters come from
 * its argument sources and the GraphQL argument types, its body from the GraphQL input type, its
 * response from the return type restricted to the selection the facade actually runs; the
 * uploads and downloads from their declarations (`transfers`, src/http/transfer-route.ts). Nothing
 * here is written per operation, so the document grows with the table and cannot drift from it.
 */
export function buildOpenApi(
  schema: GraphQLSchema,
  compiled: readonly CompiledRoute[],
  transfers: readonly TransferRoute[] = [],
): OpenApiDocument {
  const components = new SchemaComponents();
  const responses = errorResponses(defineErrorSchema(components));
  const context = { schema, components, rules: ruleTree(schema) };
  const tagOf = tagger(compiled.map((c) => c.route));
  const tagDescriptions = new TagDescriptions();
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  // Sorted by path and method, so the document (and its component numbering) is stable.
  const ordered = [...compiled].sort(
    (a, b) => a.route.path.localeCompare(b.route.path) || a.route.method.localeCompare(b.route.method),
  );

  for (const row of ordered) {
    const { route } = row;
    let operationId = operationIdOf(route);
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${operationIdOf(route)}${n}`;
    operationIds.add(operationId);
    const tag = tagOf(route.path);
    const operation = buildOperation(row, context, operationId, tag);
    tagDescriptions.see(tag, route, rootField(schema, route.field));
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  // Uploads and downloads, served by routers of their own, after the table's rows.
  for (const [path, item] of Object.entries(transferPaths(transfers, paths, tagOf)))
    paths[path] = { ...paths[path], ...item };
  Object.assign(paths, publicPaths(tagOf('/public')));

  return withInt32Bounds({
    openapi: '3.1.0' as const,
    info,
    servers,
    security,
    tags: tagDescriptions.tags(paths),
    paths,
    webhooks: eventWebhooks(components.schemas),
    components: {
      schemas: sortKeys({ ...components.schemas, EventEnvelope: EVENT_ENVELOPE }),
      responses,
      parameters: parameterComponents,
      headers,
      securitySchemes,
    },
  });
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
