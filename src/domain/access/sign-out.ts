/**
 * "Sign out everywhere": every credential issued to the user before now is refused (the service's
 * tokens and identity providers' alike, by their `iat`; src/auth/authenticate.ts), on every
 * process from its next request, and live subscriptions are closed (the change NOTIFYs
 * `bms_caller`). The user signs in again for a new token. API keys are withdrawn by revoking them.
 */
import type { EntityManager } from '@mikro-orm/core';
import { User } from '../../entities/user';
import { notFound } from '../../errors';
import { isUuid } from '../../family/limits';

export async function signOutEverywhere(em: EntityManager, userId: string): Promise<Date> {
  const user = isUuid(userId) ? await em.findOne(User, { id: userId }) : null;
  if (!user) throw notFound(`user ${userId} not found`);
  const at = new Date();
  user.signedOutAt = at;
  await em.flush();
  return at;
}
