import { FlushMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { callerOf, type Context } from '../../context';
import { conflict } from '../../errors';
import { userByEmail } from '../access/user-guards';
import type { Notification } from './entities/notification';
import { NotificationSettings } from './entities/notification-settings';
import { checkScopes } from './scopes';

/**
 * Where a new notification goes. The recipient's settings decide whether it reaches the in-app
 * feed: a category the recipient has not enabled, a scope it switched off, or in-app
 * notifications turned off keep it out (`delivered` false). It is still stored, so the sender
 * gets its 201 and administrators can see what was sent, but the recipient never sees it.
 */
export async function addressNotification(
  ctx: Context,
  notification: Notification,
  input: { username?: string; scope?: string | null; sender?: string | null },
): Promise<void> {
  if (input.scope) checkScopes('scope', [input.scope]);
  const recipient = await userByEmail(ctx, input.username ?? '');
  notification.userId = recipient.id;
  notification.sender = input.sender ?? callerOf(ctx).email;
  const settings = await ctx.em.findOne(
    NotificationSettings,
    { userId: recipient.id },
    { flushMode: FlushMode.COMMIT },
  );
  notification.delivered = accepts(settings ?? new NotificationSettings(), notification);
}

export function accepts(settings: NotificationSettings, n: Notification): boolean {
  return (
    settings.inAppNotificationsEnabled &&
    settings.enabledCategories.includes(n.category) &&
    !(n.scope && settings.disabledScopes.includes(n.scope))
  );
}

/**
 * The caller's settings, made with the defaults on first read (every category on, in-app and
 * push on, no digest). Two first reads at the same instant cannot both store a row: the loser
 * gets a 409 and its retry reads the row the other stored.
 */
export async function settingsOf(ctx: Context): Promise<NotificationSettings> {
  const caller = callerOf(ctx);
  const found = await ctx.em.findOne(NotificationSettings, { userId: caller.userId });
  if (found) return found;
  const created = ctx.em.create(NotificationSettings, {
    tenantId: caller.tenantId,
    userId: caller.userId,
  } as never);
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('your notification settings were being created at the same time; retry');
    throw err;
  }
  return created;
}
