import { familyRoutes } from '../../../rest/family-routes';
import { body, fromRequest, query, type RestRoute } from '../../../rest/route';
import { parseSort, queryList } from '../../../rest/search-params';
import { apInvoices } from './ap-invoices';
import { invoices } from './invoices';
import { taxPercentages } from './tax-percentages';

export const financeRoutes: RestRoute[] = [
  ...familyRoutes(taxPercentages, '/tax-percentages', [
    'create',
    'update',
    'S1',
    'S2',
    'S3',
    'S5',
    'S10',
    'bulk-delete',
  ]),
  ...familyRoutes(invoices, '/invoices', ['create', 'S6', 'S7', 'S8', 'S9'], { s9IdsOptional: true }),
  {
    method: 'GET',
    path: '/invoices/by-opportunity/{opportunityId}',
    field: 'invoicesByOpportunity',
    code: 'custom',
    summary: 'The invoices of an opportunity',
  },
  {
    method: 'GET',
    path: '/invoices/count-by-status',
    field: 'invoiceCountByStatus',
    code: 'custom',
    summary: 'How many invoices have each status',
  },
  {
    method: 'GET',
    path: '/invoices/date-range',
    field: 'invoiceDateRange',
    code: 'custom',
    summary: 'The earliest and latest invoice dates ({min, max})',
  },
  {
    method: 'POST',
    path: '/invoices/{id}/send',
    field: 'sendInvoice',
    args: { input: body({}) },
    code: 'custom',
    extension: true,
    summary:
      'Mail the invoice with its PDF (optional recipients, subject, body); writes SentMails, DRAFT becomes SENT',
  },
  {
    method: 'GET',
    path: '/invoices/{id}/e-invoice',
    field: 'invoiceEInvoice',
    args: { format: query('format', 'ubl') },
    code: 'custom',
    extension: true,
    nullIs404: true,
    document: { types: ['application/xml', 'application/pdf'] },
    summary:
      'The invoice as an EN 16931 e-invoice: ?format=ubl (UBL 2.1, Peppol BIS Billing 3.0; default), cii (UN/CEFACT CII) or facturx (Factur-X PDF/A-3)',
  },
  {
    method: 'POST',
    path: '/ap-invoices/import',
    field: 'importApInvoice',
    args: { document: fromRequest((req) => req.body as unknown, 'body') },
    xmlBody: true,
    status: 201,
    location: (r: { id: string }) => `/ap-invoices/find/${r.id}`,
    code: 'custom',
    extension: true,
    summary:
      'Create an AP invoice from an incoming e-invoice: the UBL or CII XML as the body (application/xml), or as a JSON string',
  },
  ...familyRoutes(apInvoices, '/ap-invoices', ['create', 'S6', 'S7', 'S8', 'S9'], { s9IdsOptional: true }),
  {
    method: 'GET',
    path: '/ap-invoices/aging-report',
    field: 'apInvoiceAgingReport',
    code: 'custom',
    summary: 'Outstanding AP invoices by days past due',
  },
  {
    method: 'GET',
    path: '/ap-invoices/by-purchase-order/{purchaseOrderId}',
    field: 'apInvoicesByPurchaseOrder',
    code: 'custom',
    summary: 'The AP invoices linked to a purchase order',
  },
  {
    method: 'GET',
    path: '/ap-invoices/by-supplier/{supplierId}',
    field: 'apInvoicesBySupplier',
    args: {
      sort: fromRequest((req) => queryList(req.query.sort, 'sort').flatMap(parseSort), 'query', ['sort']),
    },
    code: 'custom',
    summary: "A page of a supplier's AP invoices (sort: field,asc|desc)",
  },
];
