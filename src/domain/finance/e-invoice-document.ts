import type { Context } from '../../context';
import type { Invoice } from './entities/invoice';
import { renderEInvoice, type EInvoiceFormat } from './e-invoice';
import { buyerParty, sellerParty } from './invoice-parties';
import { invoiceDocumentParts, invoicePdfBytes } from './invoice-pdf';

/** A made e-invoice: the name to attach or save it under, its media type and its bytes. */
export interface EInvoiceDocument {
  fileName: string;
  contentType: 'application/xml' | 'application/pdf';
  bytes: Buffer;
}

const FORMAT_FILES: Record<EInvoiceFormat, { suffix: string; type: EInvoiceDocument['contentType'] }> = {
  ubl: { suffix: '-ubl.xml', type: 'application/xml' },
  cii: { suffix: '-cii.xml', type: 'application/xml' },
  facturx: { suffix: '-facturx.pdf', type: 'application/pdf' },
};

/**
 * An invoice of the caller's tenant as an e-invoice, with the tenant as seller and the invoice's
 * customer as buyer: what the e-invoice operation answers and what an e-mail attaches. Missing
 * seller or buyer details are a 409 naming each field (renderEInvoice).
 */
export async function eInvoiceDocument(
  ctx: Context,
  invoice: Invoice,
  format: EInvoiceFormat,
): Promise<EInvoiceDocument> {
  const parts = await invoiceDocumentParts(ctx, invoice);
  const billing = parts.tenant.billingInfo;
  const bytes = await renderEInvoice(
    invoice,
    sellerParty(parts.tenant),
    parts.customer ? buyerParty(parts.customer) : null,
    format,
    {
      credited: parts.credited,
      iban: billing?.iban,
      bic: billing?.bic,
      cocNumber: billing?.cocNumber,
      pdf: format === 'facturx' ? await invoicePdfBytes(ctx, invoice, parts) : undefined,
    },
  );
  const file = FORMAT_FILES[format];
  return {
    fileName: `invoice-${invoice.invoiceNumber ?? invoice.id}${file.suffix}`,
    contentType: file.type,
    bytes,
  };
}
