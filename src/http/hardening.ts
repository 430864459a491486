import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { AppError, titleFor } from '../errors';

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
   * Where the counts live: a store per limiter (src/http/shared-store.ts, Redis) that every
   * process shares; unset, each process counts in its own memory.
   */
  store?: (limiter: 'credential' | 'tenant') => Store;
}

/**
 * A shared store, when there is one. Should it fail (Redis unreachable), requests pass rather
 * than fail: the limits protect the service, and refusing every request would do the attacker's
 * work. The store's client logs the outage.
 */
function storeOf(limits: RateLimits, limiter: 'credential' | 'tenant') {
  return limits.store ? { store: limits.store(limiter), passOnStoreError: true } : {};
}

/** 429 with Retry-After: the seconds until the caller's window resets. */
function tooMany(req: Request, res: Response, next: NextFunction, windowMs: number): void {
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
  res.setHeader('Retry-After', String(seconds));
  next(new AppError(429, titleFor(429), `too many requests; retry after ${seconds} seconds`));
}

/** Keyed by a hash of the credential, so tokens are never kept; requests without one share a key per address. */
export function credentialLimiter(limits: RateLimits): RequestHandler {
  if (!limits.perCredential) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: limits.windowMs,
    limit: limits.perCredential,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...storeOf(limits, 'credential'),
    keyGenerator: (req) => {
      const auth = req.headers.authorization;
      return auth
        ? `cred:${createHash('sha256').update(auth).digest('base64url').slice(0, 32)}`
        : `anon:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (req, res, next) => tooMany(req, res, next, limits.windowMs),
  });
}

/** Keyed by the authenticated tenant: run after authentication, with `res.locals.caller` set. */
export function tenantLimiter(limits: RateLimits): (req: Request, res: Response) => Promise<void> {
  if (!limits.perTenant) return async () => undefined;
  const limiter = rateLimit({
    windowMs: limits.windowMs,
    limit: limits.perTenant,
    standardHeaders: false,
    legacyHeaders: false,
    ...storeOf(limits, 'tenant'),
    keyGenerator: (_req, res) => `tenant:${(res.locals.caller as { tenantId: string }).tenantId}`,
    handler: (req, res, next) => tooMany(req, res, next, limits.windowMs),
  });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      void limiter(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
}
