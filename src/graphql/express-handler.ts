import type { Request, RequestHandler, Response } from 'express';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';

/**
 * Apollo Server as an Express handler, through Apollo's integration API
 * (`executeHTTPGraphQLRequest`), as `@as-integrations/express5`'s `expressMiddleware` does it,
 * except for the query string: that one reads it with `url.parse`, which on Node 24 walks the
 * caller's stack on every call made from a package (to decide whether to print its deprecation
 * warning, which it then never prints for a package's call), a visible share of every GraphQL
 * request's CPU (bench/README.md, "The write path"). Here it is the part of the request's path from
 * its `?` on, which is what `url.parse` gives as `search` for a request line's path (no fragment
 * is ever sent); Apollo reads it with `URLSearchParams`, which decodes what `url.parse` would have
 * escaped to the same text.
 */
export function graphqlHandler<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: (req: Request, res: Response) => Promise<TContext>,
): RequestHandler {
  server.assertStarted('graphqlHandler()');
  return async (req, res) => {
    if (!('body' in req)) {
      res.status(500);
      res.send('`req.body` is not set: the `json` middleware must run before the GraphQL handler.');
      return;
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers))
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    const httpGraphQLResponse = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method.toUpperCase(),
        headers,
        search: searchOf(req.url),
        body: req.body,
      },
      context: () => context(req, res),
    });
    for (const [key, value] of httpGraphQLResponse.headers) res.setHeader(key, value);
    res.statusCode = httpGraphQLResponse.status || 200;
    if (httpGraphQLResponse.body.kind === 'complete') {
      res.send(httpGraphQLResponse.body.string);
      return;
    }
    for await (const chunk of httpGraphQLResponse.body.asyncIterator) {
      res.write(chunk);
      const flushable = res as Response & { flush?: () => void };
      if (typeof flushable.flush === 'function') flushable.flush();
    }
    res.end();
  };
}

/** A request path's query string, its `?` included, as `url.parse(path).search` gives it ('' for none). */
export function searchOf(path: string): string {
  const at = path.indexOf('?');
  if (at === -1) return '';
  const hash = path.indexOf('#', at);
  return path.slice(at, hash === -1 ? undefined : hash);
}
