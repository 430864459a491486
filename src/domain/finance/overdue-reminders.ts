import { LockMode, type EntityManager } from '@mikro-orm/core';
import { AppError } from '../../errors';
import { tenantWork } from '../../db/tenant-transaction';
import type { FileBackend } from '../../files/backend';
import { Customer } from '../reference/entities/customer';
import { Invoice, InvoiceStatus } from './entities/invoice';
import { overdueCandidateIds } from './invoice-due-repository';
import { mailInvoice } from './invoice-mail';
import { daysPastDueIn, settledStatus } from './invoice-status';
import { cents } from './money';
import { tenantFinanceDefaults } from './tenant-defaults';

/** Who the daily runs write as (audit fields, history, events). */
export const INVOICING_ACTOR = 'invoicing';

export interface OverdueOutcome {
  /** Invoices that became OVERDUE in this run. */
  overdue: number;
  /** Reminders mailed (one per invoice at most per run). */
  reminded: number;
  /**
   * Invoices due a reminder with no one to send it to (no contactEmail, no customer e-mail), or
   * whose e-invoice (the tenant's eInvoiceFormat) lacks seller or buyer details.
   */
  unreachable: number;
}

/**
 * The reminder an invoice `days` past due should have had by now: the latest day of the
 * schedule reached, or null before the first. A reminder sent on or after that day counts.
 */
export function reminderDue(
  schedule: readonly number[],
  days: number,
  lastSentDaysPastDue: number | null,
): number | null {
  const reached = schedule.filter((d) => d <= days);
  if (reached.length === 0) return null;
  const latest = Math.max(...reached);
  return lastSentDaysPastDue !== null && lastSentDaysPastDue >= latest ? null : latest;
}

/**
 * The daily overdue run of one tenant: every invoice that went out (SENT, PARTIALLY_PAID,
 * OVERDUE) with money outstanding past its due date (the tenant's day, in its time zone) becomes
 * OVERDUE (its `invoice.overdue` event), and gets a payment reminder on each day of the tenant's
 * `reminderDays` after its due date (default 7) that it has not had yet: `reminderBody` (else
 * the built-in text) with the PDF, appended to `reminders`, stamping `overdueNotifiedAt`. After
 * downtime, one reminder covers the days missed. Each invoice is handled in a transaction of its
 * own that locks its row (skipping one another process holds) and decides on the row as locked,
 * so any number of processes running this at once send each reminder once. `em` is any
 * EntityManager of the ORM (a transaction per invoice, as the scheduled job runs it), or one in
 * the tenant's transaction already (all of it then commits together).
 */
export async function markOverdueAndRemind(
  em: EntityManager,
  tenantId: string,
  now: Date,
  options: { backend?: FileBackend } = {},
): Promise<OverdueOutcome> {
  const inTenant = tenantWork(em, tenantId, INVOICING_ACTOR);
  const outcome: OverdueOutcome = { overdue: 0, reminded: 0, unreachable: 0 };
  const { defaults, ids } = await inTenant(async (t) => {
    const defaults = await tenantFinanceDefaults(t, tenantId);
    // A day's margin either side of the time zone; the exact test is per invoice below.
    const ids = await overdueCandidateIds(t, tenantId, now);
    return { defaults, ids };
  });
  for (const id of ids) {
    await inTenant(async (t) => {
      const invoice = await t.findOne(Invoice, { id }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE });
      if (!invoice?.dueDate) return; // gone, or another process holds it now
      const days = daysPastDueIn(invoice.dueDate, now, defaults.timeZone);
      const paid = cents(invoice.paid);
      const total = cents(invoice.totalWithTax);
      const status = settledStatus(invoice.status ?? InvoiceStatus.DRAFT, paid, total, days > 0);
      if (status !== InvoiceStatus.OVERDUE) return;
      if (invoice.status !== InvoiceStatus.OVERDUE) {
        invoice.status = InvoiceStatus.OVERDUE;
        outcome.overdue += 1;
      }
      const sentOn = invoice.reminders.map((r) => r.sentOn).filter((d): d is string => !!d);
      const last = sentOn.length ? new Date(Math.max(...sentOn.map((d) => Date.parse(d)))) : null;
      const due = reminderDue(
        defaults.reminderDays,
        days,
        last ? daysPastDueIn(invoice.dueDate, last, defaults.timeZone) : null,
      );
      if (due !== null) {
        if (!invoice.contactEmail && !(await hasCustomerEmail(t, invoice))) outcome.unreachable += 1;
        else {
          // Recorded before the mail's flush, so the change reads as a reminder, not as a send.
          const before = { reminders: invoice.reminders, overdueNotifiedAt: invoice.overdueNotifiedAt };
          invoice.reminders = [
            ...invoice.reminders,
            { sentOn: now.toISOString(), createdBy: INVOICING_ACTOR },
          ];
          invoice.overdueNotifiedAt = now;
          try {
            await mailInvoice(t, options.backend, invoice, 'reminder', {}, INVOICING_ACTOR);
            outcome.reminded += 1;
          } catch (err) {
            // The tenant's e-invoice lacks seller or buyer details (nothing was queued): the
            // reminder is not recorded, so a later run sends it once they are there.
            if (!(err instanceof AppError && err.status === 409)) throw err;
            Object.assign(invoice, before);
            outcome.unreachable += 1;
          }
        }
      }
      await t.flush();
    });
  }
  return outcome;
}

async function hasCustomerEmail(em: EntityManager, invoice: Invoice): Promise<boolean> {
  if (!invoice.clientId) return false;
  const customer = await em.findOne(
    Customer,
    { tenantId: invoice.tenantId, id: invoice.clientId },
    { fields: ['email'] },
  );
  return !!customer?.email;
}
