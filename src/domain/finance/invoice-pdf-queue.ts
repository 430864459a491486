import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { withTenant } from '../../db/tenant-transaction';
import { asWorker } from '../../db/worker-transaction';
import { outboxRow, recordData } from '../../events/outbox';
import { signalWork } from '../../events/work-signals';
import { IDLE_POLL_MAX_MS, pollQueue, type Periodic, type QueuePolling } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import type { FileStore, PutFile } from '../files/stored-files';
import { Invoice } from './entities/invoice';
import { putInvoicePdf, readInvoicePdfSources, readLogo, recordInvoicePdfs } from './invoice-pdf';
import {
  claimDuePdfs,
  dropClaimedPdfs,
  markPdfsDue,
  retryPdfLater,
  setInvoicePdfs,
  type ClaimedPdfRow,
} from './invoice-pdf-repository';

/**
 * An invoice's PDF is made after the invoice commits, not in its transaction: rendering took
 * most of a create's time, and a create holds the tenant's invoice-number lock until it commits,
 * so one tenant's creates ran one at a time behind it. The work is a row of `invoice_pdf_due`
 * written in the invoice's own transaction (it commits or rolls back with the invoice, and
 * survives a crash after the commit); every process polls the table and claims rows with FOR
 * UPDATE SKIP LOCKED, as the thumbnails and coverage jobs do (jobs/periodic.ts), so each PDF is
 * made by one process. A scheduled job (jobs/job.ts) would not do: it runs once per period, not
 * shortly after each invoice. The outbox's worker is the kernel's and delivers events to
 * receivers; rendering a domain's document is no delivery.
 */

/** Who the worker's writes are attributed to. */
const PDF_ACTOR = 'invoice-pdfs';
/** Declared with the invoice's other events (events/domain-events.ts), so receivers can subscribe. */
const PDF_MADE_EVENT = 'invoice.pdf_made';
/** How long a claim holds a row: a worker that died with it leaves it to another after this. */
const LEASE_SECONDS = 120;
/** Tries of one invoice's PDF before it is left to the on-demand rendering of its mails. */
const MAX_ATTEMPTS = 5;
/** The wait before the first retry of a failed rendering; each further one waits twice as long. */
const RETRY_SECONDS = 30;

/**
 * Records, in `em`'s transaction, that the PDFs of `invoiceIds` (stored in this transaction) are
 * to be made, and wakes this process's worker. A row already waiting is due again at once.
 */
export async function queueInvoicePdfs(
  em: EntityManager,
  tenantId: string,
  invoiceIds: string[],
): Promise<void> {
  if (invoiceIds.length === 0) return;
  await markPdfsDue(em, tenantId, invoiceIds);
  // In this process only: a NOTIFY per invoice would make the tenant's creates take turns at
  // commit (events/work-signals.ts); other processes find the row at their next look.
  signalWork('invoice-pdfs');
}

/** A claimed row, with the claim that holds it. */
type Claimed = ClaimedPdfRow & { claim: string };

/** Claims up to `batch` due rows of any tenant for `LEASE_SECONDS`, in a transaction of its own. */
async function claimDue(orm: MikroORM, batch: number): Promise<Claimed[]> {
  const claim = randomUUID();
  const rows = await asWorker(orm, PDF_ACTOR, (em) => claimDuePdfs(em, batch, claim, LEASE_SECONDS));
  return rows.map((r) => ({ ...r, claim }));
}

/**
 * Makes the claimed PDFs of one tenant, in three steps. A transaction reads what the PDFs show
 * (the tenant, customers and stored files read once for all). Outside any, each PDF is drawn and
 * its bytes written to the store: with an object store that is a network call, and in a
 * transaction it held a connection of the pool and the invoice's row lock while it ran (on the
 * embedded database, its one connection). A second transaction locks the invoices and takes off
 * the queue the rows still under this claim, then records those invoices' PDFs. A change to an
 * invoice meanwhile queued it again and took the claim away: its bytes are then of the invoice as
 * it was, and are removed; the next claim draws it anew. The `pdf` field is written by a
 * statement of its own, so the PDF's arrival is no edit of the invoice: no new version or history
 * entry, but an event of its own (`invoice.pdf_made`). Answers the jobs whose drawing or write
 * failed.
 */
