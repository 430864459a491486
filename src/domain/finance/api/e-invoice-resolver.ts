import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { invalidField, notFound } from '../../../errors';
import { can, Requires } from '../../../permissions/rules';
import { ApInvoice } from '../entities/ap-invoice';
import { E_INVOICE_FORMATS, type EInvoiceFormat } from '../e-invoice';
import { eInvoiceDocument } from '../e-invoice-document';
import { readEInvoice } from '../e-invoice-import';
import type { ApInvoiceInput } from './ap-invoice-inputs';
import { apInvoiceService } from './ap-invoice-service';
import { invoiceService } from './invoice-service';

@ObjectType({ description: 'A document made by the service: its name, media type and bytes (base64).' })
export class GeneratedDocument {
  @Field(() => String, { description: 'File name to save it under.' })
  fileName!: string;
  @Field(() => String, { description: 'Media type: application/xml or application/pdf.' })
  contentType!: string;
  @Field(() => String, { description: 'The bytes, base64-encoded (REST answers them as they are).' })
  content!: string;
}

/** An invoice the caller may see (tenant and subsidiary scope), as an e-invoice in one format. */
export async function invoiceEInvoice(ctx: Context, id: string, format: string): Promise<GeneratedDocument> {
  const wanted = format.toLowerCase() as EInvoiceFormat;
  if (!E_INVOICE_FORMATS.includes(wanted))
    throw invalidField('format', `must be one of ${E_INVOICE_FORMATS.join(', ')}`);
  const invoice = await invoiceService.one(ctx, id);
  if (!invoice) throw notFound(`no invoice ${id}`);
  const document = await eInvoiceDocument(ctx, invoice, wanted);
  return {
    fileName: document.fileName,
    contentType: document.contentType,
    content: document.bytes.toString('base64'),
  };
}

/** A purchase invoice made from an incoming e-invoice: its supplier, dates, currency and lines. */
export async function importApInvoice(ctx: Context, document: string): Promise<ApInvoice> {
  const read = readEInvoice(document);
  const sign = read.creditNote ? -1 : 1;
  const input: Partial<ApInvoiceInput> = {
    invoiceNumber: read.invoiceNumber.slice(0, 200),
    currency: read.currency,
    supplierName: read.supplierName.slice(0, 200),
    ...(read.supplierEmail && /^[^@\s]+@[^@\s]+$/.test(read.supplierEmail)
      ? { supplierEmail: read.supplierEmail }
      : {}),
    invoiceDate: read.invoiceDate,
    ...(read.dueDate ? { dueDate: read.dueDate } : {}),
    receivedDate: new Date(),
    note: [
      read.note,
      `Imported from a ${read.syntax} e-invoice${read.supplierVatNumber ? ` (seller VAT ${read.supplierVatNumber})` : ''}.`,
    ]
      .filter(Boolean)
      .join('\n')
      .slice(0, 20000),
    rows: read.rows.map((r) => ({
      description: r.description.slice(0, 2000),
      quantity: sign * r.quantity,
      unitPrice: r.unitPrice,
      taxRate: r.taxRate,
    })),
  };
  return apInvoiceService.create(ctx, input as ApInvoiceInput);
}

@Resolver()
export class EInvoiceResolver {
  @Requires(can('READ', 'INVOICES'))
  @Query(() => GeneratedDocument, {
    description:
      'A sales invoice as an EN 16931 e-invoice: ubl (UBL 2.1, Peppol BIS Billing 3.0), cii (UN/CEFACT CII) or facturx (the PDF as PDF/A-3 with the CII inside). 409 naming the seller or buyer details it lacks.',
  })
  invoiceEInvoice(
    @Arg('id', () => ID, { description: 'Id of the invoice.' }) id: string,
    @Arg('format', () => String, { defaultValue: 'ubl', description: 'ubl (default), cii or facturx.' })
    format: string,
    @Ctx() ctx: Context,
  ): Promise<GeneratedDocument> {
    return invoiceEInvoice(ctx, id, format);
  }

  @Requires(can('CREATE', 'AP_INVOICES'))
  @Mutation(() => ApInvoice, {
    description:
      'Creates a purchase invoice from an incoming e-invoice (UBL 2.1 Invoice or CreditNote, or UN/CEFACT CII). 400 naming what the document lacks.',
  })
  importApInvoice(
    @Arg('document', () => String, { description: 'The e-invoice XML.' }) document: string,
    @Ctx() ctx: Context,
  ): Promise<ApInvoice> {
    return importApInvoice(ctx, document);
  }
}
