import { Extensions, Field, Float, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from '../../../schema/date-time';
import { FileAsset, UnitOfMeasurement } from '../../../entities/shared';
import { ProductType } from '../../reference/entities/product';
import { StockSource } from '../entities/stock-batch';
import { ProductQuantity } from '../entities/shapes';

/**
 * Read-only shapes assembled from stored rows: an inventory's locations (from its batches), batch
 * search rows and product stock rows (batches or inventories joined with their products).
 */

@ObjectType('LocationBatch', { description: 'A batch at a location, as an inventory shows it.' })
export class LocationBatch {
  @Field(() => ID, { description: 'The batch id (GraphQL only).' })
  @Extensions({ rest: false })
  id!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Number of the batch; with the location it names the batch.',
  })
  batchNumber?: string | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When the batch expires; stock is taken first-expiring-first.',
  })
  expirationDate?: Date | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When stock was last added to the batch.',
  })
  lastStockDate?: Date | null;
  @Field(() => String, { nullable: true, description: 'Id of the purchase order the batch came in on.' })
  originalPurchaseOrderId?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the batch was made.' })
  productionDate?: Date | null;
  @Field(() => Float, { description: 'Quantity in the batch.' }) quantity!: number;
  @Field(() => StockSource, { nullable: true, description: 'How the batch came into stock.' })
  stockSource?: StockSource | null;
  @Field(() => [ProductQuantity], { description: 'The batch quantity split over units of measurement.' })
  uomSplit!: ProductQuantity[];

  @Field(() => Float, { description: 'The price the batch came in at (GraphQL only).' })
  @Extensions({ rest: false })
  unitPrice!: number;
}

@ObjectType('StockLocation', { description: 'The batches of an inventory at one location of its site.' })
export class StockLocation {
  @Field(() => String, { nullable: true, description: 'The location; null for unlocated batches.' })
  id!: string | null;

  @Field(() => Float, { description: "Sum of the location's batches." }) totalQuantity!: number;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When stock was last added at the location.',
  })
  lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: "Earliest expiration date of the location's batches.",
  })
  earliestExpirationDate!: Date | null;
  @Field(() => [LocationBatch], { description: 'The batches at the location.' }) batches!: LocationBatch[];
}

@ObjectType('BatchSearchRow', { description: 'A batch of a stock site with its product.' })
export class BatchSearchRow {
  @Field(() => String, { nullable: true, description: 'Number of the batch.' }) batchNumber!: string | null;
  @Field(() => String, { nullable: true, description: 'Brand of the product.' }) brand!: string | null;
  @Field(() => String, { nullable: true, description: 'Category of the product.' }) category!: string | null;
  @Field(() => String, { nullable: true, description: 'Where in the site the batch lies.' }) locationId!:
    string | null;
  @Field(() => String, { description: 'Id of the product.' }) productId!: string;
  @Field(() => String, { nullable: true, description: 'Name of the product.' }) productName!: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the batch expires.' })
  expirationDate!: Date | null;
  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'When stock was last added to the batch.',
  })
  lastStockDate!: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the batch was made.' })
  productionDate!: Date | null;
  @Field(() => Float, { description: 'Quantity in the batch.' }) quantity!: number;
  @Field(() => Float, { description: 'Price of one unit of the batch.' }) unitPrice!: number;
  @Field(() => [FileAsset], { description: 'Pictures of the product.' }) imageAssets!: FileAsset[];
}

@ObjectType('DestinationProductInfo', { description: "A product's stock at the destination site." })
export class DestinationProductInfo {
  @Field(() => Float, { description: 'Available at the destination: total − reserved.' })
  amountAvailable!: number;
  @Field(() => Float, { description: 'Reserved at the destination.' }) amountReserved!: number;
  @Field(() => Float, { nullable: true, description: "The destination's maximum for the product." })
  maximum!: number | null;
  @Field(() => Float, { nullable: true, description: "The destination's minimum for the product." })
  minimum!: number | null;
  @Field(() => Float, { description: 'Total at the destination.' }) totalAmount!: number;
  @Field(() => String, { nullable: true, description: 'Id of the destination site.' }) stockSiteId!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Name of the destination site.' }) stockSiteName!:
    string | null;
}

@ObjectType('ProductStockRow', { description: 'A product with its stock at a site.' })
export class ProductStockRow {
  @Field(() => Float, { description: 'Available at the site: total − reserved.' }) amountAvailable!: number;
  @Field(() => Float, { description: 'Reserved at the site.' }) amountReserved!: number;
  @Field(() => Float, { nullable: true, description: "The site's maximum for the product." }) maximum!:
    number | null;
  @Field(() => Float, { nullable: true, description: "The site's minimum for the product." }) minimum!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Sales price of the product.' }) salesPrice!:
    number | null;
  @Field(() => Float, { description: 'Total at the site: the sum of the batches.' }) totalAmount!: number;
  @Field(() => Float, { nullable: true, description: 'Quantity-weighted average price of the batches.' })
  unitPrice!: number | null;
  @Field(() => UnitOfMeasurement, { nullable: true, description: "The product's base unit." })
  baseUnit!: UnitOfMeasurement | null;
  @Field(() => [UnitOfMeasurement], { description: 'The units the product is counted in.' })
  unitsOfMeasurement!: UnitOfMeasurement[];
  @Field(() => String, { nullable: true, description: 'Currency of the prices.' }) currency!: string | null;
  @Field(() => String, { nullable: true, description: "Id of the product's picture." }) imageBlobId!:
    string | null;
  @Field(() => String, { description: 'Id of the product.' }) productId!: string;
  @Field(() => String, { nullable: true, description: 'Name of the product.' }) productName!: string | null;
  @Field(() => String, { nullable: true, description: 'Id of the stock site.' }) stockSiteId!: string | null;
  @Field(() => String, { nullable: true, description: 'Name of the stock site.' }) stockSiteName!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Id of the subsidiary of the inventory.' })
  subsidiaryId!: string | null;
  @Field(() => ProductType, { nullable: true, description: 'What kind of product it is.' })
  productType!: ProductType | null;
  @Field(() => DestinationProductInfo, {
    nullable: true,
    description: "The product's stock at the destination site, when one was asked for.",
  })
  destinationProductInfo!: DestinationProductInfo | null;
}

@ObjectType('ReorderSuggestion', {
  description:
    'A product at a site at or below its minimum: how much to order to bring it up to its maximum.',
})
export class ReorderSuggestion {
  @Field(() => ID, { description: 'Id of the inventory.' }) inventoryId!: string;
  @Field(() => ID, { description: 'Id of the product.' }) productId!: string;
  @Field(() => ID, { description: 'Id of the stock site.' }) siteId!: string;
  @Field(() => String, { nullable: true, description: 'The subsidiary the inventory belongs to.' })
  subsidiaryId!: string | null;
  @Field(() => Float, { description: 'What is available at the site now.' }) availableQuantity!: number;
  @Field(() => Float, { description: 'What is on its way to the site.' }) inTransitQuantity!: number;
  @Field(() => Float, { description: 'The minimum the stock fell to or below.' }) minimum!: number;
  @Field(() => Float, { nullable: true, description: 'The maximum ordered up to (absent: the minimum).' })
  maximum!: number | null;
  @Field(() => Float, {
    description: '(maximum, or minimum when none) - available - in transit: what to order.',
  })
  suggestedQuantity!: number;
}
