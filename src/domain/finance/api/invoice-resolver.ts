import { Arg, Ctx, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { Invoice } from '../entities/invoice';
import { Customer } from '../../reference/entities/customer';
import { Opportunity } from '../../reference/entities/opportunity';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { loaderById } from '../../../family/loaders';
import { can, Requires } from '../../../permissions/rules';
import { InvoiceDateRange, InvoiceStatusCounts } from './report-types';
import { invoiceCountByStatus, invoiceDateRange, sendInvoice } from './invoice-service';
import { SendInvoiceInput } from './invoice-inputs';

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

  @Requires(can('UPDATE', 'INVOICES'))
  @Mutation(() => Invoice, {
    description:
      'Mails the invoice with its PDF (invoice-<number>.pdf) to each recipient through the outbox (retried like every e-mail); writes a SentMail per recipient into sentMails; a DRAFT becomes SENT. No recipient: 400; a CANCELLED invoice: 409.',
  })
  sendInvoice(
    @Arg('id', () => ID, { description: 'Id of the invoice.' }) id: string,
    @Arg('input', () => SendInvoiceInput, {
      nullable: true,
      description: 'Recipients, subject and body; all optional.',
    })
    input: SendInvoiceInput | null,
    @Ctx() ctx: Context,
  ): Promise<Invoice> {
    return sendInvoice(ctx, id, input);
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
