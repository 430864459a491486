import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { problems, type Problem } from '../../errors';
import { cents, sumCents, toCents, times, decimalOf } from './money';

/** What an incoming e-invoice says that a purchase invoice records. */
export interface ImportedInvoice {
  syntax: 'UBL' | 'CII';
  invoiceNumber: string;
  invoiceDate: Date;
  dueDate: Date | null;
  currency: string;
  supplierName: string;
  supplierEmail: string | null;
  supplierVatNumber: string | null;
  note: string | null;
  creditNote: boolean;
  rows: { description: string; quantity: number; unitPrice: number; taxRate: number }[];
  /** The document's own sum before tax (BT-109), which the rows must make up. */
  totalExcludingTax: number;
}

type Node = Record<string, unknown>;

// Namespace prefixes differ between senders, so they are dropped; values stay text, read below.
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) =>
    [
      'InvoiceLine',
      'CreditNoteLine',
      'IncludedSupplyChainTradeLineItem',
      'Note',
      'IncludedNote',
      'ApplicableTradeTax',
    ].includes(name),
});

/** The text of a node: an element's value, whether or not it carries attributes. */
function text(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === 'string') return node || null;
  if (typeof node === 'object' && '#text' in (node as Node)) return String((node as Node)['#text']) || null;
  return null;
}

/** The node at a path of element names, or undefined. */
function at(node: unknown, ...path: string[]): unknown {
  let here: unknown = node;
  for (const step of path) {
    if (Array.isArray(here)) here = here[0];
    if (!here || typeof here !== 'object') return undefined;
    here = (here as Node)[step];
  }
  return Array.isArray(here) ? here[0] : here;
}

const list = (node: unknown): unknown[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]);

/** Reads the problems of a document one by one, and refuses it with all of them at once. */
class Reader {
  readonly missing: Problem[] = [];
  constructor(private readonly syntax: string) {}

  need(value: string | null, field: string, what: string): string {
    if (!value)
      this.missing.push({ field: `document.${field}`, reason: `the ${this.syntax} document has no ${what}` });
    return value ?? '';
  }

  number(value: string | null, field: string, what: string): number {
    const raw = this.need(value, field, what);
    if (raw && !/^[+-]?\d+(\.\d+)?$/.test(raw)) {
      this.missing.push({ field: `document.${field}`, reason: `${what} "${raw}" is not a number` });
      return 0;
    }
    return Number(raw || 0);
  }

  date(value: string | null, field: string, what: string, required = true): Date | null {
    if (!value && !required) return null;
    const raw = this.need(value, field, what);
    // UBL writes ISO dates; CII writes format 102, YYYYMMDD.
    const iso = /^\d{8}$/.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}` : raw;
    const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00.000Z`) : null;
    if (raw && (!date || Number.isNaN(date.getTime()))) {
      this.missing.push({ field: `document.${field}`, reason: `${what} "${raw}" is not a date` });
      return null;
    }
    return date;
  }

  done(): void {
    if (this.missing.length) throw problems(400, this.missing);
  }
}

