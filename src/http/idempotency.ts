import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/core';
import type { Caller, HeldKey, Reply } from '../context';
import { AppError, badRequest, titleFor } from '../errors';
import { storeAnswer, storedAnswer, tryLockKey } from '../db/idempotency-key-repository';

/**
 * Idempotency keys, as Stripe's API has them. A write sent with `Idempotency-Key` runs once; its
 * answer is stored with the caller's tenant and user, the key and a hash of the request, in the
 * same transaction as the write, so the answer is stored exactly when the write was kept. A retry
 * with the same key and the same request gets the stored answer (`Idempotent-Replayed: true`)
 * from any process without running again; with another request it is refused (422).
 *
 * While a request holds a key, its transaction holds a transaction-level advisory lock on it; a
 * retry that cannot take the lock is answered 409 at once. The lock ends with the transaction, so
 * a process that dies mid-request leaves nothing behind: its transaction is rolled back, and the
 * next retry runs the write. Error answers are not stored: the write changed nothing, so a retry
 * runs it again.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a key's answer is kept (and the key cannot be used for another request). */
export const KEEP_MS = 24 * 60 * 60 * 1000;

/** The headers of an answer that a replay repeats. */
const KEPT_HEADERS = ['content-type', 'location', 'content-disposition'];

const KEY = /^[\x21-\x7e]{1,255}$/;

export type Claim = { replay: Reply } | { held: HeldKey };

/** The request's key, or undefined without one; a key that is not 1-255 visible ASCII characters is a 400. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY.test(key))
    throw badRequest(`${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`);
  return key;
}

/** Method, path, query string and body: what makes two requests the same. */
function requestHash(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const parts = [
    req.method,
    q < 0 ? url : url.slice(0, q),
    q < 0 ? '' : url.slice(q + 1),
    JSON.stringify(req.body ?? null),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/**
 * Takes the request's key within its tenant transaction (on `em`): the stored answer to replay,
 * or the key held for this request. 409 while another request holds it, 422 when it was used for
 * another request.
 */
export async function claimKey(em: EntityManager, caller: Caller, req: Request, key: string): Promise<Claim> {
  const hash = requestHash(req);
  if (!(await tryLockKey(em, `idempotency:${caller.tenantId}:${caller.userId}:${key}`)))
    throw new AppError(
      409,
      titleFor(409),
      `a request with this ${IDEMPOTENCY_HEADER} is still running; retry once it has been answered`,
    );
  // Read after the lock is held: a request that held it before has committed (or rolled back).
  const stored = await storedAnswer(em, caller.tenantId, caller.userId, key);
  if (stored) {
    if (stored.request_hash !== hash)
      throw new AppError(
        422,
        titleFor(422),
        `this ${IDEMPOTENCY_HEADER} was used for a different request (method, path, query or body); use a new key`,
      );
    return {
      replay: { status: stored.status, headers: stored.headers, body: stored.body },
    };
  }
  return {
    held: {
      async record(reply) {
        const headers = Object.fromEntries(
          Object.entries(reply.headers).filter(([name]) => KEPT_HEADERS.includes(name.toLowerCase())),
        );
        const now = Date.now();
        // An expired row the clean-up has not reached yet is replaced.
        await storeAnswer(em, {
          tenantId: caller.tenantId,
          userId: caller.userId,
          key,
          requestHash: hash,
          status: reply.status,
          headers,
          body: typeof reply.body === 'string' ? reply.body : reply.body.toString('utf8'),
          created: new Date(now),
          expiresAt: new Date(now + KEEP_MS),
        });
      },
    },
  };
}

/**
 * Sends an answer (a stored one, or one being stored) as it is: the body is already text (or its
 * bytes) with its content type, so it goes out with `res.end` and its length. Express's
 * `res.send` would also hash it for an ETag and compare it with the request's validators, which
 * no client of this API sends (its answers are per caller and not cached).
 */
export function sendReply(res: Response, reply: Reply, replayed = false): void {
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (replayed) res.setHeader(REPLAYED_HEADER, 'true');
  res.statusCode = reply.status;
  if (reply.status === 204) {
    res.end();
    return;
  }
  if (!res.hasHeader('content-type')) res.setHeader('content-type', 'text/plain; charset=utf-8');
  // Bytes, encoded once: given the text, Node would measure its UTF-8 length, then join it to the
  // headers and copy the joined text out to encode it.
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.setHeader('content-length', body.length);
  res.end(body);
}
