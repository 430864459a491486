import { ApInvoice } from './ap-invoice';
import { Invoice } from './invoice';
import { InvoicePdfDue } from './invoice-pdf-due';
import { TaxPercentage } from './tax-percentage';

/** Entities of invoicing: tax percentages, sales invoices, AP invoices, the invoices' PDFs to make. */
export const financeEntities: Function[] = [TaxPercentage, Invoice, ApInvoice, InvoicePdfDue];
