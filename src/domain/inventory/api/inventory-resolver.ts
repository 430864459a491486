import {
  Arg,
  Ctx,
  FieldResolver,
  Float,
  ID,
  InputType,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  registerEnumType,
  Field,
} from 'type-graphql';
import { ArrayMinSize, IsOptional, IsPositive, Min, ValidateNested } from 'class-validator';
import { DateTimeISOResolver } from '../../../schema/date-time';
import type { Context } from '../../../context';
import { StockSource } from '../entities/stock-batch';
import { StockInventory } from '../entities/stock-inventory';
import { PageOf, type Page } from '../../../schema/page';
import { Direction, SearchInput } from '../../../family/search-input';
import { can, Requires } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import { BatchSearchRow, ProductStockRow, ReorderSuggestion, StockLocation } from './stock-view-types';
import { reorderSuggestions } from './reorder-suggestions';
import { adjustStock, updateBatch } from './adjust-stock';
import { BatchSortField, searchBatches } from './batch-search';
import { locationsOf } from './inventory-locations';
import { PRODUCT_STOCK_FIELDS_TEXT, searchProductStock } from './product-stock-search';
import { addStock } from './receive-stock';

registerEnumType(BatchSortField, {
  name: 'BatchSortField',
  description: 'What batch search sorts by.',
  valuesConfig: {
    productName: { description: 'Name of the product.' },
    batchNumber: { description: 'Number of the batch.' },
    expirationDate: { description: 'Expiration date.' },
    quantity: { description: 'Quantity in the batch.' },
    lastStockDate: { description: 'When stock was last added.' },
    productionDate: { description: 'Production date.' },
    unitPrice: { description: 'Price of one unit.' },
    brand: { description: 'Brand of the product.' },
    category: { description: 'Category of the product.' },
  },
});

@InputType({ description: 'A quantity of a product coming into stock.' })
export class StockLineInput {
  @Field(() => ID, { description: 'Id of the product.' }) productId!: string;
  @Field(() => Float, {
    description: 'Quantity added; merged into the batch with the same number and location.',
  })
  @IsPositive()
  quantity!: number;
  @Field(() => Float, { nullable: true, description: 'Per unit; absent: the current valuation.' })
  @IsOptional()
  @Min(0)
  price?: number | null;
  @Field(() => String, { nullable: true, description: 'Number of the batch.' }) batchNumber?: string | null;
  @Field(() => String, { nullable: true, description: 'Where in the site the stock goes.' }) locationId?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Id of the purchase order the stock came in on.' })
  originalPurchaseOrderId?: string | null;
  @Field(() => StockSource, { nullable: true, description: 'How the stock came in.' })
  stockSource?: StockSource | null;
}

@InputType({ description: 'Stock coming into a site (POST /inventory).' })
export class AddStockInput {
  @Field(() => [StockLineInput], { description: 'The lines added.' })
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  products!: StockLineInput[];

  @Field(() => ID, { description: 'Id of the stock site.' }) stockSiteId!: string;
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary of the inventories.' })
  subsidiaryId?: string | null;
}

@InputType({ description: 'A stock count: the quantity (and price) a product has at a site.' })
export class AdjustStockInput {
  @Field(() => ID, { description: 'Id of the product.' }) productId!: string;
  @Field(() => ID, { description: 'Id of the stock site.' }) stockSiteId!: string;
  @Field(() => Float, {
    description:
      'The quantity counted: a surplus goes into an unnamed batch, a shortfall is taken first-expiring-first; below the reserved quantity is a 409.',
  })
  @Min(0)
  newQuantity!: number;
  @Field(() => Float, { nullable: true, description: 'The new price of one unit.' })
  @IsOptional()
  @Min(0)
  newUnitPrice?: number | null;
}

@InputType({ description: 'A change to one batch, named by site, product, number and location.' })
export class StockBatchChangeInput {
  @Field(() => ID, { description: 'Id of the stock site.' }) stockSiteId!: string;
  @Field(() => ID, { description: 'Id of the product.' }) productId!: string;
  @Field(() => String, { nullable: true, description: 'Number of the batch.' }) batchNumber?: string | null;
  @Field(() => String, { nullable: true, description: 'Where in the site the batch lies.' }) locationId?:
    string | null;
  @Field(() => Float, { nullable: true, description: "The batch's new quantity." })
  @IsOptional()
  @Min(0)
  quantity?: number | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: "The batch's new expiration date." })
  expirationDate?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: "The batch's new production date." })
  productionDate?: Date | null;
}

const BatchSearchRowPage = PageOf(BatchSearchRow);
const ProductStockRowPage = PageOf(ProductStockRow);

/** Stock operations beyond the family, and an inventory's locations. */
@Resolver(() => StockInventory)
export class StockInventoryResolver {
  @FieldResolver(() => [StockLocation], { description: 'The batches, grouped by location.' })
  locations(@Root() inv: StockInventory, @Ctx() ctx: Context): Promise<StockLocation[]> {
    return locationsOf(ctx, inv);
  }

