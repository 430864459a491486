import type { ScheduledJob } from '../../jobs/job';
import { markOverdueAndRemind } from './overdue-reminders';
import { generateRecurringInvoices } from './recurring-invoices';

/**
 * The finance module's daily jobs, per tenant at a time of the tenant's day: the recurring
 * agreements first (06:00), so an invoice made today is in the overdue run (07:00). The
 * scheduler runs each once a day per tenant; each handles an invoice at a time in a transaction
 * of its own, deciding under its row lock from what is stored, so a manual run beside the
 * scheduled one acts on nothing twice, and a run holds the tenant's invoice numbers only while it
 * makes one.
 */
export const invoiceJobs: ScheduledJob[] = [
  {
    name: 'invoices.recurring',
    description:
      'makes the invoices of the recurring agreements whose next date has come (each missed period once)',
    schedule: { dailyAt: '06:00' },
    perTenant: true,
    ownTransactions: true,
    module: 'finance',
    async run({ em, tenantId, now }) {
      return (await generateRecurringInvoices(em, tenantId!, now)).generated;
    },
  },
  {
    name: 'invoices.overdue',
    description: 'marks invoices with money outstanding past due OVERDUE and mails the payment reminders due',
    schedule: { dailyAt: '07:00' },
    perTenant: true,
    ownTransactions: true,
    module: 'finance',
    async run({ em, tenantId, now }) {
      const outcome = await markOverdueAndRemind(em, tenantId!, now);
      return outcome.overdue + outcome.reminded;
    },
  },
];
