import { ApInvoice } from '../entities/ap-invoice';
import { defineGroup } from '../../../family/group';
import { prepareApInvoice } from '../ap-invoice-rules';
import { daysOverdueSql, isOverdueSql } from '../overdue-sql';
import { ApInvoiceInput } from './ap-invoice-inputs';

export const apInvoices = defineGroup({
  entity: ApInvoice,
  name: 'ApInvoice',
  plural: 'ApInvoices',
  resource: 'AP_INVOICES',
  createInput: ApInvoiceInput,
  updateInput: ApInvoiceInput,
  scope: 'subsidiaryId',
  searchable: ['invoiceNumber', 'referenceNumber', 'supplierName'],
  lists: [
    {
      name: 'apInvoicesByPurchaseOrder',
      description: 'The purchase invoices linked to a purchase order.',
      field: 'purchaseOrderIds',
      arg: 'purchaseOrderId',
      argDescription: 'Id of the purchase order.',
      type: () => String,
      contains: true,
      sort: [{ invoiceDate: 'asc' }],
    },
  ],
  derived: { daysOverdue: daysOverdueSql, isOverdue: isOverdueSql },
  beforeSave: prepareApInvoice,
});
