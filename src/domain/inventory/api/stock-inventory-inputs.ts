import { Field, Float, ID, InputType } from 'type-graphql';
import { IsOptional, Min, ValidateNested } from 'class-validator';
import { StockReservationInput, STOCK_INVENTORY_DOCS } from '../entities/stock-inventory';
import { allOf } from '../../../family/field-decorators';

/** A stock threshold (minimum or maximum), set alike on create and update. */
const Threshold = (description: string) =>
  allOf(
    Field(() => Float, { nullable: true, description }),
    IsOptional(),
    Min(0),
  );

/**
 * Quantities are never written through these inputs: they follow from batches, which only the
 * stock operations (addStock, adjustStock, updateStockBatch, waste) change. GraphQL's create makes
 * an empty inventory (for setting a minimum before any stock arrives); update sets thresholds and
 * the reservations clients keep (stock in transit and transfers' reservations are the transfers').
 */
@InputType({ description: 'An empty inventory of a product at a site.' })
export class CreateStockInventoryInput {
  @Field(() => ID, { description: STOCK_INVENTORY_DOCS.productId })
  productId!: string;
  @Field(() => ID, { description: 'Id of the stock site; one inventory per (site, product).' })
  siteId!: string;
  @Field(() => String, {
    nullable: true,
    description: STOCK_INVENTORY_DOCS.subsidiaryId,
  })
  subsidiaryId?: string | null;
  @Threshold(STOCK_INVENTORY_DOCS.minimum) minimum?: number | null;
  @Threshold(STOCK_INVENTORY_DOCS.maximum) maximum?: number | null;
}

@InputType({ description: 'Changes to an inventory; quantities follow from them.' })
export class UpdateStockInventoryInput {
  @Threshold(STOCK_INVENTORY_DOCS.minimum) minimum?: number | null;
  @Threshold(STOCK_INVENTORY_DOCS.maximum) maximum?: number | null;

  @Field(() => [StockReservationInput], {
    nullable: true,
    description:
      "Replaces the reservations of orders, production and others; the transfers' own (type TRANSFER) stay and cannot be sent.",
  })
  @IsOptional()
  @ValidateNested({ each: true })
  reservations?: StockReservationInput[];
}