async function makeForTenant(
  orm: MikroORM,
  files: FileStore,
  logger: Logger,
  tenantId: string,
  jobs: readonly Claimed[],
): Promise<Claimed[]> {
  const actor = { tenantId, userId: null, email: PDF_ACTOR };
  const caller = { tenantId };
  const { sources, logoKey } = await withTenant(orm.em, actor, async (em) =>
    readInvoicePdfSources(
      { em, caller, files },
      await em.find(Invoice, { tenantId, id: { $in: jobs.map((job) => job.invoiceId) } }),
    ),
  );
  // The tenant's logo, read once for the batch.
  const logo = await readLogo(files.backend, logoKey);
  const puts = new Map<string, PutFile>();
  const failed: Claimed[] = [];
  const next = jobs.values();
  const lane = async () => {
    for (const job of next) {
      const source = sources.get(job.invoiceId);
      if (!source) continue;
      try {
        const put = await putInvoicePdf(files, tenantId, source, logo);
        if (put) puts.set(job.invoiceId, put);
      } catch (err) {
        logger.warn(
          { err, tenantId, invoiceId: job.invoiceId, attempts: job.attempts },
          'invoice PDF failed; trying again later',
        );
        failed.push(job);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, jobs.length) }, lane));
  const done = jobs.filter((job) => !failed.includes(job));
  let recorded = new Set<string>();
  try {
    recorded = await withTenant(orm.em, actor, async (em) => {
      const ids = done.map((job) => job.invoiceId);
      const invoices = ids.length
        ? await em.find(Invoice, { tenantId, id: { $in: ids } }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        : [];
      const held = await dropClaimedPdfs(em, tenantId, ids, jobs[0].claim);
      const made = new Map<string, { invoice: Invoice; put: PutFile }>();
      for (const invoice of invoices) {
        const put = puts.get(invoice.id);
        if (put && held.has(invoice.id)) made.set(invoice.id, { invoice, put });
      }
      const pdfs = await recordInvoicePdfs(em, files, made);
      await setInvoicePdfs(em, tenantId, pdfs);
      // Receivers learn of each PDF without an edit of the invoice: its own event, with the
      // record as it now stands, in the transaction that stores the PDF.
      for (const { invoice } of made.values())
        em.persist(
          outboxRow({
            tenantId,
            type: PDF_MADE_EVENT,
            resourceType: 'invoice',
            resourceId: invoice.id,
            actor: { userId: null, email: PDF_ACTOR },
            data: { ...recordData(invoice), pdf: pdfs.get(invoice.id) },
          }),
        );
      await em.flush();
      return new Set(made.keys());
    });
  } finally {
    for (const [invoiceId, put] of puts)
      if (!recorded.has(invoiceId)) await files.discard(put).catch(() => undefined);
  }
  return failed;
}

/** A failed rendering: tried again later, or after `MAX_ATTEMPTS` left to the mails' own rendering. */
async function settleFailure(orm: MikroORM, job: Claimed): Promise<void> {
  await withTenant(orm.em, { tenantId: job.tenantId, userId: null, email: PDF_ACTOR }, async (em) => {
    if (job.attempts >= MAX_ATTEMPTS) await dropClaimedPdfs(em, job.tenantId, [job.invoiceId], job.claim);
    else
      await retryPdfLater(
        em,
        job.tenantId,
        job.invoiceId,
        job.claim,
        RETRY_SECONDS * 2 ** (job.attempts - 1),
      );
  });
}

/**
 * How many claimed PDFs are drawn and written at once: the drawing thread draws one at a time,
 * and draws the next while the store writes the bytes of one. None holds a connection.
 */
const AT_ONCE = 4;

/** Makes the PDFs that are due, at most `batch` claimed at a time; answers how many were claimed. */
export async function makeInvoicePdfs(
  orm: MikroORM,
  files: FileStore,
  logger: Logger,
  batch = 10,
): Promise<number> {
  const claimed = await claimDue(orm, batch);
  const byTenant = new Map<string, Claimed[]>();
  for (const job of claimed) byTenant.set(job.tenantId, [...(byTenant.get(job.tenantId) ?? []), job]);
  for (const [tenantId, jobs] of byTenant) {
    let failed: Claimed[];
    try {
      failed = await makeForTenant(orm, files, logger, tenantId, jobs);
    } catch (err) {
      logger.warn({ err, tenantId, invoices: jobs.length }, 'invoice PDFs failed; trying again later');
      failed = jobs;
    }
    for (const job of failed) await settleFailure(orm, job);
  }
  return claimed.length;
}

/**
 * The PDF worker of this process: looks for due PDFs at once when this process queues one, and
 * otherwise less and less often while it finds none (jobs/periodic.ts).
 */
export function startInvoicePdfs(
  orm: MikroORM,
  files: FileStore,
  logger: Logger,
  polling: QueuePolling = { firstMs: 200, maxMs: IDLE_POLL_MAX_MS },
): Periodic {
  return pollQueue('invoice-pdfs', polling, logger, 'invoice PDFs failed; trying again later', async () => {
    let made = 0;
    for (let n; (n = await makeInvoicePdfs(orm, files, logger)) > 0;) made += n;
    return made > 0;
  });
}
