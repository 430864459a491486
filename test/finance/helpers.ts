import type { Client } from '../support/http';

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '6a1e7d1c-3b0b-4a7e-9d6f-0000000000aa';
export { DAY, dayFromToday } from '../support/dates';

const AUDIT = ['id', 'tenantId', 'created', 'createdBy', 'updated', 'updatedBy', 'events'];

/** Every documented field of an Invoice (specification, "Invoice (sales)"). */
export const INVOICE_KEYS = [
  ...AUDIT,
  'invoiceNumber',
  'clientId',
  'contactEmail',
  'currency',
  'mailBody',
  'milestoneId',
  'note',
  'opportunityId',
  'paymentReference',
  'reminderBody',
  'salesOrderId',
  'subsidiaryId',
  'invoiceDate',
  'dueDate',
  'datePaid',
  'overdueNotifiedAt',
  'paymentTermDays',
  'paid',
  'paidExcludingTax',
  'total',
  'totalExcludingTax',
  'totalTax',
  'totalWithTax',
  'status',
  'type',
  'sentMails',
  'attachments',
  'pdf',
  'recurringAgreement',
  'reminders',
  'rows',
  'transactions',
  // Not in the specification: the invoice a credit note corrects (docs/business-rules.md).
  'creditedInvoiceId',
];
export const INVOICE_ROW_KEYS = [
  'id',
  'description',
  'productId',
  'quantity',
  'taxAmount',
  'taxRate',
  'total',
  'totalWithTax',
  'unitPrice',
  'quantityType',
  'type',
];
export const INVOICE_TRANSACTION_KEYS = [
  'id',
  'accountId',
  'description',
  'amount',
  'date',
  'paymentMethod',
  'tenantId',
  'created',
  'createdBy',
  'updated',
  'updatedBy',
];

/** Every documented field of an ApInvoice (specification, "ApInvoice"). */
export const AP_INVOICE_KEYS = [
  ...AUDIT,
  'invoiceNumber',
  'referenceNumber',
  'currency',
  'note',
  'subsidiaryId',
  'supplierId',
  'supplierName',
  'supplierEmail',
  'invoiceDate',
  'dueDate',
  'dueNotifiedAt',
  'receivedDate',
  'paidDate',
  'daysOverdue',
  'isOverdue',
  'subtotal',
  'taxAmount',
  'totalAmount',
  'totalLinkedAmount',
  'unlinkedAmount',
  'outstandingAmount',
  'paidAmount',
  'status',
  'paymentStatus',
  'classificationMethod',
  'classification',
  'attachments',
  'pdf',
  'linkedPurchaseOrders',
  'payments',
  'rows',
];
export const AP_ROW_KEYS = [
  'id',
  'description',
  'glAccountId',
  'productId',
  'quantity',
  'taxAmount',
  'taxRate',
  'total',
  'totalWithTax',
  'unitPrice',
];
export const AP_PAYMENT_KEYS = [
  'id',
  'bankTransactionId',
  'note',
  'reference',
  'amount',
  'date',
  'paymentMethod',
  'created',
  'createdBy',
];
export const LINKED_PO_KEYS = [
  'allocatedAmount',
  'costType',
  'purchaseOrderId',
  'purchaseOrderNumber',
  'purchaseOrderStatus',
  'purchaseOrderTotal',
  'stockAdjustmentApplied',
  'created',
  'createdBy',
];

export const PAGE_KEYS = [
  'content',
  'empty',
  'first',
  'last',
  'number',
  'numberOfElements',
  'size',
  'totalElements',
  'totalPages',
  'sort',
  'pageable',
];

/** The object has exactly these keys: every documented field, and nothing REST should not show. */
export function expectKeys(value: object, keys: readonly string[]): void {
  expect(Object.keys(value).sort()).toEqual([...keys].sort());
}

/** A GraphQL call that must succeed; returns its data. */
export async function gql(client: Client, query: string, variables?: Record<string, unknown>): Promise<any> {
  const res = await client.graphql(query, variables);
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

/** A GraphQL call that must fail; returns its first error's HTTP status and message. */
export async function gqlError(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ status?: number; message: string }> {
  const res = await client.graphql(query, variables);
  const error = res.body.errors?.[0];
  expect(error).toBeDefined();
  return { status: error?.extensions?.status, message: error?.message ?? '' };
}

async function createReference(client: Client, name: string, input: object): Promise<string> {
  const data = await gql(client, `mutation($input: ${name}Input!) { create${name}(input: $input) { id } }`, {
    input,
  });
  return data[`create${name}`].id;
}

export const createCustomer = (client: Client, name = 'Acme') =>
  createReference(client, 'Customer', { name });
export const createSubsidiary = (client: Client, name = 'North') =>
  createReference(client, 'Subsidiary', { name });
export const createSupplier = (client: Client, name: string, email?: string) =>
  createReference(client, 'Supplier', { name, email });
export const createOpportunity = (client: Client, name: string, customerId?: string) =>
  createReference(client, 'Opportunity', { name, customerId });

export const eventTypes = (record: { events: { type: string }[] }) => record.events.map((e) => e.type);
