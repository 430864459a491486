import type { DomainModule } from '../../modules';
import { financeEntities } from './entities';
import { financeRoutes } from './api/rest';
import { ApInvoiceResolver } from './api/ap-invoice-resolver';
import { EInvoiceResolver } from './api/e-invoice-resolver';
import { apInvoices } from './api/ap-invoices';
import { InvoiceResolver } from './api/invoice-resolver';
import { invoices } from './api/invoices';
import { taxPercentages } from './api/tax-percentages';
import { invoiceJobs } from './invoice-jobs';
import { startInvoicePdfs } from './invoice-pdf-queue';
import { apInvoicesDueJob } from './reminders';

/** Invoicing: tax percentages, sales invoices and AP invoices; the daily invoice jobs. */
export const financeModule: DomainModule = {
  entities: financeEntities,
  groups: [taxPercentages, invoices, apInvoices],
  resolvers: [InvoiceResolver, ApInvoiceResolver, EInvoiceResolver],
  routes: financeRoutes,
  scheduled: [...invoiceJobs, apInvoicesDueJob],
  // The invoices' PDFs, made after each invoice commits, claimed from invoice_pdf_due by each process.
  jobs: [{ name: 'invoice PDFs', start: (orm, logger, { files }) => startInvoicePdfs(orm, files, logger) }],
};
