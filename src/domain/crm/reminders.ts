import type { EntityManager } from '@mikro-orm/core';
import type { ScheduledJob } from '../../jobs/job';
import { Activity } from './entities/activity';
import { Lead, LeadStatus } from './entities/lead';
import { dueLeadActionIds } from './lead-repository';

/** How many records one run reminds at most; the next run takes the rest. */
export const REMINDERS_PER_RUN = 500;

/** Leads in these statuses have no next action to be reminded of. */
const CLOSED = [LeadStatus.WON, LeadStatus.LOST, LeadStatus.DISQUALIFIED];

/**
 * Reminds each owner of the open activities of `tenantId` due by `now`: stamps `dueNotifiedAt`,
 * once, and that change produces the `activity.due` notification in the same transaction
 * (src/domain/notifications/producers.ts). `em` is bound to the tenant (a job's, or a tool's);
 * answers how many were stamped. An activity stamped once is never reminded again, whatever its
 * due date becomes.
 */
export async function remindDueActivities(em: EntityManager, tenantId: string, now: Date): Promise<number> {
  const due = await em.find(
    Activity,
    { tenantId, dueDate: { $lte: now }, dueNotifiedAt: null, completed: false, ownerId: { $ne: null } },
    { limit: REMINDERS_PER_RUN, orderBy: { dueDate: 'asc', id: 'asc' } },
  );
  for (const activity of due) activity.dueNotifiedAt = now;
  await em.flush();
  return due.length;
}

/**
 * Reminds each owner of an open lead whose `nextActionDueDate` has come by `now`: stamps
 * `nextActionNotifiedAt` (producing `activity.due`), once per due date: a lead is reminded again
 * only when its `nextActionDueDate` moves past the last reminder.
 */
export async function remindLeadActions(em: EntityManager, tenantId: string, now: Date): Promise<number> {
  // Two columns compared: a statement picks the ids, the unit of work changes the leads.
  const ids = await dueLeadActionIds(em, tenantId, now, CLOSED, REMINDERS_PER_RUN);
  if (ids.length === 0) return 0;
  const due = await em.find(Lead, { tenantId, id: { $in: ids } });
  for (const lead of due) lead.nextActionNotifiedAt = now;
  await em.flush();
  return due.length;
}

/**
 * The CRM's due-date reminders as a scheduled job: every five minutes per tenant with the CRM
 * module on, activities falling due and then leads' next actions; the items are the reminders sent.
 */
export const dueRemindersJob: ScheduledJob = {
  name: 'crm.due-reminders',
  description: "reminds owners of activities that fell due and of leads' next actions (activity.due)",
  schedule: { every: 5 * 60_000 },
  perTenant: true,
  module: 'crm',
  async run({ em, tenantId, now }) {
    return (await remindDueActivities(em, tenantId!, now)) + (await remindLeadActions(em, tenantId!, now));
  },
};
