import type { NextFunction, Request, Response } from 'express';
import type { Context } from '../context';
import { endTenantTransaction } from '../db/tenant-transaction';
import { classify } from '../error-mapping';
import { codeFor } from '../errors';
import { isMutation } from '../http/hardening';
import { claimKey, idempotencyKeyOf, sendReply } from '../http/idempotency';
import type { Logger } from '../logger';

/**
 * `Idempotency-Key` on GraphQL mutations (src/http/idempotency.ts says what it guarantees).
 * Before Apollo runs a mutation that carries a key, the request is authenticated and the key
 * taken here: a stored answer is replayed without Apollo running anything, and a key in use
 * (409) or used for another request (422) is answered as GraphQL errors. Otherwise the context
 * and the held key go on to Apollo (`res.locals.context`), whose request plugin stores the answer
 * before the commit. Queries, and requests Apollo would refuse anyway (no credential, a
 * document that does not parse), pass through untouched.
 */
export function graphqlIdempotency(
  contextFor: (req: Request, res: Response) => Promise<Context>,
  logger: Logger,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || req.headers['idempotency-key'] === undefined) return next();
    if (!req.headers.authorization || !isMutation(req.body)) return next();
    let context: Context | undefined;
    try {
      const key = idempotencyKeyOf(req)!;
      try {
        context = await contextFor(req, res);
      } catch {
        // Apollo authenticates again and answers the failure in its own shape.
        return next();
      }
      const claim = await claimKey(context.em, context.caller!, req, key);
      if ('replay' in claim) {
        await endTenantTransaction(context.em, false);
        sendReply(res, claim.replay, true);
        return;
      }
      res.locals.context = { ...context, idempotency: claim.held } satisfies Context;
      next();
    } catch (err) {
      if (context) await endTenantTransaction(context.em, false).catch(() => undefined);
      const { status, detail, expected } = classify(err);
      if (!expected) logger.error({ err }, 'idempotency key check failed');
      res.status(status).json({
        errors: [
          {
            message: expected ? detail : 'Internal server error',
            extensions: { code: codeFor(status), status },
          },
        ],
      });
    }
  };
}
