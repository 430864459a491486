import { Arg, Ctx, Extensions, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../../context';
import { ApInvoice } from '../entities/ap-invoice';
import { Subsidiary } from '../../reference/entities/subsidiary';
import { Supplier } from '../../reference/entities/supplier';
import { loaderById } from '../../../family/loaders';
import { PageOf, type Page } from '../../../schema/page';
import { SortInput } from '../../../family/search-input';
import { can, Requires } from '../../../permissions/rules';
import { daysOverdue } from '../aging';
import { AgingReport } from './report-types';
import { apAgingReport, apInvoicesBySupplier } from './ap-invoice-service';

const ApInvoicePage = PageOf(ApInvoice, 'ApInvoice');

@Resolver(() => ApInvoice)
export class ApInvoiceResolver {
  @Requires(can('READ', 'AP_INVOICES'))
  @Query(() => ApInvoicePage, { description: "A page of one supplier's purchase invoices." })
  apInvoicesBySupplier(
    @Arg('supplierId', () => ID, { description: 'Id of the supplier.' }) supplierId: string,
    @Ctx() ctx: Context,
    @Arg('page', () => Int, { nullable: true, description: '0-based (default 0).' }) page?: number,
    @Arg('size', () => Int, { nullable: true, description: 'Default 20, at most 1000.' }) size?: number,
    @Arg('sort', () => [SortInput], { nullable: true, description: 'Sort keys, most significant first.' })
    sort?: SortInput[],
  ): Promise<Page<ApInvoice>> {
    return apInvoicesBySupplier(ctx, supplierId, { page, size, sort });
  }

  @Requires(can('READ', 'AP_INVOICES'))
  @Query(() => AgingReport, {
    description: 'Outstanding purchase invoices of one currency (default EUR) by days past due.',
  })
  apInvoiceAgingReport(
    @Ctx() ctx: Context,
    @Arg('subsidiaryId', () => String, {
      nullable: true,
      description: 'Only invoices of this subsidiary (default: every subsidiary the caller sees).',
    })
    subsidiaryId?: string,
    @Arg('currency', () => String, {
      description: 'Currency of the invoices counted (default EUR).',
      nullable: true,
      defaultValue: 'EUR',
    })
    currency?: string,
  ): Promise<AgingReport> {
    return apAgingReport(ctx, subsidiaryId, currency);
  }

  @FieldResolver(() => Int, { description: 'Days past the due date while unpaid; 0 otherwise.' })
  daysOverdue(@Root() invoice: ApInvoice): number {
    return daysOverdue(invoice);
  }

  @FieldResolver(() => Boolean, { description: 'Whether it is unpaid after its due date.' })
  isOverdue(@Root() invoice: ApInvoice): boolean {
    return daysOverdue(invoice) > 0;
  }

  @FieldResolver(() => Supplier, { nullable: true, description: 'The supplier (GraphQL only).' })
  @Extensions({ rest: false })
  supplier(@Root() invoice: ApInvoice, @Ctx() ctx: Context): Promise<Supplier | null> | null {
    return invoice.supplierId ? loaderById(ctx, Supplier).load(invoice.supplierId) : null;
  }

  @FieldResolver(() => Subsidiary, { nullable: true, description: 'The subsidiary (GraphQL only).' })
  @Extensions({ rest: false })
  subsidiary(@Root() invoice: ApInvoice, @Ctx() ctx: Context): Promise<Subsidiary | null> | null {
    return invoice.subsidiaryId ? loaderById(ctx, Subsidiary).load(invoice.subsidiaryId) : null;
  }
}
