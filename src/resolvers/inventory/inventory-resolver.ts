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
import { DateTimeISOResolver } from '../../graphql/date-time';
import { ArrayMinSize, IsOptional, IsPositive, Min, ValidateNested } from 'class-validator';
import type { Context } from '../../context';
import { StockSource } from '../../entities/inventory/stock-batch';
import { StockInventory } from '../../entities/inventory/stock-inventory';
import { BatchSearchRow, ProductStockRow, StockLocation } from '../../entities/inventory/stock-views';
import { PageOf, type Page } from '../../family/page';
import { Direction, SearchInput } from '../../family/search-input';
import { can, Requires } from '../../permissions/rules';
import {
  addStock,
  adjustStock,
  BatchSortField,
  locationsOf,
  searchBatches,
  searchProductStock,
  updateBatch,
} from './inventory-service';

registerEnumType(BatchSortField, { name: 'BatchSortField', description: 'What batch search sorts by.' });

@InputType({ description: 'A quantity of a product coming into stock.' })
export class StockLineInput {
  @Field(() => ID) productId!: string;
  @Field(() => Float) @IsPositive() quantity!: number;
  @Field(() => Float, { nullable: true, description: 'Per unit; absent: the current valuation.' })
  @IsOptional()
  @Min(0)
  price?: number | null;
  @Field(() => String, { nullable: true }) batchNumber?: string | null;
  @Field(() => String, { nullable: true }) locationId?: string | null;
  @Field(() => String, { nullable: true }) originalPurchaseOrderId?: string | null;
  @Field(() => StockSource, { nullable: true }) stockSource?: StockSource | null;
}

@InputType({ description: 'Stock coming into a site (POST /inventory).' })
export class AddStockInput {
  @Field(() => [StockLineInput])
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  products!: StockLineInput[];

  @Field(() => ID) stockSiteId!: string;
  @Field(() => String, { nullable: true }) subsidiaryId?: string | null;
}

@InputType({ description: 'A stock count: the quantity (and price) a product has at a site.' })
export class AdjustStockInput {
  @Field(() => ID) productId!: string;
  @Field(() => ID) stockSiteId!: string;
  @Field(() => Float) @Min(0) newQuantity!: number;
  @Field(() => Float, { nullable: true }) @IsOptional() @Min(0) newUnitPrice?: number | null;
}

@InputType({ description: 'A change to one batch, named by site, product, number and location.' })
export class StockBatchChangeInput {
  @Field(() => ID) stockSiteId!: string;
  @Field(() => ID) productId!: string;
  @Field(() => String, { nullable: true }) batchNumber?: string | null;
  @Field(() => String, { nullable: true }) locationId?: string | null;
  @Field(() => Float, { nullable: true }) @IsOptional() @Min(0) quantity?: number | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) expirationDate?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true }) productionDate?: Date | null;
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
    @Arg('input', () => AddStockInput) input: AddStockInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory[]> {
    return addStock(ctx, input);
  }

  @Requires(can('UPDATE', 'INVENTORY'))
  @Mutation(() => StockInventory, { description: 'Sets the quantity (and price) of a product at a site.' })
  adjustStock(
    @Arg('input', () => AdjustStockInput) input: AdjustStockInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory> {
    return adjustStock(ctx, input);
  }

  @Requires(can('UPDATE', 'INVENTORY'))
  @Mutation(() => StockInventory, { description: 'Changes one batch; the inventory follows.' })
  updateStockBatch(
    @Arg('dto', () => StockBatchChangeInput) dto: StockBatchChangeInput,
    @Ctx() ctx: Context,
  ): Promise<StockInventory> {
    return updateBatch(ctx, dto);
  }

  @Requires(can('READ', 'INVENTORY'))
  @Query(() => BatchSearchRowPage, { description: 'The batches of a site with their products.' })
  searchBatches(
    @Ctx() ctx: Context,
    @Arg('stockSiteId', () => ID) stockSiteId: string,
    @Arg('search', () => String, { nullable: true }) search?: string,
    @Arg('category', () => String, { nullable: true }) category?: string,
    @Arg('brand', () => String, { nullable: true }) brand?: string,
    @Arg('batchNumber', () => String, { nullable: true }) batchNumber?: string,
    @Arg('locationId', () => String, { nullable: true }) locationId?: string,
    @Arg('expiryFrom', () => DateTimeISOResolver, { nullable: true }) expiryFrom?: Date,
    @Arg('expiryTo', () => DateTimeISOResolver, { nullable: true }) expiryTo?: Date,
    @Arg('stockDateFrom', () => DateTimeISOResolver, { nullable: true }) stockDateFrom?: Date,
    @Arg('stockDateTo', () => DateTimeISOResolver, { nullable: true }) stockDateTo?: Date,
    @Arg('page', () => Int, { nullable: true }) page?: number,
    @Arg('size', () => Int, { nullable: true }) size?: number,
    @Arg('sortBy', () => BatchSortField, { nullable: true }) sortBy?: BatchSortField,
    @Arg('direction', () => Direction, { nullable: true }) direction?: Direction,
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
    description: 'Products (dynamic search) with their stock at a site and, optionally, at a destination.',
  })
  searchProductStock(
    @Ctx() ctx: Context,
    @Arg('input', () => SearchInput, { nullable: true }) input?: SearchInput,
    @Arg('stockSiteId', () => ID, { nullable: true }) stockSiteId?: string,
    @Arg('destinationStockSiteId', () => ID, { nullable: true }) destinationStockSiteId?: string,
  ): Promise<Page<ProductStockRow>> {
    return searchProductStock(ctx, input ?? {}, stockSiteId, destinationStockSiteId);
  }
}
