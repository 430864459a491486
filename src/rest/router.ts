import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Context, Reply } from '../context';
import type { ContextFor } from '../http/context-for';
import { endTenantTransaction, onlyReads, StaleCaller } from '../db/tenant-transaction';
import type { Logger } from '../logger';
import { sendCaught, sendError } from '../http/send-error';
import { claimKey, idempotencyKeyOf, sendReply } from '../http/idempotency';
import { jsonBytes } from '../http/json-bytes';
import type { CompiledRoute } from './compile';
import type { Found, RouteLookup } from './lookup';
import { takesIdempotencyKey } from './route';

/** JSON stays the default: CSV only when the client ranks `text/csv` above JSON. */
const prefersCsv = (req: Request) => req.accepts(['application/json', 'text/csv']) === 'text/csv';

/** Express's automatic answer to OPTIONS: the methods served at the path, as plain text. */
function sendAllowed(res: Response, methods: string[]): void {
  const allow = methods.join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}

/**
 * The REST facade as one middleware: it finds the request's row in one lookup, authenticates,
 * reads the variables, executes the row's compiled document with the request's context, and
 * answers with the row's status. A path no row serves goes on to the next handler (the 404).
 * No domain logic lives here.
 */
export function restRouter(lookup: RouteLookup, contextFor: ContextFor, logger: Logger): RequestHandler {
  return (req, res, next) => {
    let found: Found | undefined;
    try {
      found = lookup.find(req.method, req.path);
    } catch (err) {
      sendCaught(res, err, logger);
      return;
    }
    if (found) {
      req.params = found.params;
      void answer(found.compiled, req, res, contextFor, logger);
      return;
    }
    if (req.method === 'OPTIONS') {
      const methods = lookup.allowed(req.path);
      if (methods.length) return sendAllowed(res, methods);
    }
    next();
  };
}

/**
 * Runs the row for the request. The first run takes a remembered caller on trust, so that the
 * transaction's settings go to the database with its first statement; should the caller turn out
 * to have changed (StaleCaller, from the transaction's end, whatever the run came to), nothing
 * of that run was kept or sent, and the request runs once more with the caller read first.
 */
async function answer(
  compiled: CompiledRoute,
  req: Request,
  res: Response,
  contextFor: ContextFor,
  logger: Logger,
  optimistic = true,
): Promise<void> {
  const { route } = compiled;
  res.locals.route = `${route.method} ${route.path}`;
  let contextValue: Context | undefined;
  try {
    contextValue = await contextFor(req, res, optimistic);
    if (compiled.operation === 'query') onlyReads(contextValue.em);
    const allowed = compiled.check(contextValue);
    if (allowed !== true) throw allowed;
    const variableValues = compiled.variables(req);
    const key = takesIdempotencyKey(route) ? idempotencyKeyOf(req) : undefined;
    const claim = key ? await claimKey(contextValue.em, contextValue.caller!, req, key) : undefined;
    if (claim && 'replay' in claim) {
      await endTenantTransaction(contextValue.em, false);
      sendReply(res, claim.replay, true);
      return;
    }
    const result = await compiled.execute(contextValue, variableValues);
    if (result.errors?.length) throw result.errors[0];
    const value = (result.data as { result?: unknown } | null | undefined)?.result;
    if (route.nullIs404 && (value === null || value === false || value === undefined)) {
      await endTenantTransaction(contextValue.em, true);
      sendError(res, 404, `no record at ${req.originalUrl.split('?')[0]}`);
      return;
    }
    const reply = replyFor(compiled, req, value);
    // The answer is stored with the write it answers, in its transaction.
    if (claim) await claim.held.record(reply);
    // The request's transaction commits before the answer goes out: a 2xx means stored.
    await endTenantTransaction(contextValue.em, true);
    if (route.csv && typeof value === 'string') res.vary('Accept');
    sendReply(res, reply);
  } catch (err) {
    let stale = err instanceof StaleCaller;
    if (contextValue)
      await endTenantTransaction(contextValue.em, false).catch(
        (end) => (stale ||= end instanceof StaleCaller),
      );
    if (stale && optimistic) return answer(compiled, req, res, contextFor, logger, false);
    sendCaught(res, err, logger);
  }
}

