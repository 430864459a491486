import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Context } from '../context';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { scrubText } from '../observability/log-safety';
import { API_BASE, GRAPHQL_PATH } from './api-base';

/**
 * One log line and one metric observation per request, both under the request's route pattern
 * and tied together by its request id (taken from X-Request-Id when well-formed, else generated,
 * and returned in that header and in error bodies).
 */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Probes and scrapes come every few seconds; their lines are debug so they do not drown the rest. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** The REST router records `METHOD /path` of its row in res.locals.route. */
const REST_ROW = /^[A-Z]+ (\/\S*)$/;

/**
 * The route pattern of a finished request: the REST row's path (`/api/v1/concepts/find/{id}`),
 * a fixed route (`/graphql`, `/metrics`, `/healthz`...), or `unmatched`, so paths holding ids
 * or e-mail addresses never become labels.
 */
export function routeLabel(req: Request, res: Response, rows: RowMatcher = () => undefined): string {
  if (typeof res.locals.routePattern === 'string') return res.locals.routePattern;
  const row = typeof res.locals.route === 'string' ? REST_ROW.exec(res.locals.route) : null;
  if (row) return `${API_BASE}${row[1]}`;
  const path = req.originalUrl.split('?')[0];
  // Answered before the row's handler ran (rate limit, body too large, not JSON): match it here.
  const matched = path.startsWith(`${API_BASE}/`) ? rows(req.method, path.slice(API_BASE.length)) : undefined;
  if (matched) return `${API_BASE}${matched}`;
  if (path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`)) return GRAPHQL_PATH;
  if ((path === '/healthz' || path === '/readyz') && res.statusCode !== 404) return path;
  return 'unmatched';
}

/** The REST row's path (under API_BASE) a request path belongs to, if any (src/rest/lookup.ts). */
export type RowMatcher = (method: string, path: string) => string | undefined;

/**
 * What each of scrubText's patterns needs to match at all (an `@` or `%40`, "Bearer", "eyJ", a
 * quote, a parenthesis): a path holding none of it, as nearly every path, skips its five passes.
 */
const MAY_NEED_SCRUBBING = /@|%40|bearer|eyj|'|\(/i;

/** The path for a log line, with anything that looks like an e-mail address (a path key) hidden. */
export function loggablePath(req: Request): string {
  const path = req.originalUrl.split('?')[0];
  const cut = path.length > 300 ? `${path.slice(0, 300)}…` : path;
  return MAY_NEED_SCRUBBING.test(cut) ? scrubText(cut) : cut;
}

export function observeRequests(logger: Logger, metrics: Metrics, rows?: RowMatcher): RequestHandler {
  // The line's keys are the fixed ones below and its values are strings and numbers, so the
  // logger's redaction (of keys such as authorization or *.token) never finds anything in it;
  // pino still walks its paths over every line, which cost more than the rest of the line.
  const requestLog = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const start = process.hrtime.bigint();
    res.on('close', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      // A client that hung up before the answer was sent: nginx's 499, so it is not mistaken for a success.
      const status = res.writableFinished ? res.statusCode : 499;
      const route = routeLabel(req, res, rows);
      metrics.observeRequest(req.method, route, status, seconds);
      const caller = res.locals.caller as Context['caller'] | undefined;
      const line = {
        requestId,
        method: req.method,
        path: loggablePath(req),
        route,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        tenantId: caller?.tenantId,
        userId: caller?.userId,
      };
      if (QUIET_ROUTES.has(route)) requestLog.debug(line, 'request');
      else requestLog.info(line, 'request');
    });
    next();
  };
}
