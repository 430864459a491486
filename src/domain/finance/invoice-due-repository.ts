import type { EntityManager } from '@mikro-orm/core';
import { queryRows } from '../../db/orm-bypass/statements';

/**
 * The invoices a finance job looks at: each statement picks ids by a test on several columns or
 * inside the recurring agreement's JSON, with a day's margin for the tenant's time zone; the job
 * then locks and decides on each invoice itself through the unit of work.
 */

interface InvoiceIdRow {
  id: string;
}

/** Open invoices (sent, partly paid or overdue) unpaid in part and due before `now`, soonest due first. */
export async function overdueCandidateIds(em: EntityManager, tenantId: string, now: Date): Promise<string[]> {
  const rows = await queryRows<InvoiceIdRow>(
    em,
    `select id from invoice
       where tenant_id = $1 and status in ('SENT', 'PARTIALLY_PAID', 'OVERDUE')
         and due_date < $2::timestamptz and total_with_tax > 0 and coalesce(paid, 0) < total_with_tax
       order by due_date, id`,
    [tenantId, now.toISOString()],
  );
  return rows.map((r) => r.id);
}

/** Invoices not cancelled whose recurring agreement's next date comes before `today` plus two days. */
export async function recurringDueIds(em: EntityManager, tenantId: string, today: Date): Promise<string[]> {
  const rows = await queryRows<InvoiceIdRow>(
    em,
    `select id from invoice
       where tenant_id = $1 and recurring_agreement is not null and status is distinct from 'CANCELLED'
         and (recurring_agreement->>'nextInvoiceDate')::timestamptz < $2::timestamptz + interval '2 days'
       order by id`,
    [tenantId, today.toISOString()],
  );
  return rows.map((r) => r.id);
}