/** The success answer of a row: its status, headers and body, as sent (and stored for a key). */
function replyFor({ route }: CompiledRoute, req: Request, value: unknown): Reply {
  const status = route.status ?? 200;
  if (status === 204) return { status, headers: {}, body: '' };
  const headers: Record<string, string> = {};
  if (status === 201 && route.location) headers['location'] = `/api/v1${route.location(value)}`;
  if (route.csv && typeof value === 'string' && prefersCsv(req)) {
    // The name is ours (a group's path segment); quoted as clients expect it.
    headers['content-disposition'] = `attachment; filename="${route.csv.filename}"`;
    headers['content-type'] = 'text/csv; charset=utf-8';
    return { status, headers, body: value };
  }
  if (route.document && isDocument(value)) {
    headers['content-type'] = value.contentType;
    // The name is the service's own (an invoice number and a fixed suffix).
    headers['content-disposition'] = `attachment; filename="${value.fileName}"`;
    return { status, headers, body: Buffer.from(value.content, 'base64') };
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  return { status, headers, body: jsonBytes(value) };
}

const isDocument = (value: unknown): value is { fileName: string; contentType: string; content: string } =>
  typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string';

/** Body-parser failures in the documented shape: 413, 415 or 400. */
export function bodyErrors(logger: Logger) {
  return (err: any, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    if (err.type === 'entity.too.large') return sendError(res, 413, 'the request body is larger than 1 MiB');
    if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
      return sendError(res, 415, 'the request body must be UTF-8 JSON');
    }
    if (err.type === 'entity.parse.failed')
      return sendError(res, 400, `malformed JSON: ${String(err.message).slice(0, 200)}`);
    if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
      return sendError(res, err.status, String(err.message ?? 'bad request'));
    }
    sendCaught(res, err, logger);
  };
}

/** PostgreSQL text cannot hold NUL characters: a request carrying one is refused up front. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/**
 * A URL cannot carry a raw NUL (Node's parser refuses it), so one reaches the path or a query
 * value only as `%00`: the URL's text is checked rather than the parsed query, which Express
 * parses anew at every read.
 */
const ENCODED_NUL = /%00/;

export function rejectNulBytes(req: Request, res: Response, next: NextFunction): void {
  if (ENCODED_NUL.test(req.originalUrl) || req.path.includes('\u0000') || hasNul(req.body)) {
    sendError(res, 400, 'the request contains a NUL character, which no field accepts');
    return;
  }
  next();
}

/**
 * body-parser's own test (type-is's hasBody): a request with neither Transfer-Encoding nor a
 * numeric Content-Length has no body to refuse or parse.
 */
const mayHaveBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));

/**
 * A JSON body refused unless it is JSON, then parsed by `parse` (express.json); a request without
 * a body (every GET) skips both, as each would have let it through untouched.
 */
export function jsonBody(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    // A body an earlier parser read as text (an XML document) or as bytes (an e-mail), for the
    // operations that take one.
    if (!mayHaveBody(req) || typeof req.body === 'string' || Buffer.isBuffer(req.body)) return next();
    requireJsonBody(req, res, () => parse(req, res, next));
  };
}

/**
 * A body whose declared length is over the limit is refused at once, unread, and its connection
 * closed: the body parser would read it all off first (to keep the connection usable), so a
 * client that declares more than it sends would wait for REQUEST_RECEIVE_TIMEOUT's 408.
 */
export function refuseDeclaredOverLimit(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    if (Number(req.headers['content-length'] ?? 0) <= limitBytes) return next();
    res.setHeader('Connection', 'close');
    sendError(res, 413, 'the request body is larger than 1 MiB');
  };
}

/** A body that is not JSON is refused before anything reads it. */
export function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    sendError(res, 415, 'the request body must be JSON (Content-Type: application/json)');
    return;
  }
  next();
}
