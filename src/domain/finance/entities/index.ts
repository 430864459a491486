import { ApInvoice } from './ap-invoice';
import { Invoice } from './invoice';
import { TaxPercentage } from './tax-percentage';

/** Entities of invoicing: tax percentages, sales invoices, AP invoices. */
export const financeEntities: Function[] = [TaxPercentage, Invoice, ApInvoice];
