import type { EntityManager } from '@mikro-orm/core';
import type { ScheduledJob } from '../../jobs/job';
import { ApInvoice, ApInvoiceStatus, ApPaymentStatus } from './entities/ap-invoice';

/** How many invoices one run reminds of at most; the next run takes the rest. */
const REMINDERS_PER_RUN = 500;

/**
 * Reminds whoever created each AP invoice of `tenantId` due by `now` that is neither paid nor
 * cancelled: stamps `dueNotifiedAt`, once, which produces `ap-invoice.due` in the same
 * transaction (src/domain/notifications/producers.ts). Answers how many were stamped.
 */
export async function remindDueApInvoices(em: EntityManager, tenantId: string, now: Date): Promise<number> {
  const due = await em.find(
    ApInvoice,
    {
      tenantId,
      dueDate: { $lte: now },
      dueNotifiedAt: null,
      status: { $ne: ApInvoiceStatus.CANCELLED },
      $or: [{ paymentStatus: null }, { paymentStatus: { $ne: ApPaymentStatus.PAID } }],
    },
    { limit: REMINDERS_PER_RUN, orderBy: { dueDate: 'asc', id: 'asc' } },
  );
  for (const invoice of due) invoice.dueNotifiedAt = now;
  await em.flush();
  return due.length;
}

/** AP invoices' due-date reminders as a scheduled job: every five minutes per tenant with finance on. */
export const apInvoicesDueJob: ScheduledJob = {
  name: 'finance.ap-invoices-due',
  description: 'reminds the creators of AP invoices that fell due unpaid (ap-invoice.due)',
  schedule: { every: 5 * 60_000 },
  perTenant: true,
  module: 'finance',
  run: ({ em, tenantId, now }) => remindDueApInvoices(em, tenantId!, now),
};
