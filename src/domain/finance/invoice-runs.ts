import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../../logger';
import { runPeriodically } from '../../jobs/periodic';
import { markOverdueAndRemind } from './overdue-reminders';
import { generateRecurringInvoices } from './recurring-invoices';

/** How often each process runs the invoice runs: they act once a day per invoice, whenever they run. */
export const INVOICE_RUNS_INTERVAL_MS = 3600_000;

/**
 * The daily invoice runs, for every active tenant: first the recurring agreements (so a new
 * invoice made today is in today's overdue run), then overdue invoices and reminders. Every
 * process runs them every hour: both decide per invoice under its row lock from what is stored
 * (the agreement's `nextInvoiceDate`, the reminders sent), so a period or a reminder is acted on
 * once however many processes run them and however often. A tenant's failure is logged and the
 * others go on.
 */
export function startInvoiceRuns(orm: MikroORM, logger: Logger, intervalMs = INVOICE_RUNS_INTERVAL_MS) {
  const log = logger.child({ job: 'invoice runs' });
  // A stop waits for the tenant in hand only, not for the rest of the run.
  let stopping = false;
  const periodic = runPeriodically(intervalMs, log, 'invoice runs failed; trying again later', async () => {
    const tenants = (await orm.em
      .fork()
      .getConnection()
      .execute(`select id from tenant where active order by id`, [], 'all')) as { id: string }[];
    for (const { id } of tenants) {
      if (stopping) return;
      const now = new Date();
      try {
        const recurring = await generateRecurringInvoices(orm.em, id, now);
        const overdue = await markOverdueAndRemind(orm.em, id, now);
        if (recurring.generated || overdue.overdue || overdue.reminded)
          log.info({ tenantId: id, recurring, overdue }, 'invoice runs');
      } catch (err) {
        log.warn({ err, tenantId: id }, 'invoice runs failed for a tenant; trying again at the next run');
      }
    }
  });
  return {
    async stop() {
      stopping = true;
      await periodic.stop();
    },
  };
}
