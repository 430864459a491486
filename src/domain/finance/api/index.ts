import type { GroupDef } from '../../../family/group';
import { ApInvoiceResolver } from './ap-invoice-resolver';
import { apInvoices } from './ap-invoices';
import { InvoiceResolver } from './invoice-resolver';
import { invoices } from './invoices';
import { taxPercentages } from './tax-percentages';

/** Groups with the standard family, and other resolvers, of this domain. */
export const financeGroups: GroupDef<any, any, any>[] = [taxPercentages, invoices, apInvoices];
export const financeResolvers: Function[] = [InvoiceResolver, ApInvoiceResolver];
