import type { EntityManager } from '@mikro-orm/core';
import { deferStatement } from '../../db/orm-bypass/deferred-writes';
import { queryRows } from '../../db/orm-bypass/statements';
import type { FileAsset } from '../../entities/shared';
import type { InvoicePdfDue } from './entities/invoice-pdf-due';

/**
 * The statements of `invoice_pdf_due` (its entity: InvoicePdfDue), the invoices whose PDF is still
 * to be made (invoice-pdf-queue.ts says why it is a table). Each is a queue's statement rather than a
 * record's read or write: an upsert of many rows, a claim with SKIP LOCKED, and releases guarded
 * by the claim, all timed by the database's clock, which the leases are compared with.
 */

/** A row as a claim answers it. */
export type ClaimedPdfRow = Pick<InvoicePdfDue, 'tenantId' | 'invoiceId' | 'attempts'>;

/**
 * Makes the PDFs of `invoiceIds` due now, in `em`'s transaction: a row already waiting (claimed
 * or not) is due again at once, its tries counted afresh, and any claim on it forgotten.
 */
export async function markPdfsDue(em: EntityManager, tenantId: string, invoiceIds: string[]): Promise<void> {
  const text = `insert into invoice_pdf_due (tenant_id, invoice_id)
     select $1, unnest($2::uuid[])
     on conflict (tenant_id, invoice_id) do update set due = now(), attempts = 0, claim = null`;
  // Nothing reads its answer: in a request's transaction it goes with the next statement (the
  // number's, for a new invoice) rather than in a round trip of its own.
  if (!deferStatement(em, text, [tenantId, invoiceIds])) await queryRows(em, text, [tenantId, invoiceIds]);
}

/**
 * Claims up to `batch` due rows of any tenant as `claim` (in a worker's transaction: the table's
 * worker policy): each is counted a try and held for `leaseSeconds`, after which another worker
 * may take it. Rows another worker is claiming are passed over.
 */
export function claimDuePdfs(
  em: EntityManager,
  batch: number,
  claim: string,
  leaseSeconds: number,
): Promise<ClaimedPdfRow[]> {
  return queryRows<ClaimedPdfRow>(
    em,
    `with due as (
       select tenant_id, invoice_id from invoice_pdf_due where due <= now()
       order by due limit $1 for update skip locked
     )
     update invoice_pdf_due q
     set claim = $2, attempts = q.attempts + 1, due = now() + make_interval(secs => $3)
     from due where q.tenant_id = due.tenant_id and q.invoice_id = due.invoice_id
     returning q.tenant_id as "tenantId", q.invoice_id as "invoiceId", q.attempts`,
    [batch, claim, leaseSeconds],
  );
}

/**
 * Removes the rows of `invoiceIds` that are still under `claim` (a row queued again meanwhile has
 * none); answers the invoices whose rows were.
 */
export async function dropClaimedPdfs(
  em: EntityManager,
  tenantId: string,
  invoiceIds: readonly string[],
  claim: string,
): Promise<Set<string>> {
  const dropped = await queryRows<{ invoiceId: string }>(
    em,
    `delete from invoice_pdf_due where tenant_id = $1 and invoice_id = any($2::uuid[]) and claim = $3
     returning invoice_id as "invoiceId"`,
    [tenantId, invoiceIds, claim],
  );
  return new Set(dropped.map((row) => row.invoiceId));
}

/** Releases the invoice's row, if still under `claim`, to be tried again in `seconds`. */
export async function retryPdfLater(
  em: EntityManager,
  tenantId: string,
  invoiceId: string,
  claim: string,
  seconds: number,
): Promise<void> {
  await queryRows(
    em,
    `update invoice_pdf_due set claim = null, due = now() + make_interval(secs => $4)
     where tenant_id = $1 and invoice_id = $2 and claim = $3`,
    [tenantId, invoiceId, claim, seconds],
  );
}

/**
 * Sets the `pdf` of each invoice given, in `em`'s transaction. Not MikroORM's `nativeUpdate`,
 * which counts every write of a versioned entity a new version: the PDF's arrival is no edit of
 * the invoice, and a change a client based on the version it read before must not be refused
 * for it.
 */
export async function setInvoicePdfs(
  em: EntityManager,
  tenantId: string,
  pdfs: ReadonlyMap<string, FileAsset>,
): Promise<void> {
  if (pdfs.size === 0) return;
  await queryRows(
    em,
    `update invoice i set pdf = given.pdf
     from unnest($2::uuid[], $3::jsonb[]) as given (id, pdf)
     where i.tenant_id = $1 and i.id = given.id`,
    [tenantId, [...pdfs.keys()], [...pdfs.values()].map((pdf) => JSON.stringify(pdf))],
  );
}
