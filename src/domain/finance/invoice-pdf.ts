import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { Customer } from '../reference/entities/customer';
import { FileAsset } from '../../entities/shared';
import { Tenant } from '../../entities/tenant';
import { notFound } from '../../errors';
import type { FileBackend } from '../../files/backend';
import { assetOf, findFile, findFiles, type FileStore, type PutFile } from '../files/stored-files';
import { Invoice, InvoiceRowType, InvoiceType } from './entities/invoice';
import { buyerParty, isReverseCharged, sellerParty, type InvoiceParty } from './invoice-parties';
import { REVERSE_CHARGE_NOTE, vatBreakdown } from './vat-rules';
import type { InvoicePdfLayout } from './invoice-pdf-drawing';
import { drawInThread } from './invoice-pdf-threads';

export async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const money = (n: number | null | undefined, currency: string) => `${currency} ${(n ?? 0).toFixed(2)}`;
const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : '');

/** A party's block on the invoice: name, postal address, country and VAT number, lines left out when empty. */
function partyLines(party: InvoiceParty): string[] {
  return [
    party.street ?? '',
    [party.postalCode, party.city].filter(Boolean).join(' '),
    party.country ?? '',
    party.vatNumber ? `VAT ${party.vatNumber}` : '',
  ].filter(Boolean);
}

/**
 * What a sales invoice's PDF shows, with what an EU invoice must show (Directive 2006/112/EC,
 * article 226): the seller's and the buyer's names, addresses and VAT numbers, the invoice and
 * supply dates, the rows with their rates, the VAT per rate, the totals before and after VAT, the
 * reverse-charge note where it applies, and for a credit note the invoice it corrects. Everything
 * as stored after the invoice's amounts were computed.
 */
export function invoicePdfLayout(
  invoice: Invoice,
  tenant: Tenant,
  customer: Customer | null,
  credited: Pick<Invoice, 'invoiceNumber' | 'invoiceDate'> | null = null,
): InvoicePdfLayout {
  const title = invoice.type === InvoiceType.CREDIT_NOTE ? 'Credit note' : 'Invoice';
  const currency = invoice.currency ?? 'EUR';
  const billing = tenant.billingInfo;
  const seller = sellerParty(tenant);
  const notes: string[] = [];
  if (customer && isReverseCharged(invoice, seller, buyerParty(customer))) notes.push(REVERSE_CHARGE_NOTE);
  if (invoice.note) notes.push(invoice.note);
  return {
    title: `${title} ${invoice.invoiceNumber ?? ''}`,
    // A fixed creation date makes the same invoice the same bytes, so an unchanged rendering is
    // recognised (storeInvoicePdf) and no new file, nor an update event, is made for it.
    creationDate: invoice.invoiceDate ?? new Date(0),
    sellerName: tenant.name,
    sellerLines: [
      ...partyLines(seller),
      billing?.cocNumber ? `CoC ${billing.cocNumber}` : '',
      billing?.iban ? `IBAN ${billing.iban}${billing.bic ? ` (BIC ${billing.bic})` : ''}` : '',
      billing?.email ?? '',
    ].filter(Boolean),
    heading: `${title} ${invoice.invoiceNumber ?? '(draft)'}`,
    // The model has no separate delivery date: goods and services are taken as supplied on the
    // invoice date (docs/business-rules.md).
    dates: `Date: ${day(invoice.invoiceDate)}    Supply date: ${day(invoice.invoiceDate)}    Due: ${day(invoice.dueDate)}`,
    corrects: credited
      ? `Corrects invoice ${credited.invoiceNumber ?? ''} of ${day(credited.invoiceDate)}`
      : null,
    buyerLines: customer
      ? [
          `Bill to: ${customer.name}`,
          ...partyLines(buyerParty(customer)),
          ...(customer.email ? [customer.email] : []),
        ]
      : null,
    paymentReference: invoice.paymentReference ? `Payment reference: ${invoice.paymentReference}` : null,
    rows: invoice.rows.map((r) => [
      r.description ?? '',
      r.quantity == null ? '' : String(r.quantity),
      r.unitPrice == null ? '' : money(r.unitPrice, currency),
      r.type === InvoiceRowType.TEXT ? '' : `${r.taxRate ?? 0}%`,
      money(r.taxAmount, currency),
      money(r.total, currency),
    ]),
    vatLines: vatBreakdown(invoice.rows).map((line) => [
      '',
      money(line.taxable, currency),
      `${line.rate}%`,
      money(line.tax, currency),
      '',
    ]),
    totals: [
      ['', 'Total excl. VAT', money(invoice.totalExcludingTax, currency)],
      ['', 'VAT', money(invoice.totalTax, currency)],
      ['', 'Total incl. VAT', money(invoice.totalWithTax, currency)],
    ],
    notes,
  };
}

