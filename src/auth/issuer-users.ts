import type { EntityManager } from '@mikro-orm/core';
import { User, UserStatus } from '../entities/user';
import { forkFor } from '../db/tenancy';
import { AppError, unauthorized } from '../errors';
import { createUser } from './user-creation';
import type { Claims } from './jwt';
import type { IssuerToken } from './issuers';

/**
 * Which user of the issuer's tenant a provider's token names: by e-mail address (`email`, the
 * default) or by the subject a user was created with on first sign-in (`sub`). Unknown users are
 * created when the issuer says so, with its role; otherwise refused.
 *
 * Answers are remembered (a token's user is found once, not on every request) and forgotten on
 * any change to the tenant's users, roles or issuers, heard on `bms_caller`.
 */
const users = new Map<string, Promise<{ id: string; email: string }>>();
const USERS_MAX = 10_000;

export function forgetIssuerUsers(): void {
  users.clear();
}

/**
 * What the first sign-in of an INVITED user does: set by the composition (the access module's
 * invitations spend the invitation and activate the user), since authentication knows no module.
 * Answers whether the user is ACTIVE afterwards. Unset, an INVITED user is refused like any
 * inactive one.
 */
export type InvitedSignIn = (rootEm: EntityManager, tenantId: string, userId: string) => Promise<boolean>;
let invitedSignIn: InvitedSignIn | undefined;

export function onInvitedSignIn(hook: InvitedSignIn): void {
  invitedSignIn = hook;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

function checkDomain(token: IssuerToken, email: string): void {
  const allowed = token.config.allowedDomains;
  if (allowed.length > 0 && !allowed.includes(domainOf(email)))
    throw unauthorized(`the user's e-mail domain ${domainOf(email)} may not sign in to this tenant`);
}

async function findOrCreate(
  rootEm: EntityManager,
  token: IssuerToken,
): Promise<{ id: string; email: string }> {
  const { config } = token;
  const em = forkFor(rootEm, { tenantId: config.tenantId, userId: null, email: config.issuer });
  const externalSubject = `${config.issuer} ${token.subject}`;
  const where =
    config.userClaim === 'email' ? { email: token.subject.trim().toLowerCase() } : { externalSubject };
  const found = await em.findOne(User, where, { fields: ['id', 'email', 'status'] });
  if (found?.status === UserStatus.INVITED) {
    checkDomain(token, found.email);
    // Thrown, not answered, when it did not activate: a refusal is not remembered, so the
    // sign-in after a new invitation tries again.
    if (!(await invitedSignIn?.(rootEm, config.tenantId, found.id)))
      throw unauthorized('the user is invited and has no invitation left to accept: ask to be invited again');
  }
  if (found) return { id: found.id, email: found.email };
  const email = config.userClaim === 'email' ? token.subject : token.email;
  if (!config.createUsers) throw unauthorized('the credential names no user of the tenant');
  if (!email)
    throw unauthorized('a user is created on first sign-in only from a credential with an email claim');
  checkDomain(token, email);
  try {
    const user = await createUser(rootEm, {
      tenantId: config.tenantId,
      email,
      roles: config.createRole ? [config.createRole] : [],
      actorEmail: config.issuer,
      externalSubject: config.userClaim === 'sub' ? externalSubject : undefined,
    });
    return { id: user.id, email: user.email };
  } catch (err) {
    // Two first requests at once: the other one created the user.
    if (err instanceof AppError && err.status === 409) {
      const again = await forkFor(rootEm, {
        tenantId: config.tenantId,
        userId: null,
        email: config.issuer,
      }).findOne(User, where);
      if (again) return { id: again.id, email: again.email };
    }
    if (err instanceof AppError && err.status < 500)
      throw unauthorized(`the user could not be created: ${err.message}`);
    throw err;
  }
}

/** The claims of the user a verified provider token names (401 when there is none). */
export async function userOfIssuerToken(rootEm: EntityManager, token: IssuerToken): Promise<Claims> {
  const key = `${token.config.tenantId} ${token.config.userClaim} ${token.config.issuer} ${token.subject}`;
  let user = users.get(key);
  if (!user) {
    if (users.size >= USERS_MAX) users.clear();
    user = findOrCreate(rootEm, token);
    users.set(key, user);
    user.catch(() => users.delete(key));
  }
  const { id, email } = await user;
  checkDomain(token, email);
  return {
    sub: id,
    email,
    tenantId: token.config.tenantId,
    iat: token.iat,
    exp: token.exp,
    tokenId: token.id,
  };
}
