import type { OpenApiDocument } from './openapi';

/**
 * The OpenAPI document cut into one document per tag (resource group), each with only the
 * components its operations reach. Redoc renders a whole document before showing anything, so
 * the docs page shows one group at a time: a group's document is a few percent of the whole.
 */
export interface DocsGroup {
  tag: string;
  /** The tag as one path segment: `crm/leads` -> `crm-leads`. */
  slug: string;
  description: string;
  operations: { method: string; path: string; summary: string; operationId: string }[];
  document: OpenApiDocument;
}

type Components = OpenApiDocument['components'];

/** The components reached from `root` through `$ref`s, transitively. */
function reachable(root: unknown, components: Components): Components {
  const kept = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key !== '$ref' || typeof child !== 'string') {
        visit(child);
        continue;
      }
      if (kept.has(child)) continue;
      kept.add(child);
      const [, , kind, name] = child.split('/');
      visit((components as Record<string, Record<string, unknown>>)[kind]?.[name]);
    }
  };
  visit(root);
  const pick = (kind: keyof Components) =>
    Object.fromEntries(
      Object.entries(components[kind]).filter(([name]) => kept.has(`#/components/${kind}/${name}`)),
    ) as never;
  return {
    schemas: pick('schemas'),
    responses: pick('responses'),
    parameters: pick('parameters'),
    headers: pick('headers'),
    securitySchemes: components.securitySchemes,
  };
}

export const slugOf = (tag: string) => tag.replace(/[^A-Za-z0-9_-]+/g, '-');

export function docsGroups(document: OpenApiDocument): DocsGroup[] {
  return document.tags.map(({ name: tag, description }) => {
    const operations: DocsGroup['operations'] = [];
    const paths: OpenApiDocument['paths'] = {};
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(byMethod)) {
        if (op.tags[0] !== tag) continue;
        (paths[path] ??= {})[method] = op;
        operations.push({
          method: method.toUpperCase(),
          path,
          summary: op.summary,
          operationId: op.operationId,
        });
      }
    }
    return {
      tag,
      slug: slugOf(tag),
      description,
      operations,
      document: {
        // The event payloads (`webhooks`) belong to the whole document, not to one group's page.
        ...withoutWebhooks(document),
        tags: [{ name: tag, description }],
        paths,
        components: reachable(paths, document.components),
      },
    };
  });
}

function withoutWebhooks(document: OpenApiDocument): OpenApiDocument {
  const { webhooks: _webhooks, ...rest } = document as OpenApiDocument & { webhooks?: unknown };
  return rest as OpenApiDocument;
}
