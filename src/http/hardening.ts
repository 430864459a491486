import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';
import { getOperationAST, parse } from 'graphql';
import { LRUCache } from 'lru-cache';
import { AppError, titleFor } from '../errors';
import { GRAPHQL_PATH } from './api-base';

/**
 * HTTP hardening that does not depend on what an operation does: security headers, CORS,
 * and rate limits (per credential before authentication, per tenant after it).
 */

/** Helmet's settings. The Sandbox and docs pages load their own scripts, so CSP is set per response type. */
export const HELMET_OPTIONS = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;

interface HeaderEdits {
  set: [name: string, value: string | number | readonly string[]][];
  removed: string[];
}

/**
 * What helmet's middleware does to a response, found by running it once against a stand-in
 * that records each call. With these options every header is a constant: none depends on the
 * request. A stand-in missing something helmet calls fails here, at start-up, not per request.
 */
function headerEditsOf(middleware: RequestHandler): HeaderEdits {
  const edits: HeaderEdits = { set: [], removed: [] };
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      edits.set.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      edits.removed.push(name);
    },
  };
  let done = false;
  void middleware({} as Request, recorder as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously; its headers cannot be recorded');
  return edits;
}

/**
 * Security headers: helmet's, set as helmet sets them. Helmet is a chain of a dozen small
 * middlewares run on every request; its headers are recorded once and set by one function.
 */
