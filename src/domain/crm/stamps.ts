import { callerOf, type Context } from '../../context';
import type { Activity } from './entities/activity';
import { type Lead, LeadStatus } from './entities/lead';
import type { SentMail } from './entities/sent-mail';

/**
 * When and by whom something happened to a CRM record, stamped by the service unless the client
 * says: the first qualification of a lead, an activity's completion, a mail's first opening.
 */

/** Who qualified a lead, and when, is kept from the first qualification on. */
export function stampQualification(ctx: Context, lead: Lead, input: { status?: LeadStatus | null }): void {
  if (input.status !== LeadStatus.QUALIFIED) return;
  lead.qualifiedDate ??= new Date();
  lead.qualifiedBy ??= callerOf(ctx).userId;
}

/**
 * A new activity is the caller's unless it names an owner; completedAt records when it was done:
 * stamped on completion unless the client says when, and cleared when the activity is reopened.
 */
export function stampActivity(
  ctx: Context,
  activity: Activity,
  input: { ownerId?: string | null; completed?: boolean | null; completedAt?: Date | null },
  isNew: boolean,
): void {
  if (isNew && input.ownerId === undefined) activity.ownerId = callerOf(ctx).userId;
  if (activity.completed && !activity.completedAt) activity.completedAt = new Date();
  if (!activity.completed && input.completed === false && input.completedAt === undefined)
    activity.completedAt = null;
}

/** Like an activity's completedAt: the first opening is stamped, and unmarking clears it. */
export function stampOpening(
  mail: SentMail,
  input: { opened?: boolean | null; openedAt?: Date | null },
): void {
  if (mail.opened && !mail.openedAt) mail.openedAt = new Date();
  if (!mail.opened && input.opened === false && input.openedAt === undefined) mail.openedAt = null;
}