  @Requires(can('CREATE', 'INVENTORY'))
  @Mutation(() => [StockInventory], {
    description: 'Adds stock to a site: batches merge by number and location, prices average by quantity.',
  })
  addStock(
    @Arg('input', () => AddStockInput, { description: 'The site and the lines added.' }) input: AddStockInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory[]> {
    return addStock(ctx, input);
  }

  @Requires(can('UPDATE', 'INVENTORY'))
  @Mutation(() => StockInventory, { description: 'Sets the quantity (and price) of a product at a site.' })
  adjustStock(
    @Arg('input', () => AdjustStockInput, { description: 'The product, the site and the quantity counted.' })
    input: AdjustStockInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory> {
    return adjustStock(ctx, input);
  }

  @Requires(can('UPDATE', 'INVENTORY'))
  @Mutation(() => StockInventory, { description: 'Changes one batch; the inventory follows.' })
  updateStockBatch(
    @Arg('dto', () => StockBatchChangeInput, { description: 'The batch and its new values.' })
    dto: StockBatchChangeInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory> {
    return updateBatch(ctx, dto);
  }

  @Requires(can('READ', 'INVENTORY'))
  @Query(() => BatchSearchRowPage, { description: 'The batches of a site with their products.' })
  searchBatches(
    @Ctx() ctx: Context,
    @Arg('stockSiteId', () => ID, { description: 'Id of the stock site.' }) stockSiteId: string,
    @Arg('search', () => String, {
      nullable: true,
      description:
        'Terms, separated by spaces; each must occur (case-insensitively) in the product name, brand or category, or the batch number or location.',
    })
    search?: string,
    @Arg('category', () => String, { nullable: true, description: 'Only products of this category.' })
    category?: string,
    @Arg('brand', () => String, { nullable: true, description: 'Only products of this brand.' })
    brand?: string,
    @Arg('batchNumber', () => String, { nullable: true, description: 'Only this batch number.' })
    batchNumber?: string,
    @Arg('locationId', () => String, { nullable: true, description: 'Only this location.' })
    locationId?: string,
    @Arg('expiryFrom', () => DateTimeISOResolver, {
      nullable: true,
      description: 'Only batches expiring at or after this.',
    })
    expiryFrom?: Date,
    @Arg('expiryTo', () => DateTimeISOResolver, {
      nullable: true,
      description: 'Only batches expiring at or before this.',
    })
    expiryTo?: Date,
    @Arg('stockDateFrom', () => DateTimeISOResolver, {
      nullable: true,
      description: 'Only batches last stocked at or after this.',
    })
    stockDateFrom?: Date,
    @Arg('stockDateTo', () => DateTimeISOResolver, {
      nullable: true,
      description: 'Only batches last stocked at or before this.',
    })
    stockDateTo?: Date,
    @Arg('page', () => Int, { nullable: true, description: ARG_DOCS.pageNumber }) page?: number,
    @Arg('size', () => Int, { nullable: true, description: ARG_DOCS.pageSize }) size?: number,
    @Arg('sortBy', () => BatchSortField, { nullable: true, description: 'What to sort by.' })
    sortBy?: BatchSortField,
    @Arg('direction', () => Direction, { nullable: true, description: ARG_DOCS.direction })
    direction?: Direction,
  ): Promise<Page<BatchSearchRow>> {
    return searchBatches(ctx, {
      stockSiteId,
      search,
      category,
      brand,
      batchNumber,
      locationId,
      expiryFrom,
      expiryTo,
      stockDateFrom,
      stockDateTo,
      page,
      size,
      sortBy,
      direction,
    });
  }

  @Requires(can('READ', 'INVENTORY'))
  @Query(() => ProductStockRowPage, {
    description: `Products (dynamic search) with their stock at a site and, optionally, at a destination. ${PRODUCT_STOCK_FIELDS_TEXT}`,
  })
  searchProductStock(
    @Ctx() ctx: Context,
    @Arg('input', () => SearchInput, { nullable: true, description: ARG_DOCS.searchInput })
    input?: SearchInput,
    @Arg('stockSiteId', () => ID, {
      nullable: true,
      description: 'Id of the stock site whose stock is shown.',
    })
    stockSiteId?: string,
    @Arg('destinationStockSiteId', () => ID, {
      nullable: true,
      description: 'Id of a destination site whose stock is shown alongside.',
    })
    destinationStockSiteId?: string,
  ): Promise<Page<ProductStockRow>> {
    return searchProductStock(ctx, input ?? {}, stockSiteId, destinationStockSiteId);
  }

  @Requires(can('READ', 'INVENTORY'))
  @Query(() => [ReorderSuggestion], {
    description:
      'The inventories at or below their minimum with what to order to bring them up to their maximum, by site and product.',
  })
  stockReorderSuggestions(
    @Ctx() ctx: Context,
    @Arg('siteId', () => ID, { nullable: true, description: 'Only this stock site.' }) siteId?: string,
  ): Promise<ReorderSuggestion[]> {
    return reorderSuggestions(ctx, siteId);
  }
}
