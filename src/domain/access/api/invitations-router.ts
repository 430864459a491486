import express, { Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import { signToken, type JwtSettings } from '../../../auth/jwt';
import { acceptInvitation, ACCEPT_PATH } from '../invitations';
import type { Logger } from '../../../logger';

/** How long the session token an accepted invitation answers lasts (as the CLI's `token`). */
const SESSION_LIFETIME = '12h';

/**
 * The invitation link's route, which works without a credential: the token is the proof
 * (domain/access/invitations.ts). The token comes in the JSON body (`{"token": ...}`) or, as the
 * e-mailed link carries it, in the query. A GET changes nothing, so a mail scanner following the
 * link spends no invitation. Errors are the documented error body.
 */
export function invitationsRouter(orm: MikroORM, jwt: JwtSettings, logger: Logger): Router {
  const router = Router();
  router.post(ACCEPT_PATH, express.json({ limit: '2kb' }), async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as { token?: unknown };
      const token = body.token ?? req.query.token;
      const accepted = await acceptInvitation(orm.em, token);
      logger.info({ tenantId: accepted.tenantId, userId: accepted.userId }, 'invitation accepted');
      if (accepted.signIn === 'issuer') {
        res.json({ userId: accepted.userId, status: 'ACTIVE', issuer: accepted.issuer });
        return;
      }
      const session = signToken(
        jwt,
        { sub: accepted.userId, email: accepted.email, tenantId: accepted.tenantId },
        SESSION_LIFETIME,
      );
      res.json({ userId: accepted.userId, status: 'ACTIVE', token: session, tokenType: 'Bearer' });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
