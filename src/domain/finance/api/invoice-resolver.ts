import { Ctx, Extensions, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Invoice } from '../entities/invoice';
import { Customer } from '../../reference/entities/customer';
import { Opportunity } from '../../reference/entities/opportunity';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { loaderById } from '../../../family/loaders';
import { can, Requires } from '../../../permissions/rules';
import { InvoiceDateRange, InvoiceStatusCounts } from './report-types';
import { invoiceCountByStatus, invoiceDateRange } from './invoice-service';

@Resolver(() => Invoice)
export class InvoiceResolver {
  @Requires(can('READ', 'INVOICES'))
  @Query(() => InvoiceStatusCounts, { description: 'How many invoices have each status.' })
  invoiceCountByStatus(@Ctx() ctx: Context): Promise<InvoiceStatusCounts> {
    return invoiceCountByStatus(ctx);
  }

  @Requires(can('READ', 'INVOICES'))
  @Query(() => InvoiceDateRange, { description: 'The earliest and latest invoice dates.' })
  invoiceDateRange(@Ctx() ctx: Context): Promise<InvoiceDateRange> {
    return invoiceDateRange(ctx);
  }

  @FieldResolver(() => Customer, { nullable: true, description: 'The customer invoiced (GraphQL only).' })
  @Extensions({ rest: false })
  client(@Root() invoice: Invoice, @Ctx() ctx: Context): Promise<Customer | null> | null {
    return invoice.clientId ? loaderById(ctx, Customer).load(invoice.clientId) : null;
  }

  @FieldResolver(() => Opportunity, { nullable: true, description: 'The opportunity (GraphQL only).' })
  @Extensions({ rest: false })
  opportunity(@Root() invoice: Invoice, @Ctx() ctx: Context): Promise<Opportunity | null> | null {
    return invoice.opportunityId ? loaderById(ctx, Opportunity).load(invoice.opportunityId) : null;
  }

  @FieldResolver(() => Subsidiary, { nullable: true, description: 'The subsidiary (GraphQL only).' })
  @Extensions({ rest: false })
  subsidiary(@Root() invoice: Invoice, @Ctx() ctx: Context): Promise<Subsidiary | null> | null {
    return invoice.subsidiaryId ? loaderById(ctx, Subsidiary).load(invoice.subsidiaryId) : null;
  }
}