/** A sales invoice as a PDF, drawn off the event loop (invoice-pdf-threads.ts). */
export function renderInvoicePdf(
  invoice: Invoice,
  tenant: Tenant,
  customer: Customer | null,
  logo: Buffer | null,
  credited: Pick<Invoice, 'invoiceNumber' | 'invoiceDate'> | null = null,
): Promise<Buffer> {
  return drawInThread(invoicePdfLayout(invoice, tenant, customer, credited), logo);
}

/** What an invoice's documents (its PDF, its e-invoices) show besides the invoice itself. */
export interface InvoiceDocumentParts {
  tenant: Tenant;
  customer: Customer | null;
  credited: Invoice | null;
}

/**
 * Where an invoice's documents are made: a request's context, or the PDF worker's tenant
 * transaction (invoice-pdf-queue.ts), which has a tenant but no signed-in caller.
 */
export interface DocumentContext {
  em: EntityManager;
  caller: { tenantId: string; userId?: string | null } | null;
  files?: FileStore;
}

/**
 * The tenant, the customers and the corrected invoices of `invoices` (of `tenantId`), each read
 * once for all of them: answers each invoice's parts.
 */
async function documentPartsOf(
  em: EntityManager,
  tenantId: string,
  invoices: readonly Invoice[],
): Promise<(invoice: Invoice) => InvoiceDocumentParts> {
  const tenant = await em.findOne(Tenant, { id: tenantId });
  if (!tenant) throw notFound('the tenant does not exist');
  const ids = (pick: (invoice: Invoice) => string | null | undefined) => [
    ...new Set(invoices.map(pick).filter((id): id is string => Boolean(id))),
  ];
  const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  const clientIds = ids((i) => i.clientId);
  const creditedIds = ids((i) => i.creditedInvoiceId);
  const customers = byId(
    clientIds.length ? await em.find(Customer, { tenantId, id: { $in: clientIds } }) : [],
  );
  const credited = byId(
    creditedIds.length ? await em.find(Invoice, { tenantId, id: { $in: creditedIds } }) : [],
  );
  return (invoice) => ({
    tenant,
    customer: (invoice.clientId && customers.get(invoice.clientId)) || null,
    credited: (invoice.creditedInvoiceId && credited.get(invoice.creditedInvoiceId)) || null,
  });
}

/** The tenant, the customer and the corrected invoice of an invoice, read in the caller's tenant. */
export async function invoiceDocumentParts(
  ctx: DocumentContext,
  invoice: Invoice,
): Promise<InvoiceDocumentParts> {
  return (await documentPartsOf(ctx.em, ctx.caller?.tenantId ?? invoice.tenantId, [invoice]))(invoice);
}

/** Where the tenant's logo is stored, where files are served and it is one a PDF can carry. */
async function logoKeyOf(
  em: EntityManager,
  backend: FileBackend | undefined,
  tenant: Tenant,
): Promise<string | null> {
  const logoFile = backend && tenant.logo?.blobId ? await findFile(em, tenant.id, tenant.logo.blobId) : null;
  // A logo is a picture of a few kilobytes; a huge file is not read into memory for it.
  return logoFile && logoFile.size <= 5 * 1024 * 1024 ? logoFile.storageKey : null;
}

/** The logo's bytes, from where `logoKeyOf` found it stored. */
export const readLogo = async (
  backend: FileBackend | undefined,
  key: string | null,
): Promise<Buffer | null> => (backend && key ? readAll(await backend.get(key)) : null);

/**
 * The invoice's PDF as rendered now, with the tenant's logo where files are served: the same
 * bytes whether the PDF worker stores it or a mail renders it because it is not made yet.
 */
