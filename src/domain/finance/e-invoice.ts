import type { Invoice as EInvoiceData } from '@e-invoice-eu/core';
import { problems, type Problem } from '../../errors';
import {
  InvoiceQuantityType,
  InvoiceRowType,
  InvoiceType,
  type Invoice,
  type InvoiceRow,
} from './entities/invoice';
import { withFacturXml } from './factur-x-xml';
import { isReverseCharged, type InvoiceParty } from './invoice-parties';
import { vatBreakdown } from './vat-rules';

/**
 * EN 16931 e-invoices of a sales invoice, made with @e-invoice-eu/core: UBL 2.1 to Peppol BIS
 * Billing 3.0, UN/CEFACT CII, and Factur-X (the invoice's PDF as PDF/A-3 with the CII inside).
 * The library takes one document model, shaped like UBL, and writes each syntax from it.
 */
export type EInvoiceFormat = 'ubl' | 'cii' | 'facturx';
export const E_INVOICE_FORMATS: readonly EInvoiceFormat[] = ['ubl', 'cii', 'facturx'];

/** The library's name of each format; Factur-X in its EN 16931 profile, the one the standard defines. */
const LIBRARY_FORMAT: Record<EInvoiceFormat, string> = {
  ubl: 'UBL',
  cii: 'CII',
  facturx: 'Factur-X-EN16931',
};

/** Peppol BIS Billing 3.0: the specification (BT-24) and the business process (BT-23) it names. */
const PEPPOL_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** UN/ECE Recommendation 20 units for the row quantities. */
const UNIT: Record<InvoiceQuantityType, string> = {
  AMOUNT: 'C62',
  HOURS: 'HUR',
  DAYS: 'DAY',
  PERCENTAGE: 'C62',
};

/** UNTDID 1001 document types: commercial invoice, credit note, prepayment invoice. */
const typeCode = (type: InvoiceType | null | undefined): string =>
  type === InvoiceType.CREDIT_NOTE ? '381' : type === InvoiceType.DEPOSIT ? '386' : '380';

/**
 * What an e-invoice needs of the seller and the buyer that the records may lack, as problems
 * naming the record's field: EN 16931 requires both names and countries (BR-06, BR-07, BR-09,
 * BR-11) and, for taxed or reverse-charged sales, the seller's VAT number (BR-S-02, BR-AE-02);
 * Peppol requires an electronic address for each (its endpoint, here the e-mail address).
 */
export function missingPartyFields(
  seller: InvoiceParty,
  buyer: InvoiceParty | null,
  format: EInvoiceFormat,
): Problem[] {
  const missing: Problem[] = [];
  const need = (field: string, value: string | null | undefined, reason: string) => {
    if (!value) missing.push({ field, reason });
  };
  need('tenant.billingInfo.vatNumber', seller.vatNumber, 'the seller needs a VAT number');
  need(
    'tenant.billingInfo.address.country',
    seller.country,
    'the seller needs a country (ISO 3166-1 alpha-2, such as NL)',
  );
  if (format === 'ubl')
    need('tenant.billingInfo.email', seller.email, 'Peppol needs the seller’s e-mail address');
  if (!buyer) {
    missing.push({ field: 'clientId', reason: 'the invoice names no customer' });
    return missing;
  }
  need('customer.country', buyer.country, 'the buyer needs a country (ISO 3166-1 alpha-2, such as DE)');
  if (format === 'ubl') need('customer.email', buyer.email, 'Peppol needs the buyer’s e-mail address');
  return missing;
}

/** A fixed-point amount as the XML writes it. */
const money = (n: number | null | undefined): string => (n ?? 0).toFixed(2);
const day = (d: Date | string | null | undefined): string | undefined =>
  d ? new Date(d).toISOString().slice(0, 10) : undefined;

/** A VAT category (UNTDID 5305): standard rate, zero rate, or reverse charge. */
function category(rate: number, reverseCharge: boolean): { 'cbc:ID': string; 'cbc:Percent': string } {
  const id = reverseCharge ? 'AE' : rate > 0 ? 'S' : 'Z';
  return { 'cbc:ID': id, 'cbc:Percent': String(rate) };
}

const vat = { 'cac:TaxScheme': { 'cbc:ID': 'VAT' } };

function address(party: InvoiceParty) {
  return {
    ...(party.street ? { 'cbc:StreetName': party.street } : {}),
    ...(party.city ? { 'cbc:CityName': party.city } : {}),
    ...(party.postalCode ? { 'cbc:PostalZone': party.postalCode } : {}),
    'cac:Country': { 'cbc:IdentificationCode': party.country! },
  };
}

function endpoint(party: InvoiceParty) {
  return party.email ? { 'cbc:EndpointID': party.email, 'cbc:EndpointID@schemeID': 'EM' } : {};
}

/**
 * One invoice line. A credit note is written with positive amounts (its type says it credits), so
 * its stored, negative rows change sign; a discount stays negative through its quantity, as the
 * item's net price may not be negative (BR-27).
 */
