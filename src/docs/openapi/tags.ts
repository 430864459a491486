import { getNamedType, isObjectType, type GraphQLField } from 'graphql';
import type { RestRoute } from '../../rest/route';
import { API_BASE, type OpenApiDocument } from './types';

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

export const segments = (p: string) => p.split('/').filter(Boolean);

/** Groups operations by the family base their path lies under, or else by their first segments. */
export function tagger(routes: readonly RestRoute[]): (path: string) => string {
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

/**
 * Tag descriptions: a group's tag is described by the record type its family rows return, the
 * first time one of them is seen; other tags by their path.
 */
export class TagDescriptions {
  private readonly known = new Map<string, string>();

  see(tag: string, route: RestRoute, field: GraphQLField<unknown, unknown>): void {
    if (this.known.has(tag)) return;
    const named = getNamedType(field.type);
    if (route.code && route.code !== 'custom' && isObjectType(named) && !named.name.endsWith('Page')) {
      this.known.set(tag, named.description ?? `${named.name} records.`);
    }
  }

  /** The document's `tags`: every tag an operation uses, sorted. */
  tags(paths: OpenApiDocument['paths']): OpenApiDocument['tags'] {
    return [...new Set(Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.tags[0])))]
      .sort()
      .map((name) => ({
        name,
        description: this.known.get(name) ?? `Operations under \`${API_BASE}/${name}\`.`,
      }));
  }
}
