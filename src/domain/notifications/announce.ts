import { callerOf, type Context } from '../../context';
import { NotificationType } from './entities/notification';
import { notificationsFor } from './produce';
import { activeUsersBut } from './recipient-repository';

/** The scope of an announcement: a message about the service to every user of the tenant. */
export const ANNOUNCEMENT_SCOPE = 'system.announcement';

/**
 * An announcement: one `system.announcement` notification to every active user of the caller's
 * tenant but the caller, each under its recipient's settings as any notification; answers how
 * many users it was addressed to.
 */
export async function announce(
  ctx: Context,
  input: { title: string; body?: string | null; actionUrl?: string | null },
): Promise<number> {
  const caller = callerOf(ctx);
  const userIds = await activeUsersBut(ctx.em, caller.tenantId, caller.userId);
  const made = await notificationsFor(
    ctx.em,
    caller.tenantId,
    userIds,
    {
      scope: ANNOUNCEMENT_SCOPE,
      type: NotificationType.INFO,
      title: input.title,
      body: input.body ?? undefined,
      actionUrl: input.actionUrl ?? undefined,
    },
    caller.email,
  );
  await ctx.em.flush();
  return made.length;
}