function line(row: InvoiceRow, index: number, sign: 1 | -1, currency: string, reverseCharge: boolean) {
  const total = sign * row.total;
  const percentage = row.quantityType === InvoiceQuantityType.PERCENTAGE;
  const quantity = Math.abs(row.quantity ?? 1) / (percentage ? 100 : 1);
  return {
    'cbc:ID': String(index + 1),
    'cbc:InvoicedQuantity': String(total < 0 ? -quantity : quantity),
    'cbc:InvoicedQuantity@unitCode': UNIT[row.quantityType ?? InvoiceQuantityType.AMOUNT],
    'cbc:LineExtensionAmount': money(total),
    'cbc:LineExtensionAmount@currencyID': currency,
    'cac:Item': {
      'cbc:Name':
        row.description?.slice(0, 200) || (row.type === InvoiceRowType.DISCOUNT ? 'Discount' : 'Item'),
      'cac:ClassifiedTaxCategory': { ...category(row.taxRate ?? 0, reverseCharge), ...vat },
    },
    'cac:Price': {
      'cbc:PriceAmount': String(Math.abs(row.unitPrice ?? 0)),
      'cbc:PriceAmount@currencyID': currency,
    },
  };
}

/** The library's document model of an invoice: everything EN 16931 asks that the records hold. */
export function eInvoiceData(
  invoice: Invoice,
  seller: InvoiceParty,
  buyer: InvoiceParty,
  extra: {
    credited?: Pick<Invoice, 'invoiceNumber' | 'invoiceDate'> | null;
    iban?: string | null;
    bic?: string | null;
    cocNumber?: string | null;
  } = {},
): EInvoiceData {
  const currency = invoice.currency ?? 'EUR';
  const sign = invoice.type === InvoiceType.CREDIT_NOTE ? -1 : 1;
  const reverseCharge = isReverseCharged(invoice, seller, buyer);
  const rows = invoice.rows.filter((r) => r.type !== InvoiceRowType.TEXT);
  const notes = [
    invoice.note,
    ...invoice.rows.filter((r) => r.type === InvoiceRowType.TEXT).map((r) => r.description),
  ].filter((n): n is string => !!n);
  const amounts = (n: number | null | undefined) => money(sign * (n ?? 0));
  const paid = sign === 1 && (invoice.paid ?? 0) > 0 ? invoice.paid! : 0;
  const data = {
    'ubl:Invoice': {
      'cbc:CustomizationID': PEPPOL_CUSTOMIZATION,
      'cbc:ProfileID': PEPPOL_PROFILE,
      'cbc:ID': invoice.invoiceNumber ?? invoice.id,
      'cbc:IssueDate': day(invoice.invoiceDate)!,
      ...(invoice.dueDate ? { 'cbc:DueDate': day(invoice.dueDate) } : {}),
      'cbc:InvoiceTypeCode': typeCode(invoice.type),
      ...(notes.length ? { 'cbc:Note': notes } : {}),
      'cbc:DocumentCurrencyCode': currency,
      ...(invoice.paymentReference ? { 'cbc:BuyerReference': invoice.paymentReference } : {}),
      ...(extra.credited
        ? {
            'cac:BillingReference': [
              {
                'cac:InvoiceDocumentReference': {
                  'cbc:ID': extra.credited.invoiceNumber!,
                  ...(extra.credited.invoiceDate ? { 'cbc:IssueDate': day(extra.credited.invoiceDate) } : {}),
                },
              },
            ],
          }
        : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          ...endpoint(seller),
          'cac:PostalAddress': address(seller),
          'cac:PartyTaxScheme': [{ 'cbc:CompanyID': seller.vatNumber!, ...vat }],
          'cac:PartyLegalEntity': {
            'cbc:RegistrationName': seller.name,
            ...(extra.cocNumber ? { 'cbc:CompanyID': extra.cocNumber } : {}),
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          ...endpoint(buyer),
          'cac:PostalAddress': address(buyer),
          ...(buyer.vatNumber ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': buyer.vatNumber, ...vat } } : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyer.name },
        },
      },
      // The supply date (BT-72): the model has none of its own, so the invoice date (as the PDF says).
      ...(invoice.invoiceDate
        ? { 'cac:Delivery': { 'cbc:ActualDeliveryDate': day(invoice.invoiceDate) } }
        : {}),
      ...(extra.iban
        ? {
            'cac:PaymentMeans': [
              {
                'cbc:PaymentMeansCode': '58',
                ...(invoice.paymentReference ? { 'cbc:PaymentID': invoice.paymentReference } : {}),
                'cac:PayeeFinancialAccount': {
                  'cbc:ID': extra.iban.replace(/\s+/g, ''),
                  ...(extra.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': extra.bic } } : {}),
                },
              },
            ],
          }
        : {}),
      // A credit note has no due date in UBL; the terms say when it is settled (BR-CO-25).
      'cac:PaymentTerms': { 'cbc:Note': `Payment within ${invoice.paymentTermDays ?? 0} days` },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': amounts(invoice.totalTax),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxSubtotal': vatBreakdown(rows).map((b) => ({
            'cbc:TaxableAmount': money(sign * b.taxable),
            'cbc:TaxableAmount@currencyID': currency,
            'cbc:TaxAmount': money(sign * b.tax),
            'cbc:TaxAmount@currencyID': currency,
            'cac:TaxCategory': {
              ...category(b.rate, reverseCharge),
              ...(reverseCharge
                ? { 'cbc:TaxExemptionReasonCode': 'VATEX-EU-AE', 'cbc:TaxExemptionReason': 'Reverse charge' }
                : {}),
              ...vat,
            },
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': amounts(invoice.totalExcludingTax),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cbc:TaxExclusiveAmount': amounts(invoice.totalExcludingTax),
        'cbc:TaxExclusiveAmount@currencyID': currency,
        'cbc:TaxInclusiveAmount': amounts(invoice.totalWithTax),
        'cbc:TaxInclusiveAmount@currencyID': currency,
        ...(paid ? { 'cbc:PrepaidAmount': money(paid), 'cbc:PrepaidAmount@currencyID': currency } : {}),
        'cbc:PayableAmount': money(sign * (invoice.totalWithTax ?? 0) - paid),
        'cbc:PayableAmount@currencyID': currency,
      },
      'cac:InvoiceLine': rows.map((r, i) => line(r, i, sign, currency, reverseCharge)),
    },
  };
  return data as unknown as EInvoiceData;
}

/** The library's messages go nowhere: what it refuses comes back as an error, which is enough. */
const quiet = { log: () => {}, warn: () => {}, error: () => {} };

/**
 * An invoice as an e-invoice: the XML of UBL or CII, or with `pdf` (the invoice's own rendering)
 * the Factur-X PDF. Missing seller or buyer details are a 409 naming each field.
 */
export async function renderEInvoice(
  invoice: Invoice,
  seller: InvoiceParty,
  buyer: InvoiceParty | null,
  format: EInvoiceFormat,
  extra: Parameters<typeof eInvoiceData>[3] & { pdf?: Buffer } = {},
): Promise<Buffer> {
  const missing = missingPartyFields(seller, buyer, format);
  if (missing.length) throw problems(409, missing);
  if (!invoice.rows.some((r) => r.type !== InvoiceRowType.TEXT)) {
    throw problems(409, [{ field: 'rows', reason: 'an e-invoice needs at least one charged row' }]);
  }
  // Loaded on the first e-invoice, not at start-up: the library brings a spreadsheet reader and a
  // PDF writer with it.
  const { InvoiceService } = await import('@e-invoice-eu/core');
  const service = new InvoiceService(quiet);
  const data = eInvoiceData(invoice, seller, buyer!, extra);
  const name = `invoice-${invoice.invoiceNumber ?? invoice.id}.pdf`;
  const out = await service.generate(data, {
    format: LIBRARY_FORMAT[format],
    lang: 'en',
    noWarnings: true,
    ...(format === 'facturx' && extra.pdf
      ? { pdf: { buffer: extra.pdf, filename: name, mimetype: 'application/pdf' } }
      : {}),
  });
  if (typeof out === 'string')
    return Buffer.from(format === 'cii' ? withCiiInvoiceReference(out, extra.credited) : out, 'utf8');
  if (format !== 'facturx' || !extra.credited?.invoiceNumber) return Buffer.from(out);
  // The CII inside the PDF is the library's, without the preceding invoice: it becomes the CII
  // this service answers for the same invoice.
  const cii = await service.generate(data, { format: LIBRARY_FORMAT.cii, lang: 'en', noWarnings: true });
  return Buffer.from(await withFacturXml(out, withCiiInvoiceReference(String(cii), extra.credited)));
}

/**
 * The preceding invoice (BG-3) in CII. The library reads it for CII from a shape its own schema
 * refuses, so it never writes one; it goes where the CII schema orders it, after the monetary
 * summation of the header settlement, in the CII answered alone and in the one a Factur-X embeds.
 */
function withCiiInvoiceReference(
  xml: string,
  credited: Pick<Invoice, 'invoiceNumber' | 'invoiceDate'> | null | undefined,
): string {
  if (!credited?.invoiceNumber) return xml;
  const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const issued = day(credited.invoiceDate)?.replace(/-/g, '');
  const reference =
    `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${escape(credited.invoiceNumber)}</ram:IssuerAssignedID>` +
    (issued
      ? `<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${issued}</qdt:DateTimeString></ram:FormattedIssueDateTime>`
      : '') +
    `</ram:InvoiceReferencedDocument>`;
  const anchor = '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>';
  return xml.includes(anchor) ? xml.replace(anchor, anchor + reference) : xml;
}

/** The public name of what renderEInvoice makes for the XML formats, for callers that attach it. */
export const eInvoiceXml = (
  invoice: Invoice,
  seller: InvoiceParty,
  buyer: InvoiceParty | null,
  format: 'ubl' | 'cii',
  extra: Parameters<typeof eInvoiceData>[3] = {},
): Promise<Buffer> => renderEInvoice(invoice, seller, buyer, format, extra);
