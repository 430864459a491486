import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { Context } from '../../../context';
import { productStatusOf } from '../transfer-progress';
import { ProductQuantity } from '../entities/shapes';
import type { StockTransfer } from '../entities/stock-transfer';
import { joinedSelection } from '../../../family/joined';
import { PageOf, type Page } from '../../../schema/page';
import { SearchInput } from '../../../family/search-input';
import { can, Requires } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import { stockTransfers } from './stock-transfers';
import {
  createEmptyTransfer,
  enrichedProductsOf,
  reservationsBySite,
  searchEnriched,
  siteReservationsOf,
  transferService,
  writeOffTransfer,
} from './transfer-service';
import { WriteOffStockTransferInput } from './stock-transfer-inputs';
import {
  EnrichedStockTransfer,
  EnrichedTransferProduct,
  SiteReservation,
  TransferProductStatus,
} from './enriched-stock-transfer-types';

const EnrichedStockTransferPage = PageOf(EnrichedStockTransfer);

/**
 * The enriched form of stock transfers. Values are StockTransfer records (see
 * EnrichedStockTransfer); what differs from the search form is resolved here, with loaders, so a
 * page costs a fixed number of queries.
 */
@Resolver(() => EnrichedStockTransfer)
export class EnrichedStockTransferResolver {
  @FieldResolver(() => String, { nullable: true, description: 'The destination stock site.' })
  destinationSiteId(@Root() t: StockTransfer): string | null {
    return t.destinationStockSiteId ?? null;
  }

  @FieldResolver(() => [ProductQuantity], {
    description: 'The cancelled lines, with their products and progress.',
  })
  cancelledProducts(@Root() t: StockTransfer): ProductQuantity[] {
    return t.cancelledProducts?.products ?? [];
  }

  @FieldResolver(() => [TransferProductStatus], { description: 'The progress of each product.' })
  productStatus(@Root() t: StockTransfer): TransferProductStatus[] {
    return productStatusOf(t);
  }

  @FieldResolver(() => [EnrichedTransferProduct], {
    description: 'The ordered lines, with their products, reservations and progress.',
  })
  products(@Root() t: StockTransfer, @Ctx() ctx: Context): Promise<EnrichedTransferProduct[]> {
    return enrichedProductsOf(ctx, t);
  }

  @FieldResolver(() => [SiteReservation], {
    description: 'The reserved lines, with their products and progress.',
  })
  reservedProducts(@Root() t: StockTransfer, @Ctx() ctx: Context): Promise<SiteReservation[]> {
    return siteReservationsOf(ctx, t);
  }

  @FieldResolver(() => GraphQLJSONObject, {
    description: 'The reservations by site id (those without a site under "unassigned").',
  })
  reservationsGroupedBySite(
    @Root() t: StockTransfer,
    @Ctx() ctx: Context,
  ): Promise<Record<string, SiteReservation[]>> {
    return reservationsBySite(ctx, t);
  }

  @Requires(can('CREATE', 'STOCK_TRANSFERS'))
  @Mutation(() => EnrichedStockTransfer, { description: 'A new, empty DRAFT transfer with the next number.' })
  createEmptyStockTransfer(@Ctx() ctx: Context): Promise<StockTransfer> {
    return createEmptyTransfer(ctx);
  }

  @Requires(can('UPDATE', 'STOCK_TRANSFERS'))
  @Mutation(() => EnrichedStockTransfer, {
    description:
      "Writes off what a SHIPPED or PARTIALLY_DELIVERED transfer still has in transit (lost, damaged) and closes it: status CLOSED, writtenOff says what and why; the stock leaves the destination's in-transit figures. Any other status: 409.",
  })
  writeOffStockTransfer(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Arg('input', () => WriteOffStockTransferInput, { description: 'Why the stock is written off.' })
    input: WriteOffStockTransferInput,
    @Ctx() ctx: Context,
  ): Promise<StockTransfer> {
    return writeOffTransfer(ctx, id, input.reason);
  }

  @Requires(can('READ', 'STOCK_TRANSFERS'))
  @Query(() => EnrichedStockTransferPage, {
    description: 'Dynamic search over transfers, in the enriched form.',
  })
  searchStockTransfersEnriched(
    @Arg('input', () => SearchInput, { nullable: true, description: ARG_DOCS.searchInput })
    input: SearchInput | undefined,
    @Info() info: GraphQLResolveInfo,
    @Ctx() ctx: Context,
  ): Promise<Page<StockTransfer>> {
    return searchEnriched(ctx, input ?? {}, joinedSelection(stockTransfers, info, 'content'));
  }

  @Requires(can('READ', 'STOCK_TRANSFERS'))
  @Query(() => EnrichedStockTransfer, { nullable: true, description: 'One transfer in the enriched form.' })
  enrichedStockTransfer(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<StockTransfer | null> {
    return transferService.one(ctx, id);
  }
}
