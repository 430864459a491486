import { callerOf, type Context } from '../../context';
import { queryRows } from '../../db/orm-bypass/statements';
import { NotificationType } from './entities/notification';
import { notificationsFor } from './produce';

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
  const rows = await queryRows(
    ctx.em,
    `select id from app_user where tenant_id = $1 and status = 'ACTIVE' and id <> $2`,
    [caller.tenantId, caller.userId],
  );
  const made = await notificationsFor(
    ctx.em,
    caller.tenantId,
    rows.map((r) => String(r.id)),
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
