import { ID } from 'type-graphql';
import { Invoice } from '../entities/invoice';
import { defineGroup } from '../../../family/group';
import { afterInvoiceSave, prepareInvoice } from '../invoice-rules';
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
  lists: [
    {
      name: 'invoicesByOpportunity',
      description: 'The invoices of an opportunity, by invoice date.',
      field: 'opportunityId',
      arg: 'opportunityId',
      argDescription: 'Id of the opportunity.',
      type: () => ID,
      sort: [{ invoiceDate: 'asc' }],
    },
  ],
  beforeSave: prepareInvoice,
  afterSave: afterInvoiceSave,
});
