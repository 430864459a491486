import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { withTenant } from '../../db/tenant-transaction';
import { Tenant } from '../../entities/tenant';
import { TrustedIssuer } from '../../entities/trusted-issuer';
import { User, UserStatus } from '../../entities/user';
import { conflict, notFound } from '../../errors';
import { queueMail, reportedEvents } from '../../events/outbound-mail';
import { activeEventSettings } from '../../events/settings';
import { isUuid } from '../../limits';
import { spendByToken, spendForUser, storeInvitation } from './invitation-repository';

/**
 * Invitations of users created (or set) INVITED: an e-mail with a one-time link to set up
 * sign-in. The token names its tenant (so the public route, which has no credential, knows
 * which tenant's rows to read under row-level security) and carries 32 random bytes, of which
 * only a SHA-256 digest is stored: a leaked table redeems nothing, and a random token of that
 * size needs no slow hash. One invitation per user; inviting again replaces the token, so an
 * older link stops working.
 */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_MAIL_EVENT = 'user.invitation';
/** Where the link points: the public route that redeems the token (POST). */
export const ACCEPT_PATH = '/api/v1/public/invitations/accept';

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The tenant and the secret of a token `<tenantId>.<secret>`, or null when it is not one. */
function parseToken(token: unknown): { tenantId: string; secret: string } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const dot = token.indexOf('.');
  const tenantId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  return dot > 0 && isUuid(tenantId) && /^[A-Za-z0-9_-]{43}$/.test(secret) ? { tenantId, secret } : null;
}

/**
 * Invites `user` in `em`'s transaction: stores a new token (replacing any earlier one) and
 * queues the e-mail through the outbox's e-mail deliveries, so it goes only if the change
 * commits. A user who is not INVITED is a 409. Answers the token (for the CLI and tests only:
 * the API never shows it).
 */
export async function inviteUser(
  em: EntityManager,
  user: User,
  by: string,
  now = new Date(),
): Promise<string> {
  if (user.status !== UserStatus.INVITED)
    throw conflict(`User ${user.id} is ${user.status}: only an INVITED user is sent an invitation`);
  const secret = randomBytes(32).toString('base64url');
  const token = `${user.tenantId}.${secret}`;
  await storeInvitation(em, {
    tenantId: user.tenantId,
    id: randomUUID(),
    by,
    userId: user.id,
    tokenHash: digest(secret),
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
  });
  // A delivery reports an outbox event (a foreign key): the user's latest, which is its creation or
  // the change that made it INVITED, or for a re-invitation an earlier one of the user's.
  await em.flush();
  const eventId = (await reportedEvents(em, user.tenantId, [user.id])).get(user.id);
  if (!eventId) throw conflict(`User ${user.id} has no recorded event for its invitation to report`);
  const tenant = await em.findOneOrFail(Tenant, { id: user.tenantId });
  const link = `${activeEventSettings().publicUrl}${ACCEPT_PATH}?token=${encodeURIComponent(token)}`;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  await queueMail(em, {
    tenantId: user.tenantId,
    eventId,
    eventType: INVITATION_MAIL_EVENT,
    by,
    mail: {
      to: user.email,
      subject: `Your invitation to ${tenant.name}`,
      text:
        `Hello ${name},\n\nyou have been invited to ${tenant.name}. Set up your sign-in with this link ` +
        `(valid for 7 days, once):\n\n${link}\n`,
    },
  });
  return token;
}

/** What redeeming an invitation answers: a session token, or the provider to sign in with. */
export type Accepted =
  | { userId: string; tenantId: string; email: string; signIn: 'token' }
  | { userId: string; tenantId: string; email: string; signIn: 'issuer'; issuer: string };

/**
 * Redeems a token once: the user becomes ACTIVE and the invitation is spent. When the tenant
 * trusts an identity provider, the answer names it, for the user to sign in there; otherwise the
 * caller signs a session token. A malformed, unknown, spent or expired token, or one of a user
 * no longer INVITED, is the same 404, so the answer tells nothing about other tenants or users.
 */
export async function acceptInvitation(
  rootEm: EntityManager,
  token: unknown,
  now = new Date(),
): Promise<Accepted> {
  const gone = () => notFound('no such invitation: the link is unknown, used or expired');
  const parsed = parseToken(token);
  if (!parsed) throw gone();
  const { tenantId, secret } = parsed;
  return withTenant(rootEm, { tenantId, userId: null, email: 'invitation' }, async (em) => {
    const userId = await spendByToken(em, tenantId, digest(secret), now);
    if (!userId) throw gone();
    const user = await activate(em, userId);
    if (!user) throw gone();
    const issuer = await em.findOne(TrustedIssuer, {}, { orderBy: { created: 'asc', id: 'asc' } });
    const who = { userId: user.id, tenantId, email: user.email };
    return issuer ? { ...who, signIn: 'issuer', issuer: issuer.issuer } : { ...who, signIn: 'token' };
  });
}

/** The INVITED user `userId` made ACTIVE (and verified), or null when the user is not INVITED. */
async function activate(em: EntityManager, userId: string): Promise<User | null> {
  const user = await em.findOne(User, { id: userId });
  if (!user || user.status !== UserStatus.INVITED) return null;
  user.status = UserStatus.ACTIVE;
  user.verified = true;
  await em.flush();
  return user;
}

/**
 * The first sign-in of an INVITED user through the tenant's identity provider, whose token names
 * them: it is the set-up the invitation asked for, so the invitation is spent and the user becomes
 * ACTIVE, as redeeming the link does. Only a live invitation (unspent, unexpired) does this: a user
 * whose invitation expired waits to be invited again, as with the link. Answers whether the user
 * is ACTIVE now (a sign-in at the same moment may have activated them first).
 */
export async function acceptBySignIn(
  rootEm: EntityManager,
  tenantId: string,
  userId: string,
  now = new Date(),
): Promise<boolean> {
  return withTenant(rootEm, { tenantId, userId: null, email: 'invitation' }, async (em) => {
    if ((await spendForUser(em, tenantId, userId, now)) && (await activate(em, userId))) return true;
    const user = await em.findOne(User, { id: userId }, { fields: ['status'] });
    return user?.status === UserStatus.ACTIVE;
  });
}
