/**
 * "Sign out everywhere": every credential issued to the user before now is refused (the service's
 * tokens and identity providers' alike, by their `iat`: src/auth/withdrawal.ts), on every process
 * from its next request, and live subscriptions are closed (the change NOTIFYs `bms_caller`). A
 * token issued after the moment works at once. API keys are withdrawn by revoking them.
 */
import type { EntityManager } from '@mikro-orm/core';
import { User } from '../../entities/user';
import { notFound } from '../../errors';
import { isUuid } from '../../limits';

export interface SignedOut {
  userId: string;
  signedOutAt: Date;
}

/**
 * Signs the user out; `tokenId` is the provider token that asked (Claims.tokenId), refused too
 * though its whole-second `iat` may equal the moment's second.
 */
export async function signOutEverywhere(
  em: EntityManager,
  userId: string,
  tokenId?: string,
): Promise<SignedOut> {
  const user = isUuid(userId) ? await em.findOne(User, { id: userId }) : null;
  if (!user) throw notFound(`user ${userId} not found`);
  const at = new Date();
  user.signedOutAt = at;
  user.signedOutTokenId = tokenId ?? null;
  await em.flush();
  return { userId: user.id, signedOutAt: at };
}