function fromUbl(doc: Node, creditNote: boolean): ImportedInvoice {
  const r = new Reader('UBL');
  const supplier = at(doc, 'AccountingSupplierParty', 'Party');
  const endpoint = at(supplier, 'EndpointID') as Node | string | undefined;
  const endpointIsMail = typeof endpoint === 'object' && endpoint?.['@schemeID'] === 'EM';
  const lines = list(doc[creditNote ? 'CreditNoteLine' : 'InvoiceLine']);
  if (!lines.length) r.need(null, creditNote ? 'CreditNoteLine' : 'InvoiceLine', 'invoice line (BG-25)');
  const rows = lines.map((line, i) => {
    const field = `${creditNote ? 'CreditNoteLine' : 'InvoiceLine'}[${i}]`;
    const quantity = r.number(
      text(at(line, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity')),
      `${field}.quantity`,
      'line quantity (BT-129)',
    );
    return {
      description: text(at(line, 'Item', 'Name')) ?? '',
      quantity,
      unitPrice: r.number(
        text(at(line, 'Price', 'PriceAmount')),
        `${field}.price`,
        'item net price (BT-146)',
      ),
      taxRate: r.number(
        text(at(line, 'Item', 'ClassifiedTaxCategory', 'Percent')) ?? '0',
        `${field}.taxRate`,
        'VAT rate (BT-152)',
      ),
      lineTotal: r.number(
        text(at(line, 'LineExtensionAmount')),
        `${field}.amount`,
        'line net amount (BT-131)',
      ),
    };
  });
  const result = {
    syntax: 'UBL' as const,
    invoiceNumber: r.need(text(at(doc, 'ID')), 'ID', 'invoice number (BT-1)'),
    invoiceDate: r.date(text(at(doc, 'IssueDate')), 'IssueDate', 'issue date (BT-2)')!,
    dueDate: r.date(
      text(at(doc, 'DueDate')) ?? text(at(doc, 'PaymentMeans', 'PaymentDueDate')),
      'DueDate',
      'due date (BT-9)',
      false,
    ),
    currency: r.need(text(at(doc, 'DocumentCurrencyCode')), 'DocumentCurrencyCode', 'currency (BT-5)'),
    supplierName: r.need(
      text(at(supplier, 'PartyLegalEntity', 'RegistrationName')) ?? text(at(supplier, 'PartyName', 'Name')),
      'AccountingSupplierParty',
      'seller name (BT-27)',
    ),
    supplierEmail:
      text(at(supplier, 'Contact', 'ElectronicMail')) ?? (endpointIsMail ? text(endpoint) : null),
    supplierVatNumber: text(at(supplier, 'PartyTaxScheme', 'CompanyID')),
    note: list(doc.Note).map(text).filter(Boolean).join('\n') || null,
    creditNote: creditNote || text(at(doc, 'InvoiceTypeCode')) === '381',
    totalExcludingTax: r.number(
      text(at(doc, 'LegalMonetaryTotal', 'TaxExclusiveAmount')),
      'LegalMonetaryTotal',
      'total without VAT (BT-109)',
    ),
  };
  r.done();
  return { ...result, rows: exactRows(rows) };
}

function fromCii(doc: Node): ImportedInvoice {
  const r = new Reader('CII');
  const trade = at(doc, 'SupplyChainTradeTransaction');
  const seller = at(trade, 'ApplicableHeaderTradeAgreement', 'SellerTradeParty');
  const settlement = at(trade, 'ApplicableHeaderTradeSettlement');
  const totals = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const lines = list((trade as Node | undefined)?.IncludedSupplyChainTradeLineItem);
  if (!lines.length) r.need(null, 'IncludedSupplyChainTradeLineItem', 'invoice line (BG-25)');
  const rows = lines.map((line, i) => {
    const field = `IncludedSupplyChainTradeLineItem[${i}]`;
    return {
      description: text(at(line, 'SpecifiedTradeProduct', 'Name')) ?? '',
      quantity: r.number(
        text(at(line, 'SpecifiedLineTradeDelivery', 'BilledQuantity')),
        `${field}.quantity`,
        'line quantity (BT-129)',
      ),
      unitPrice: r.number(
        text(at(line, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount')),
        `${field}.price`,
        'item net price (BT-146)',
      ),
      taxRate: r.number(
        text(at(line, 'SpecifiedLineTradeSettlement', 'ApplicableTradeTax', 'RateApplicablePercent')) ?? '0',
        `${field}.taxRate`,
        'VAT rate (BT-152)',
      ),
      lineTotal: r.number(
        text(
          at(
            line,
            'SpecifiedLineTradeSettlement',
            'SpecifiedTradeSettlementLineMonetarySummation',
            'LineTotalAmount',
          ),
        ),
        `${field}.amount`,
        'line net amount (BT-131)',
      ),
    };
  });
  const result = {
    syntax: 'CII' as const,
    invoiceNumber: r.need(
      text(at(doc, 'ExchangedDocument', 'ID')),
      'ExchangedDocument.ID',
      'invoice number (BT-1)',
    ),
    invoiceDate: r.date(
      text(at(doc, 'ExchangedDocument', 'IssueDateTime', 'DateTimeString')),
      'ExchangedDocument.IssueDateTime',
      'issue date (BT-2)',
    )!,
    dueDate: r.date(
      text(at(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime', 'DateTimeString')),
      'DueDateDateTime',
      'due date (BT-9)',
      false,
    ),
    currency: r.need(text(at(settlement, 'InvoiceCurrencyCode')), 'InvoiceCurrencyCode', 'currency (BT-5)'),
    supplierName: r.need(text(at(seller, 'Name')), 'SellerTradeParty.Name', 'seller name (BT-27)'),
    supplierEmail: text(at(seller, 'URIUniversalCommunication', 'URIID')),
    supplierVatNumber: text(at(seller, 'SpecifiedTaxRegistration', 'ID')),
    note:
      list(at(doc, 'ExchangedDocument') && (at(doc, 'ExchangedDocument') as Node).IncludedNote)
        .map((n) => text(at(n, 'Content')))
        .filter(Boolean)
        .join('\n') || null,
    creditNote: text(at(doc, 'ExchangedDocument', 'TypeCode')) === '381',
    totalExcludingTax: r.number(
      text(at(totals, 'TaxBasisTotalAmount')),
      'TaxBasisTotalAmount',
      'total without VAT (BT-109)',
    ),
  };
  r.done();
  return { ...result, rows: exactRows(rows) };
}

/**
 * Rows whose quantity × price makes the document's line amount to the cent. A price given per a
 * base quantity (BT-149) or rounded by the sender does not: such a row is kept as one unit at the
 * line amount, so the purchase invoice's totals are the document's.
 */
function exactRows(
  rows: { description: string; quantity: number; unitPrice: number; taxRate: number; lineTotal: number }[],
): ImportedInvoice['rows'] {
  return rows.map(({ lineTotal, ...row }) => {
    const computed = toCents(times(decimalOf(row.quantity), decimalOf(row.unitPrice)));
    return computed === cents(lineTotal) ? row : { ...row, quantity: 1, unitPrice: lineTotal };
  });
}

/**
 * Reads an incoming e-invoice, UBL 2.1 (Invoice or CreditNote) or UN/CEFACT CII. What is not
 * such a document, or lacks what a purchase invoice records (number, dates, currency, seller,
 * lines), or whose lines do not make up its own total, is a 400 naming each problem.
 */
export function readEInvoice(xml: string): ImportedInvoice {
  if (!xml.trim()) throw problems(400, [{ field: 'document', reason: 'the body holds no XML document' }]);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw problems(400, [
      { field: 'document', reason: `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` },
    ]);
  }
  const parsed = parser.parse(xml) as Node;
  const imported = parsed.Invoice
    ? fromUbl(parsed.Invoice as Node, false)
    : parsed.CreditNote
      ? fromUbl(parsed.CreditNote as Node, true)
      : parsed.CrossIndustryInvoice
        ? fromCii(parsed.CrossIndustryInvoice as Node)
        : null;
  if (!imported) {
    const root = Object.keys(parsed).find((k) => !k.startsWith('?')) ?? 'none';
    throw problems(400, [
      {
        field: 'document',
        reason: `the root element is ${root}: expected a UBL Invoice or CreditNote, or a CII CrossIndustryInvoice`,
      },
    ]);
  }
  const sum = sumCents(
    imported.rows.map((r) => toCents(times(decimalOf(r.quantity), decimalOf(r.unitPrice)))),
  );
  if (sum !== cents(imported.totalExcludingTax)) {
    throw problems(400, [
      {
        field: 'document',
        reason: `the lines add up to ${Number(sum) / 100}, the document's total without VAT (BT-109) is ${imported.totalExcludingTax}; document-level allowances and charges are not imported`,
      },
    ]);
  }
  return imported;
}
