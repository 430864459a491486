import { Invoice } from '../../entities/finance/invoice';
import { defineGroup } from '../../family/group';
import { prepareInvoice } from '../../domain/finance/invoice-rules';
import { InvoiceInput } from './invoice-inputs';

export const invoices = defineGroup({
  entity: Invoice,
  name: 'Invoice',
  plural: 'Invoices',
  resource: 'INVOICES',
  createInput: InvoiceInput,
  updateInput: InvoiceInput,
  scope: 'subsidiaryId',
  searchable: ['invoiceNumber', 'contactEmail', 'paymentReference'],
  beforeSave: prepareInvoice,
});