export async function renderInvoicePdfIn(
  em: EntityManager,
  backend: FileBackend | undefined,
  invoice: Invoice,
  { tenant, customer, credited }: InvoiceDocumentParts,
): Promise<Buffer> {
  const logo = await readLogo(backend, await logoKeyOf(em, backend, tenant));
  return renderInvoicePdf(invoice, tenant, customer, logo, credited);
}

/** The invoice's PDF as rendered now, with the tenant's logo where files are served. */
export async function invoicePdfBytes(
  ctx: DocumentContext,
  invoice: Invoice,
  parts?: InvoiceDocumentParts,
): Promise<Buffer> {
  return renderInvoicePdfIn(
    ctx.em,
    ctx.files?.backend,
    invoice,
    parts ?? (await invoiceDocumentParts(ctx, invoice)),
  );
}

/**
 * What the PDF worker reads of an invoice, in a transaction, to make its PDF after it
 * (invoice-pdf-queue.ts): drawing it and writing its bytes hold no connection and no lock.
 */
export interface InvoicePdfSource {
  layout: InvoicePdfLayout;
  name: string;
  /** The digest of the PDF stored now, if any: the same rendering is not stored again. */
  storedSha256: string | null;
}

/**
 * Reads what the PDFs of `invoices` (of the caller's tenant) show, in `ctx`'s transaction: the
 * tenant, the customers, the corrected invoices and the PDFs stored now, each read once for all
 * of them, keyed by invoice id; and where the tenant's logo is stored (readLogo reads it).
 */
export async function readInvoicePdfSources(
  ctx: DocumentContext & { files: FileStore; caller: { tenantId: string } },
  invoices: readonly Invoice[],
): Promise<{ sources: Map<string, InvoicePdfSource>; logoKey: string | null }> {
  const { em, caller } = ctx;
  const tenantId = caller.tenantId;
  const sources = new Map<string, InvoicePdfSource>();
  if (invoices.length === 0) return { sources, logoKey: null };
  const partsOf = await documentPartsOf(em, tenantId, invoices);
  const pdfIds = invoices.map((invoice) => invoice.pdf?.blobId).filter((id): id is string => Boolean(id));
  const stored = new Map((await findFiles(em, tenantId, pdfIds)).map((file) => [file.id, file.sha256]));
  for (const invoice of invoices) {
    const { tenant, customer, credited } = partsOf(invoice);
    sources.set(invoice.id, {
      layout: invoicePdfLayout(invoice, tenant, customer, credited),
      name: `invoice-${invoice.invoiceNumber ?? invoice.id}.pdf`,
      storedSha256: (invoice.pdf?.blobId && stored.get(invoice.pdf.blobId.toLowerCase())) || null,
    });
  }
  return { sources, logoKey: await logoKeyOf(em, ctx.files.backend, partsOf(invoices[0]).tenant) };
}

/**
 * Draws the PDF `source` describes, with the tenant's `logo` (readLogo), and
 * writes its bytes to the store, outside any transaction. Null when it is the rendering stored
 * already: a fixed creation date makes the same invoice the same bytes (invoicePdfLayout).
 */
export async function putInvoicePdf(
  files: FileStore,
  tenantId: string,
  source: InvoicePdfSource,
  logo: Buffer | null,
): Promise<PutFile | null> {
  const bytes = await drawInThread(source.layout, logo);
  if (source.storedSha256 === createHash('sha256').update(bytes).digest('hex')) return null;
  return files.putBytes(tenantId, { name: source.name, type: 'application/pdf', bytes });
}

/**
 * Records the PDFs `putInvoicePdf` wrote as their invoices', in `em`'s transaction (the invoices
 * given, keyed by id); the PDF each replaces is deleted (its bytes go with the clean-up). Answers
 * each file's value as the `pdf` field holds it, keyed by invoice id.
 */
export async function recordInvoicePdfs(
  em: EntityManager,
  files: FileStore,
  made: ReadonlyMap<string, { invoice: Invoice; put: PutFile }>,
): Promise<Map<string, FileAsset>> {
  const entries = [...made.values()];
  const stored = await files.recordPuts(
    em,
    null,
    entries.map((entry) => entry.put),
  );
  for (const { invoice } of entries)
    if (invoice.pdf?.blobId) await files.remove(em, invoice.tenantId, invoice.pdf.blobId);
  return new Map(
    entries.map(({ invoice }, i) => [invoice.id, Object.assign(new FileAsset(), assetOf(stored[i]))]),
  );
}