export function securityHeaders(): RequestHandler {
  const { set, removed } = headerEditsOf(helmet(HELMET_OPTIONS));
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/** JSON answers of the API never need to run anything in a browser. */
export function apiContentSecurityPolicy(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  next();
}

/** CORS for the origins in CORS_ORIGINS (comma-separated; `*` for any); none when unset. */
export function corsFor(origins: string[]): RequestHandler {
  const any = origins.includes('*');
  return cors({
    origin: any ? true : origins.length ? origins : false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
    exposedHeaders: [
      'Location',
      'X-Request-Id',
      'Retry-After',
      'RateLimit',
      'RateLimit-Policy',
      'Idempotent-Replayed',
    ],
    maxAge: 600,
  });
}

export interface RateLimits {
  /** Requests per window per credential (bearer token); 0 turns the limit off. */
  perCredential: number;
  /** Requests per window per tenant; 0 turns the limit off. */
  perTenant: number;
  windowMs: number;
  /**
   * Refused credentials (401s) per failure window from one client address, after which its
   * requests with a credential are answered 429 until the window ends; 0 or unset turns it off
   * (credential-failures.ts).
   */
  failuresPerAddress?: number;
  /** The same per API key id, from any address. */
  failuresPerKey?: number;
  /** The failure window (15 minutes when unset). */
  failureWindowMs?: number;
  /**
   * Requests per window to the public routes (no credential: contact forms, bookings) per client
   * address, and per widget; unset, PUBLIC_LIMITS' figures hold (0 turns one off).
   */
  publicPerAddress?: number;
  publicPerWidget?: number;
  /**
   * Where the counts live: a store per limiter (src/http/shared-store.ts, Redis) that every
   * process shares; unset, each process counts in its own memory.
   */
  store?: (limiter: string) => Store;
}

/**
 * The public routes' limits when none are configured: on even where the authenticated ones are
 * off, since nothing else stands between a spam run and the tenant's leads.
 */
export const PUBLIC_LIMITS = { perAddress: 30, perWidget: 300 } as const;

/** What a window's count came to: the store's answer. */
export interface WindowCount {
  totalHits: number;
  resetTime?: Date;
}

/**
 * Counts requests per key in fixed windows on an express-rate-limit `Store`: the shared one when
 * there is one (src/http/shared-store.ts), otherwise the library's MemoryStore in this process.
 * The library's middleware is not used: in A/B runs under load its two instances (per credential,
 * per tenant) cost a measurable share of a find's throughput (bench/README.md, "The rate limiters"), for
 * work that is one increment and two headers; its stores and key generator are kept.
 *
 * Should a shared store fail (Redis unreachable), requests pass rather than fail: the limits
 * protect the service, and refusing every request would do the attacker's work. The store's
 * client logs the outage, and its initialisation too (so a failed one is not logged again here).
 */
function windowCounter(
  limits: RateLimits,
  limiter: string,
): (key: string) => Promise<WindowCount | undefined> {
  const store = limits.store?.(limiter) ?? new MemoryStore();
  // Both stores read nothing of the options but the window.
  void Promise.resolve(store.init?.({ windowMs: limits.windowMs } as Options)).catch(() => undefined);
  const passOnError = Boolean(limits.store);
  return async (key) => {
    try {
      return await store.increment(key);
    } catch (err) {
      if (passOnError) return undefined;
      throw err;
    }
  };
}

/** Seconds until the window resets, as express-rate-limit counts them. */
export function secondsLeft(count: WindowCount, windowMs: number): number {
  return count.resetTime
    ? Math.max(0, Math.ceil((count.resetTime.getTime() - Date.now()) / 1000))
    : Math.ceil(windowMs / 1000);
}

/** 429 with Retry-After: the seconds until the caller's window resets (at least one). */
function tooMany(res: Response, seconds: number): AppError {
  const wait = Math.max(1, seconds);
  res.setHeader('Retry-After', String(wait));
  return new AppError(429, titleFor(429), `too many requests; retry after ${wait} seconds`);
}

/**
 * A cache keyed by texts a client sends (a header, a document), counted by their length so that
 * long ones cannot fill the memory: a text longer than `maxChars` is not kept at all.
 */
export function keyedByText<V extends object | boolean>(max: number, maxChars: number): LRUCache<string, V> {
  return new LRUCache<string, V>({
    max,
    maxSize: maxChars,
    sizeCalculation: (_value, text) => text.length + 64,
  });
}

/** The partition key of the draft-8 headers, as express-rate-limit derives it from the key. */
const partitionKey = (key: string) =>
  Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

interface CredentialKeys {
  /** The limiter's key. */
  key: string;
  /** The partition key of the draft-8 headers. */
  partition: string;
}

/**
 * The keys of the credentials seen lately, by their Authorization header: a client sends the
 * same credential with every request, and its two SHA-256 digests on each were a measurable share
 * of every request (bench/README.md, "The rate limiters"). The headers stay in
 * this process's memory, as the verified tokens do (src/auth/jwt.ts); stores see digests. They
 * are counted by their length: this runs before authentication, so any header comes here.
 */
const credentialKeys = keyedByText<CredentialKeys>(10_000, 4 * 1024 * 1024);

function keysOf(req: Request): CredentialKeys {
  const auth = req.headers.authorization;
  if (!auth) {
    const key = `anon:${ipKeyGenerator(req.ip ?? '')}`;
    return { key, partition: partitionKey(key) };
  }
  let keys = credentialKeys.get(auth);
  if (!keys) {
    const key = `cred:${createHash('sha256').update(auth).digest('base64url').slice(0, 32)}`;
    credentialKeys.set(auth, (keys = { key, partition: partitionKey(key) }));
  }
  return keys;
}

/** Keyed by a hash of the credential, so stores never see a token; requests without one share a key per address. */
export function credentialKey(req: Request): string {
  return keysOf(req).key;
}

/** The policy's name in the draft-8 headers, as express-rate-limit writes it: `100-in-1min`. */
function policyName(limit: number, windowMs: number): string {
  const seconds = windowMs / 1000;
  const [minutes, hours, days] = [seconds / 60, seconds / 3600, seconds / 86_400];
  const duration =
    seconds < 60
      ? `${seconds}sec`
      : minutes < 60
        ? `${minutes}min`
        : hours < 24
          ? `${hours}hr${hours > 1 ? 's' : ''}`
          : `${days}day${days > 1 ? 's' : ''}`;
  return `"${limit}-in-${duration}"`;
}

/**
 * The per-credential limit, before authentication, with the IETF draft-8 `RateLimit` and
 * `RateLimit-Policy` headers express-rate-limit writes (`standardHeaders: 'draft-8'`).
 */
export function credentialLimiter(limits: RateLimits): RequestHandler {
  const limit = limits.perCredential;
  if (!limit) return (_req, _res, next) => next();
  const count = windowCounter(limits, 'credential');
  const windowSeconds = Math.ceil(limits.windowMs / 1000);
  const name = policyName(limit, limits.windowMs);
  return (req, res, next) => {
    const { key, partition } = keysOf(req);
    count(key).then((counted) => {
      if (!counted) return next();
      const seconds = secondsLeft(counted, limits.windowMs);
      res.setHeader('RateLimit', `${name}; r=${Math.max(limit - counted.totalHits, 0)}; t=${seconds}`);
      res.setHeader('RateLimit-Policy', `${name}; q=${limit}; w=${windowSeconds}; pk=:${partition}:`);
      next(counted.totalHits > limit ? tooMany(res, seconds) : undefined);
    }, next);
  };
}

/** Keyed by the authenticated tenant: run after authentication, with `res.locals.caller` set. */
export function tenantLimiter(limits: RateLimits): (req: Request, res: Response) => Promise<void> {
  const limit = limits.perTenant;
  if (!limit) return async () => undefined;
  const count = windowCounter(limits, 'tenant');
  return async (_req, res) => {
    const counted = await count(`tenant:${(res.locals.caller as { tenantId: string }).tenantId}`);
    if (counted && counted.totalHits > limit) throw tooMany(res, secondsLeft(counted, limits.windowMs));
  };
}

/**
 * A limit on requests by a key the caller names (a public route's client address, its widget):
 * over `limit` in the window, a 429 with Retry-After. Its own store, as the other limiters have.
 */
export function keyedLimiter(
  limits: RateLimits,
  limiter: string,
  limit: number,
): (res: Response, key: string) => Promise<void> {
  if (!limit) return async () => undefined;
  const count = windowCounter(limits, limiter);
  return async (res, key) => {
    const counted = await count(`${limiter}:${key}`);
    if (counted && counted.totalHits > limit) throw tooMany(res, secondsLeft(counted, limits.windowMs));
  };
}

/** The key of a client's address, IPv6 by its /56 as express-rate-limit groups them. */
export const addressKey = (req: Request): string => ipKeyGenerator(req.ip ?? '');

/**
 * Whether a request changes something: a GraphQL mutation at /graphql, elsewhere any method but
 * GET, HEAD and OPTIONS.
 */
export function isWriteRequest(req: Request): boolean {
  if (req.baseUrl !== GRAPHQL_PATH) return !['GET', 'HEAD', 'OPTIONS'].includes(req.method);
  return req.method === 'POST' && isMutation(req.body);
}

/**
 * Whether a GraphQL request's body runs a mutation (its operation by `operationName`). The
 * document is parsed only when its text names a mutation at all; one that does not parse is
 * no mutation (Apollo answers it, nothing is written).
 */
export function isMutation(body: unknown): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string' || !query.includes('mutation')) return false;
  const name = typeof operationName === 'string' ? operationName : undefined;
  let operations = mutationsOf.get(query);
  const known = operations?.get(name);
  if (known !== undefined) return known;
  let operation;
  try {
    operation = getOperationAST(parse(query), name);
  } catch {
    return false;
  }
  if (!operation) return false;
  // Kept only for an operation the document has, so a document's entry holds no more names than it.
  const mutation = operation.operation === 'mutation';
  if (!operations) mutationsOf.set(query, (operations = new Map()));
  operations.set(name, mutation);
  return mutation;
}

/**
 * Whether the operations of documents seen lately are mutations, by the document's text and the
 * operation's name: a mutation request is asked this twice (its idempotency key, the bound on
 * writes), and clients send the same few documents, which need not be parsed again each time.
 */
const mutationsOf = keyedByText<Map<string | undefined, boolean>>(1_000, 8 * 1024 * 1024);

/** 429 for a write refused while the tenant's events are behind (events/lag-bound.ts). */
export function eventsBehind(res: Response, seconds: number): AppError {
  res.setHeader('Retry-After', String(seconds));
  return new AppError(
    429,
    titleFor(429),
    `the tenant's events are behind (webhooks waiting to be delivered); retry after ${seconds} seconds`,
  );
}
