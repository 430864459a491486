import { createHash } from 'node:crypto';
import type { Context } from '../../context';
import { Customer } from '../reference/entities/customer';
import { FileAsset } from '../../entities/shared';
import type { Tenant } from '../../entities/tenant';
import { callerTenant } from '../access/caller-tenant';
import { assetOf, findFile } from '../files/stored-files';
import type { Invoice } from './entities/invoice';

export async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const money = (n: number | null | undefined, currency: string) => `${currency} ${(n ?? 0).toFixed(2)}`;
const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : '');

/**
 * A sales invoice as a PDF (pdfkit, with its built-in Helvetica): the tenant's billing details,
 * the customer, the rows with their tax, and the totals, as stored after the invoice's amounts
 * were computed.
 */
export async function renderInvoicePdf(
  invoice: Invoice,
  tenant: Tenant,
  customer: Customer | null,
  logo: Buffer | null,
): Promise<Buffer> {
  // Loaded on the first invoice rendered, not at start-up: pdfkit is one large module, and every
  // start (each test file's servers among them) paid for it whether or not it made a PDF.
  const { default: PDFDocument } = await import('pdfkit');
  // A fixed creation date makes the same invoice the same bytes, so an unchanged rendering is
  // recognised (storeInvoicePdf) and no new file, nor an update event, is made for it.
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Invoice ${invoice.invoiceNumber ?? ''}`,
      CreationDate: invoice.invoiceDate ?? new Date(0),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const currency = invoice.currency ?? 'EUR';
  const billing = tenant.billingInfo;
  const address = billing?.address;

  if (logo) {
    // pdfkit draws JPEG and PNG; a logo of another type is left out rather than failing the invoice.
    try {
      doc.image(logo, 445, 40, { fit: [100, 50] });
    } catch {
      /* not a JPEG or PNG */
    }
  }
  doc.fontSize(18).text(tenant.name, 50, 50);
  doc.fontSize(9);
  for (const line of [
    [address?.street, address?.houseNumber].filter(Boolean).join(' '),
    [address?.postalCode, address?.city].filter(Boolean).join(' '),
    address?.country,
    billing?.vatNumber ? `VAT ${billing.vatNumber}` : '',
    billing?.cocNumber ? `CoC ${billing.cocNumber}` : '',
    billing?.iban ? `IBAN ${billing.iban}${billing.bic ? ` (BIC ${billing.bic})` : ''}` : '',
    billing?.email ?? '',
  ])
    if (line) doc.text(line);
  doc.moveDown();
  doc.fontSize(14).text(`Invoice ${invoice.invoiceNumber ?? '(draft)'}`);
  doc.fontSize(10);
  doc.text(`Date: ${day(invoice.invoiceDate)}    Due: ${day(invoice.dueDate)}`);
  if (customer) doc.text(`Bill to: ${customer.name}${customer.email ? ` <${customer.email}>` : ''}`);
  if (invoice.paymentReference) doc.text(`Payment reference: ${invoice.paymentReference}`);
  doc.moveDown();

  const columns = [50, 220, 290, 370, 410, 475];
  const row = (cells: string[]) => {
    const y = doc.y;
    cells.forEach((cell, i) =>
      doc.text(cell, columns[i], y, {
        width: (columns[i + 1] ?? 545) - columns[i] - 5,
        align: i ? 'right' : 'left',
      }),
    );
    doc.x = columns[0];
    doc.moveDown(0.3);
  };
  doc.font('Helvetica-Bold');
  row(['Description', 'Quantity', 'Unit price', 'Tax %', 'Tax', 'Total']);
  doc.font('Helvetica');
  for (const r of invoice.rows) {
    row([
      r.description ?? '',
      r.quantity == null ? '' : String(r.quantity),
      r.unitPrice == null ? '' : money(r.unitPrice, currency),
      `${r.taxRate ?? 0}%`,
      money(r.taxAmount, currency),
      money(r.total, currency),
    ]);
  }
  doc.moveDown();
  doc.font('Helvetica-Bold');
  row(['', '', '', '', 'Subtotal', money(invoice.totalExcludingTax, currency)]);
  row(['', '', '', '', 'Tax', money(invoice.totalTax, currency)]);
  row(['', '', '', '', 'Total', money(invoice.totalWithTax, currency)]);
  doc.font('Helvetica');
  if (invoice.note) {
    doc.moveDown();
    doc.text(invoice.note, columns[0]);
  }
  doc.end();
  return done;
}

/**
 * Renders the invoice's PDF and stores it as a file of the tenant, in the invoice's own
 * transaction, unless it is the rendering already stored (a change the PDF does not show, such
 * as a status); the PDF it replaces is deleted (its bytes go with the clean-up). Nothing is
 * rendered where the request's context serves no files (tools, subscriptions).
 */
export async function storeInvoicePdf(ctx: Context, invoice: Invoice): Promise<void> {
  const store = ctx.files;
  if (!store) return;
  const tenant = await callerTenant(ctx);
  const customer = invoice.clientId ? await ctx.em.findOne(Customer, { id: invoice.clientId }) : null;
  const logoFile = tenant.logo?.blobId ? await findFile(ctx.em, tenant.id, tenant.logo.blobId) : null;
  // A logo is a picture of a few kilobytes; a huge file is not read into memory for it.
  const logo =
    logoFile && logoFile.size <= 5 * 1024 * 1024
      ? await readAll(await store.backend.get(logoFile.storageKey))
      : null;
  const bytes = await renderInvoicePdf(invoice, tenant, customer, logo);
  const previous = invoice.pdf?.blobId;
  if (previous) {
    const current = await findFile(ctx.em, tenant.id, previous);
    if (current?.sha256 === createHash('sha256').update(bytes).digest('hex')) return;
  }
  const file = await store.storeBytes(ctx.em, ctx.caller!.tenantId, ctx.caller!.userId, {
    name: `invoice-${invoice.invoiceNumber ?? invoice.id}.pdf`,
    type: 'application/pdf',
    bytes,
  });
  if (previous) await store.remove(ctx.em, ctx.caller!.tenantId, previous);
  invoice.pdf = Object.assign(new FileAsset(), assetOf(file));
}
