/**
 * What the fields sales and purchase invoices have alike mean, written once for both records and
 * the inputs that set them. The two records stay two classes: their columns differ in name,
 * nullability and rules (a sales invoice's transactions, a purchase invoice's payments and
 * purchase-order links), and only these meanings are the same.
 */
export const INVOICE_SHARED_DOCS = {
  currency: 'ISO 4217 code, EUR when not given.',
  subsidiaryId: 'Id of the subsidiary the invoice belongs to; limits who sees it.',
  note: 'Internal note.',
  pdf: 'The invoice document.',
  attachments: 'Files attached to the invoice.',
} as const;

/** What the fields of both kinds of invoice row mean, where they are the same. */
export const INVOICE_ROW_SHARED_DOCS = {
  id: 'Id of the row.',
  description: 'What the row is for.',
  unitPrice: 'Price of one, without tax.',
  taxRate: 'Percent; 21 when the row names none.',
  totalWithTax: 'Total plus tax; computed.',
} as const;
