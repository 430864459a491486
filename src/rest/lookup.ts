import FindMyWay, { type HTTPVersion } from 'find-my-way';
import { invalidField } from '../errors';
import type { RowMatcher } from '../http/request-log';
import type { CompiledRoute } from './compile';
import { pathParamsOf } from './route';

/**
 * Finds the REST row a request is for in one lookup: a radix tree of the table's paths
 * (find-my-way), where Express would test each row's pattern in turn. It answers as Express's
 * router did: paths compared without regard to case, one trailing slash ignored, literal segments
 * before parameters, HEAD served by the GET row, parameters decoded with `decodeURIComponent`.
 */
export interface Found {
  compiled: CompiledRoute;
  params: Record<string, string>;
}

export interface RouteLookup {
  /** The row for `method` and a path below /api/v1 (no query string); undefined when none. */
  find(method: string, path: string): Found | undefined;
  /** The methods some row serves at `path`, as Express's automatic OPTIONS answer lists them. */
  allowed(path: string): string[];
}

/**
 * Rows in Express's terms, for the paths where find-my-way answers differently: it decodes the
 * whole path before matching, so `fi%6Ed` would match the literal `find`, which Express never
 * matched, and it takes an empty segment for a parameter. Such paths are rare and take this
 * route-by-route way.
 */
function patternMatcher(routes: readonly CompiledRoute[]) {
  const patterns = routes.map((compiled) => {
    const names = pathParamsOf(compiled.route);
    const literals = compiled.route.path
      .split(/\{\w+\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    return { compiled, names, regex: new RegExp(`^${literals.join('([^/]+)')}/?$`, 'i') };
  });
  return (method: string, path: string): Found | undefined => {
    for (const { compiled, names, regex } of patterns) {
      if (compiled.route.method !== method) continue;
      const match = regex.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(match[i + 1]);
        } catch {
          // Express answered these with a 500; it is the client's mistake, so a 400 names it.
          throw invalidField(
            name,
            'is not valid percent-encoding',
            `path parameter ${name} is not valid percent-encoding`,
          );
        }
      });
      return { compiled, params };
    }
    return undefined;
  };
}

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;

export function routeLookup(routes: readonly CompiledRoute[]): RouteLookup {
  const tree = FindMyWay<HTTPVersion.V1>({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    // Express set no limit on a parameter's length; the request line's own limit applies.
    maxParamLength: 64 * 1024,
  });
  for (const compiled of routes) {
    const path = compiled.route.path.replace(/\{(\w+)\}/g, ':$1');
    tree.on(compiled.route.method, path, () => undefined, compiled);
  }
  const byPattern = patternMatcher(routes);
  const find = (method: string, path: string): Found | undefined => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    // find-my-way would also match an empty segment (`/webhooks//test`) as a parameter.
    if (path.includes('%') || path.includes('//')) return byPattern(wanted, path);
    const hit = tree.find(wanted as never, path);
    if (!hit) return undefined;
    return { compiled: hit.store as CompiledRoute, params: hit.params as Record<string, string> };
  };
  return {
    find,
    allowed(path) {
      const found = METHODS.filter((m) => find(m, path) !== undefined);
      return found.includes('GET') ? [...found, 'HEAD'].sort() : found;
    },
  };
}

/** The REST row a path belongs to, found as the REST router finds it; malformed paths have none. */
export function restRowMatcher(lookup: RouteLookup): RowMatcher {
  return (method, path) => {
    try {
      return lookup.find(method, path)?.compiled.route.path;
    } catch {
      return undefined;
    }
  };
}
